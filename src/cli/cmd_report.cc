// PLACEHOLDER: replaced by the issue that owns `spinup report`.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddReportCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("report", "(not built yet)");
  sub->callback([&ctx] {
    *ctx.err << "spinup report: not built yet\n";
    ctx.exit_code = kExitUsage;
  });
}

}  // namespace spinup
