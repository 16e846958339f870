// PLACEHOLDER: replaced by the issue that owns `spinup explain`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddExplainCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("explain", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup explain: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
