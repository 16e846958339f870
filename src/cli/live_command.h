// The composition root of `spinup watch` and `spinup run` (which sources, which sinks, which
// live stages), at the CLI edge; src/live/ keeps the sources and the loop. The CLI resolves flags
// and the environment into this config once, and these functions build the sources, the
// sampler, the startup model, the sinks and the loop.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/live_sampler.h"
#include "live/loops.h"
#include "live/ready_gate.h"
#include "live/startup_model.h"
#include "live/warm_stage.h"
#include "live/watcher.h"
#include "proc/stall_gather.h"

namespace spinup {
class BudgetBook;
}

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

  ProbeMode probe = ProbeMode::kAuto;  // --probe (with --port)
  proc::GatherOptions gather;          // evidence at a stall (py-spy's path, /proc root)
  std::optional<WarmConfig> warm;      // --warm

  // More sinks from the CLI (metrics, HTML report: src/sink/fleet_outputs.h), owned by the caller.
  std::vector<Sink*> extra_sinks;

  // The budgets learned from this host's earlier comparable starts (src/history/learner.h), owned
  // by the caller; null without history. Passed to the judge as LearnedBudgets: they replace a
  // phase's fixed budget where history covers it.
  const BudgetBook* learned_budgets = nullptr;
  // The history's latest predicted seconds to ready (shown in sd_notify STATUS=); may be empty.
  std::function<std::optional<double>()> predicted_ready_eta;
};

// Both return the process exit code and write errors as `spinup: ...` lines to `err`.
int WatchCommand(const LiveCommandConfig& config, std::ostream& out, std::ostream& err);
// `view_out` takes the live view (stderr under run: stdout carries the server's own output).
int RunCommand(const LiveCommandConfig& config, std::ostream& view_out, std::ostream& err);

}  // namespace spinup
