// PLACEHOLDER: replaced by the issue that owns `spinup bench`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddBenchCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("bench", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup bench: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
