// PLACEHOLDER: replaced by the issue that owns `spinup watch`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddWatchCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("watch", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup watch: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
