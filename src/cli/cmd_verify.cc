// PLACEHOLDER: replaced by the issue that owns `spinup verify`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddVerifyCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("verify", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup verify: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
