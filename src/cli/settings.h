// Operator defaults: /etc/spinup/config.toml (or --config FILE) and /etc/spinup/rules.d/*.json,
// resolved once at the CLI edge into Settings. Flags override the file; commands read Settings
// and never the file or the environment. Format and keys: docs/config.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace spinup {

// What the config file can set. Every field is optional: unset means "the built-in default".
struct FileConfig {
  std::optional<std::string> metrics;      // [metrics] address = "0.0.0.0:9400"
  std::optional<std::string> model_label;  // [metrics] model = "llama-70b"
  std::optional<double> stall_after_s;     // [budgets] stall_after = "10m"
  std::optional<std::string> history_dir;  // [history] dir = "/var/lib/spinup"
  std::optional<std::string> rules_dir;    // [rules] dir = "/etc/spinup/rules.d"
  std::vector<std::string> rules_files;    // [rules] files = ["/etc/spinup/extra.json"]
};

// Pure: TOML text in, FileConfig out. `name` prefixes every error ("config.toml:3:1: ...").
// Unknown tables or keys are errors, so a typo does not silently do nothing.
Result<FileConfig> ParseConfigToml(std::string_view text, std::string_view name);

// The resolved settings every command reads.
struct Settings {
  std::string config_file;              // the file read ("" when none)
  std::string metrics;                  // default --metrics for run/watch ("" none)
  std::string model_label;              // default --model-label ("" derive from the model folder)
  std::optional<double> stall_after_s;  // default --stall-after
  std::string history_dir;
  std::vector<std::string> rules_files;  // rules.d/*.json (sorted) then [rules] files
  bool color_out = false;                // ANSI colour on stdout / stderr
  bool color_err = false;
};

// Where the defaults live; tests point these into fixture trees.
struct SettingsPaths {
  std::string default_config = "/etc/spinup/config.toml";  // read when present
  std::string default_rules_dir = "/etc/spinup/rules.d";   // *.json loaded when present
};

// --config FILE must exist; the default file may be absent. Reads the rules folder listing.
Result<Settings> LoadSettings(const std::string& config_flag, const SettingsPaths& paths);

// `--color` value + the terminal and NO_COLOR: "always" wins, "never" and NO_COLOR turn colour
// off, "auto" colours a terminal only.
bool ResolveColor(std::string_view mode, bool is_tty, bool no_color_env);

}  // namespace spinup
