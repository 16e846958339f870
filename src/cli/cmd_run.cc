// PLACEHOLDER: replaced by the issue that owns `spinup run`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddRunCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("run", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup run: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
