#include "cli/history_flags.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "history/fingerprint.h"
#include "history/server_flags.h"
#include "sink/metrics_sink.h"
#include "spinup/checkpoint.h"

namespace spinup {

void AddHistoryFlags(CLI::App& sub, HistoryFlags& flags, bool record) {
  sub.add_option("--history", flags.path,
                 "the startup history database (default: $XDG_STATE_HOME/spinup/history.db, "
                 "/var/lib/spinup/history.db for root; docs/history.md)");
  if (record) {
    sub.add_flag("--no-history", flags.off,
                 "neither record this start nor learn budgets from earlier ones");
  }
}

std::string DefaultHistoryPath(unsigned uid, const char* xdg, const char* home) {
  const std::string system = "/var/lib/spinup/history.db";
  // An explicit XDG_STATE_HOME wins for every user (root included): a service or a test that
  // sets it gets its own database.
  if (xdg != nullptr && *xdg == '/') return std::string(xdg) + "/spinup/history.db";
  if (uid == 0) return system;
  if (home != nullptr && *home == '/') return std::string(home) + "/.local/state/spinup/history.db";
  return system;
}

std::string ResolveHistoryPath(const HistoryFlags& flags, const std::string& config_dir) {
  if (flags.off) return "";
  if (!flags.path.empty()) return flags.path;
  if (!config_dir.empty()) return config_dir + "/history.db";
  return DefaultHistoryPath(::getuid(), std::getenv("XDG_STATE_HOME"), std::getenv("HOME"));
}

std::string HostName() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) return "";
  return host;
}

std::string ModelFromArgv(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if ((a == "--model-path" || a == "--model") && i + 1 < argv.size()) return argv[i + 1];
    if (a.starts_with("--model-path=")) return a.substr(13);
    if (a.starts_with("--model=")) return a.substr(8);
    if (a == "serve" && i > 0 && argv[i - 1].ends_with("vllm") && i + 1 < argv.size() &&
        !argv[i + 1].starts_with("-")) {
      return argv[i + 1];
    }
  }
  return "";
}

void AttachHistory(HistoryRecorder& recorder, LiveCommandConfig& config) {
  config.extra_sinks.push_back(&recorder);
  config.learned_budgets = &recorder.book();
  HistoryRecorder* h = &recorder;
  config.predicted_ready_eta = [h]() -> std::optional<double> {
    return h->last_prediction() ? h->last_prediction()->eta_s : std::nullopt;
  };
}

std::unique_ptr<HistoryRecorder> StartHistory(const HistoryFlags& flags, const std::string& model,
                                              const std::vector<std::string>& server_argv,
                                              const std::string& source, CliContext& ctx) {
  std::string path = ResolveHistoryPath(flags, ctx.settings.history_dir);
  if (path.empty()) return nullptr;
  HistoryRecorderConfig hc;
  hc.path = path;
  RecordContext& c = hc.context;
  c.host = HostName();
  c.model = model.empty() ? ModelFromArgv(server_argv) : model;
  // Headers only: a fraction of a second even for hundreds of shards. A hub id or a missing
  // folder simply has no fingerprint.
  std::error_code ec;
  if (!c.model.empty() && std::filesystem::exists(c.model, ec)) {
    c.model = std::filesystem::absolute(c.model, ec).lexically_normal().string();
    if (auto ckpt = LoadCheckpoint(c.model); ckpt.ok() && !ckpt->shards.empty()) {
      c.fingerprint = FingerprintCheckpoint(*ckpt);
    }
  }
  c.flags = ParseStartupFlags(server_argv);
  c.spinup_version = SPINUP_VERSION;
  c.source = source;
  auto now = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  return std::make_unique<HistoryRecorder>(std::move(hc), now, *ctx.err);
}

void ConnectHistoryMetrics(HistoryRecorder& recorder, MetricsSink& metrics) {
  recorder.OnPrediction(
      [&metrics](const Prediction& p) { metrics.SetExpectations(p.expected_s, p.eta_s); });
}

}  // namespace spinup
