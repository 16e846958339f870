// PLACEHOLDER: replaced by the issue that owns `spinup inspect`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddInspectCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("inspect", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup inspect: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
