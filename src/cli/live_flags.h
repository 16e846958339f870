// Flags shared by `spinup watch` and `spinup run`, and their resolution (with the environment:
// NOTIFY_SOCKET, the terminal, the clock tick, the local time zone) into a LiveCommandConfig.
// This is the only place the live commands read the environment.
#pragma once

#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/live_command.h"

namespace CLI {
class App;
}

namespace spinup {

struct LiveFlags {
  std::string model;
  int port = 0;
  std::string interval = "1s";
  bool json = false;
  bool once = false;
  std::string timeout;
  std::string stall_after;
  std::string until;
  std::vector<std::string> rules;
  std::string events;
  bool no_gpu = false;
  std::string probe;  // generate | health | none; "" = generate when the engine is known
  bool warm = false;
  std::string warm_reserve;  // memory left to the server and the system (default 2GiB / 10%)
};

void AddLiveFlags(CLI::App& sub, LiveFlags& flags);

// Fills `config` (everything but the sources); on a bad value writes `spinup: ...` to ctx.err and
// returns false.
bool ResolveLiveFlags(const LiveFlags& flags, CliContext& ctx, bool view_on_stderr,
                      LiveCommandConfig& config);
// --warm needs the checkpoint's folder: --model, else the server's command line. Call once the
// server's argv is known; false (and exit 2) when --warm cannot know what to warm.
bool ResolveWarmFlag(const LiveFlags& flags, const std::vector<std::string>& server_argv,
                     CliContext& ctx, LiveCommandConfig& config);
// The first executable NAME in the colon-separated PATH; "" when none.
std::string FindOnPath(std::string_view name, std::string_view path);

}  // namespace spinup
