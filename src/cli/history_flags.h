// --history PATH / --no-history, shared by `run`, `watch`, `explain --record` and `history`, and
// their resolution at the CLI edge: the default database path (from the user and the
// environment), the host name, the checkpoint fingerprint and the server's startup flags.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/live_command.h"
#include "history/recorder.h"

namespace CLI {
class App;
}

namespace spinup {

class MetricsSink;

struct HistoryFlags {
  std::string path;
  bool off = false;
};

// `record`: the command records starts (run, watch) rather than only reading them.
void AddHistoryFlags(CLI::App& sub, HistoryFlags& flags, bool record);

// root (uid 0) -> /var/lib/spinup/history.db; else $XDG_STATE_HOME/spinup/history.db; else
// $HOME/.local/state/spinup/history.db; else (a system service's user without a home)
// /var/lib/spinup/history.db. Pure: the caller passes the environment.
std::string DefaultHistoryPath(unsigned uid, const char* xdg_state_home, const char* home);

// The database path for these flags ("" with --no-history): --history, else the config file's
// [history] dir + "/history.db" (`config_dir`), else the default; reads the environment.
std::string ResolveHistoryPath(const HistoryFlags& flags, const std::string& config_dir);

// For run/watch: opens the history for this start (model from --model or the server's command
// line, its fingerprint from the checkpoint's headers, the startup flags from the command line).
// nullptr with --no-history; a recorder that records nothing (after one warning) when the
// database cannot be used.
std::unique_ptr<HistoryRecorder> StartHistory(const HistoryFlags& flags, const std::string& model,
                                              const std::vector<std::string>& server_argv,
                                              const std::string& source, CliContext& ctx);

// Wires the recorder into a live command: it records as a sink, its learned budgets go to the
// judge and its predicted time to ready to sd_notify's STATUS=.
void AttachHistory(HistoryRecorder& recorder, LiveCommandConfig& config);

// Feeds the recorder's predictions to the metrics sink (spinup_expected_phase_seconds,
// spinup_eta_seconds).
void ConnectHistoryMetrics(HistoryRecorder& recorder, MetricsSink& metrics);

// The model path the server was given: --model-path X, --model X, --model=X, `vllm serve X`.
std::string ModelFromArgv(const std::vector<std::string>& argv);

std::string HostName();

}  // namespace spinup
