// A systemd service's command and environment, as `doctor --unit NAME` needs them: ExecStart=,
// Environment= and EnvironmentFile= from the unit file and its drop-ins, in systemd's order.
// The parsers are pure (text in, struct out); ReadServiceUnit does the file reading under an
// injectable root so tests use fixture trees. Never writes anything.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinup/status.h"

namespace spinup::doctor {

// One command line split into words the way systemd (and a POSIX shell, for the simple cases)
// does: whitespace separates, "double" and 'single' quotes group, backslash escapes. At most
// kMaxWords words.
std::vector<std::string> SplitCommandLine(std::string_view line);

// `Environment=` values: space-separated VAR=VALUE words, quotes allowed.
std::vector<std::pair<std::string, std::string>> ParseEnvironmentAssignments(
    std::string_view value);

// An EnvironmentFile: VAR=VALUE lines, '#' and ';' comments, optional quotes, an `export ` prefix.
std::vector<std::pair<std::string, std::string>> ParseEnvironmentFile(std::string_view text);

// What the [Service] section of one unit text and its drop-ins say, accumulated in order: a later
// `ExecStart=` (empty resets) replaces the earlier one, Environment= adds, EnvironmentFile= adds.
struct ServiceUnit {
  std::vector<std::string> exec_start;  // the last ExecStart= as words, prefixes (-@:+!) removed
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<std::string> environment_files;  // as written; a leading '-' means optional
  std::vector<std::string> sources;            // files read, in order (for the report)
};
void ApplyUnitText(std::string_view text, ServiceUnit& unit);

// Expands ${VAR} inside words and a whole-word $VAR (split on spaces), as systemd does in
// ExecStart=.
std::vector<std::string> ExpandVariables(const std::vector<std::string>& words,
                                         const std::map<std::string, std::string>& env);

inline constexpr size_t kMaxWords = 1024;
inline constexpr size_t kMaxUnitBytes = 1 << 20;

// Finds NAME (".service" added when missing) in the unit directories below `root` (/etc, /run,
// /usr/lib, /lib in systemd's precedence), applies NAME.d/*.conf drop-ins (sorted by file name,
// an /etc file shadowing a same-named one below), reads the environment files below `root`, and
// returns the command and the merged environment. NotFound when no unit file exists.
struct UnitCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
  std::vector<std::string> sources;
  std::vector<std::string> problems;  // unreadable environment files and the like, one line each
};
Result<UnitCommand> ReadServiceUnit(const std::filesystem::path& root, std::string name);

}  // namespace spinup::doctor
