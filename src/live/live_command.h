// `spinup watch` and `spinup run` as library calls: the CLI resolves flags and the environment
// into this config once, and these functions build the sources, the sampler, the startup model,
// the sinks and the loop.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/live_sampler.h"
#include "live/loops.h"
#include "live/startup_model.h"
#include "live/watcher.h"

namespace spinup {

enum class LiveView { kTerminal, kPlain, kJson };

struct LiveCommandConfig {
  // watch: what to attach to (any combination).
  std::vector<int> pids;
  std::string unit;
  std::vector<std::string> journal_files;
  std::vector<std::string> logs;  // "-": standard input
  std::string log_command;        // --log-command: run it, follow its output, restart it
  int64_t journal_since_ms = 0;   // live journal: entries from this time on

  LiveSamplerConfig sampler;  // pids/unit are filled from the fields above
  StartupModelConfig model;
  WatchOptions watch;
  LiveView view = LiveView::kPlain;
  int terminal_width = 100;
  std::string notify_socket;  // NOTIFY_SOCKET: send sd_notify STATUS/READY/WATCHDOG there
  std::string events_file;    // --events FILE: the JSON-lines stream, besides the view

  RunOptions run;  // run: the command and its output log

  // More sinks from the CLI (metrics, HTML report: src/sink/fleet_outputs.h), owned by the caller.
  std::vector<Sink*> extra_sinks;
};

// Both return the process exit code and write errors as `spinup: ...` lines to `err`.
int WatchCommand(const LiveCommandConfig& config, std::ostream& out, std::ostream& err);
// `view_out` takes the live view (stderr under run: stdout carries the server's own output).
int RunCommand(const LiveCommandConfig& config, std::ostream& view_out, std::ostream& err);

}  // namespace spinup
