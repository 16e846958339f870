// PLACEHOLDER: replaced by the issue that owns `spinup evict`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddEvictCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("evict", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup evict: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
