// PLACEHOLDER: replaced by the issue that owns `spinup warm`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddWarmCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("warm", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup warm: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
