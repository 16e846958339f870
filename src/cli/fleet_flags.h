// Flags that put a live watch into the fleet's tools, shared by `spinup watch` and `spinup run`:
// --metrics ADDR:PORT, --model-label NAME, --report FILE.html. Resolved here, at the CLI edge (host
// name, the server's command line), into a FleetConfig.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "cli/live_command.h"
#include "sink/fleet_outputs.h"

namespace CLI {
class App;
}

namespace spinup {

struct FleetFlags {
  std::string metrics;
  std::string model_label;  // --model-label (--job, its old name, still works)
  std::string report;
  bool any() const { return !metrics.empty() || !report.empty(); }
};

void AddFleetFlags(CLI::App& sub, FleetFlags& flags);

// `model`: --model's value (may be empty); `server_argv`: the server's command line when known
// (run: its command; watch --pid: read from /proc). On a bad value writes `spinup: ...` to
// ctx.err, sets the usage exit code and returns false.
bool ResolveFleetFlags(const FleetFlags& flags, std::string_view model,
                       const std::vector<std::string>& server_argv, const std::string& source,
                       CliContext& ctx, FleetConfig& config);

// The config file's [metrics] defaults, where the flags leave them unset. `--once` never serves:
// a probe must not take the port from the long-running watch.
void ApplyFleetSettings(const Settings& settings, bool once, FleetFlags& flags);

// Starts the fleet outputs (when any flag asks for them), adds their sinks to `config`, runs
// `command` (the watch or run), then stops the metrics server and checks the report was written.
// Returns the command's exit code, or the usage code when a flag is bad or the port is busy.
// `with_metrics`, when set, is called with the metrics sink (if --metrics made one) before the
// command runs.
int WithFleetOutputs(const FleetFlags& flags, std::string_view model,
                     const std::vector<std::string>& server_argv, const std::string& source,
                     CliContext& ctx, LiveCommandConfig& config,
                     const std::function<int()>& command,
                     const std::function<void(MetricsSink&)>& with_metrics = {});

// "http://127.0.0.1:9400/metrics"; an IPv6 address in brackets ("http://[::1]:9400/metrics"), as
// a URL needs and as --metrics takes it.
std::string MetricsUrl(std::string_view host, int port);

// /proc/PID/cmdline split at NULs (empty when unreadable); capped.
std::vector<std::string> ReadCmdline(int pid);

}  // namespace spinup
