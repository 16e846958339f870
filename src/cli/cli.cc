#include "cli/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_codes.h"

namespace spinup {

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CliContext ctx;
  ctx.out = &out;
  ctx.err = &err;
  ctx.out_is_tty = (&out == &std::cout) && isatty(STDOUT_FILENO);
  ctx.err_is_tty = (&err == &std::cerr) && isatty(STDERR_FILENO);
  ctx.own_process = &out == &std::cout && &err == &std::cerr;

  CLI::App app{
      "spinup: see what a large-model inference server is doing while it starts, judge it, and "
      "load its checkpoint fast.",
      "spinup"};
  app.set_version_flag("--version", std::string("spinup ") + SPINUP_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 ready/ok, 1 crashed or problems found, 2 usage error, 3 stalled, "
      "4 timed out, 5 still in progress.");

  AddInspectCommand(app, ctx);
  AddVerifyCommand(app, ctx);
  AddBenchCommand(app, ctx);
  AddWarmCommand(app, ctx);
  AddEvictCommand(app, ctx);
  AddExplainCommand(app, ctx);
  AddWatchCommand(app, ctx);
  AddRunCommand(app, ctx);
  AddReportCommand(app, ctx);
  AddDoctorCommand(app, ctx);
  AddHistoryCommand(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp& e) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "spinup: " << e.what() << "\n";
    return kExitUsage;
  }
  // Output that did not reach its file (`verify --json > /dev/full`) is a failure, like cat's.
  out.flush();
  if (!out) {
    err << "spinup: cannot write the output: " << (errno ? std::strerror(errno) : "write error")
        << "\n";
    return ctx.exit_code == kExitOk ? kExitProblem : ctx.exit_code;
  }
  return ctx.exit_code;
}

}  // namespace spinup
