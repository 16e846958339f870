// The two loops that wait on the world and drive a Watcher: `watch` (attach to a running server)
// and `run` (start the server as a child, pass its output through, end its whole tree).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "live/watcher.h"

namespace spinup {

// Runs until the watch ends (verdict, timeout, --once, SIGINT/SIGTERM/SIGHUP, or every source and
// the process tree gone). Blocks those signals while it runs and handles them through a signalfd.
WatchEnd RunWatchLoop(Watcher& watcher, Clock& clock);

struct RunOptions {
  std::vector<std::string> argv;          // the server command
  std::string log_file;                   // --log: append the server's output here too
  std::chrono::milliseconds grace{5000};  // SIGTERM → SIGKILL
  std::string proc_root = "/proc";
  // Around every pass-through of the server's output (the terminal view erases and redraws).
  std::function<void()> before_output;
  std::function<void()> after_output;
  std::vector<VerdictStage*> stages;  // added to the watcher (not owned)
};

// Makes the sampler for the server once its PID is known.
using SamplerFactory = std::function<std::unique_ptr<SampleSource>(pid_t server_pid)>;

struct RunResult {
  int exit_code = 0;            // the server's own (128+N for signal N), or the watch's end code
  bool ended_by_watch = false;  // --until / --timeout / --once ended it, not the server
  std::string error;            // set when the server could not be started
  int killed_after_grace = 0;   // processes that needed SIGKILL
};

// Starts the server and watches it. The watcher must have no sampler of its own (it is made here
// through `make_sampler`); the server's stdout/stderr become sources of `watcher`.
RunResult RunServer(const RunOptions& options, WatchOptions watch_options, Clock& clock,
                    StartupModel& model, const SamplerFactory& make_sampler,
                    std::vector<Sink*> sinks);

}  // namespace spinup
