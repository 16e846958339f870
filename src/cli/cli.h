// The command line: raw flags become validated settings here, once, and are passed down as structs.
// RunCli is what main() calls; tests call it in-process with their own streams.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "cli/settings.h"

namespace CLI {
class App;
}

namespace spinup {

// What the CLI learns from its environment, once, in main (DetectCliEnv); tests build their own.
struct CliEnv {
  bool out_is_tty = false;
  bool err_is_tty = false;
  int columns = 0;        // the terminal's width (0: not a terminal)
  bool no_color = false;  // NO_COLOR is set and not empty
  SettingsPaths paths;    // /etc/spinup/config.toml and rules.d
};

// Where a command writes, and what it learned about its terminal. Commands never read the
// environment themselves: whatever they need from it is resolved here.
struct CliContext {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool out_is_tty = false;
  bool err_is_tty = false;
  CliEnv env;
  // --config and --color (every command has both); resolved into `settings` before the command
  // runs (docs/config.md).
  std::string config_flag;
  std::string color = "auto";
  Settings settings;
  std::vector<std::string> help_topic;  // `spinup help COMMAND [SUBCOMMAND]`
  int exit_code = 0;                    // set by the subcommand that ran
  // out/err are this process's own stdout/stderr (not a test's streams): `run` may split off
  // its tree keeper (live/tree_keeper.h), which forks this process.
  bool own_process = false;
};

CliEnv DetectCliEnv(const std::ostream& out, const std::ostream& err);

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
           const CliEnv& env);

// The whole command tree, as --help, the man pages and the completions see it.
void BuildCliApp(CLI::App& app, CliContext& ctx);

// "spinup 0.1.0 (git 1a2b3c4)".
std::string VersionString();

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
