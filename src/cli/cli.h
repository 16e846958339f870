// The command line: raw flags become validated settings here, once, and are passed down as structs.
// RunCli is what main() calls; tests call it in-process with their own streams.
#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace spinup {

// Where a command writes, and what it learned about its terminal. Commands never read the
// environment themselves: whatever they need from it is resolved here.
struct CliContext {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool out_is_tty = false;
  bool err_is_tty = false;
  int exit_code = 0;  // set by the subcommand that ran
  // out/err are this process's own stdout/stderr (not a test's streams): `run` may split off
  // its tree keeper (live/tree_keeper.h), which forks this process.
  bool own_process = false;
};

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// One per subcommand, each in its own cmd_<name>.cc: adds the subcommand and its callback.
void AddInspectCommand(CLI::App& app, CliContext& ctx);
void AddVerifyCommand(CLI::App& app, CliContext& ctx);
void AddBenchCommand(CLI::App& app, CliContext& ctx);
void AddWarmCommand(CLI::App& app, CliContext& ctx);
void AddEvictCommand(CLI::App& app, CliContext& ctx);
void AddExplainCommand(CLI::App& app, CliContext& ctx);
void AddWatchCommand(CLI::App& app, CliContext& ctx);
void AddRunCommand(CLI::App& app, CliContext& ctx);
void AddReportCommand(CLI::App& app, CliContext& ctx);
void AddDoctorCommand(CLI::App& app, CliContext& ctx);
void AddHistoryCommand(CLI::App& app, CliContext& ctx);

}  // namespace spinup
