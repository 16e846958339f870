// MetricsSink keeps the current state of one startup as Prometheus metrics (documented in
// docs/metrics.md). It is fed by the watch loop's thread (OnSample/OnVerdict) and read by the
// metrics server's threads (Render), so its state sits behind a mutex. Every sample carries the
// `model` and `host` labels, so the fleet view is one Prometheus query; spinup aggregates nothing
// across nodes itself. `job` and `instance` are left to the scrape configuration (Prometheus
// convention), so no honor_labels is needed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sink/metrics_exposition.h"
#include "spinup/sink.h"

namespace spinup {

struct MetricsConfig {
  std::string model;  // --model-label, default the model directory's name (resolved by the CLI)
  std::string host;   // the node's host name (resolved by the CLI)
  std::string version;
};

class MetricsSink final : public Sink {
 public:
  // `now_ms` is the clock used for the running phase's seconds (injected for tests and replay).
  MetricsSink(MetricsConfig config, std::function<int64_t()> now_ms);

  void OnLogEvent(const LogEvent& event) override;
  void OnSample(const Sample& sample) override;
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& verdict) override;
  // From the startup history (src/history): each phase's expected seconds
  // (spinup_expected_phase_seconds) and the predicted seconds to ready, which then is what
  // spinup_eta_seconds says. Callable from any thread.
  void SetExpectations(std::map<Phase, double> expected_phase_s, std::optional<double> eta_s);

  std::vector<MetricFamily> Collect() const;
  std::string Render() const { return WriteExposition(Collect()); }

 private:
  class Families;  // the families being collected (metrics_sink.cc)
  // Collect's steps; each runs under mu_.
  void CollectState(Families& f) const;
  void CollectPhases(Families& f, const Verdict& v, int64_t now) const;
  void CollectProgress(Families& f, const Verdict& v) const;
  void CollectHistoryAndClock(Families& f, int64_t now) const;
  void CollectGpus(Families& f) const;

  MetricsConfig config_;
  std::function<int64_t()> now_ms_;
  mutable std::mutex mu_;
  std::optional<Verdict> verdict_;
  std::optional<Sample> sample_;
  int restarts_ = 0;  // monotonic: a counter never goes down
  int64_t log_events_ = 0;
  std::optional<int64_t> first_time_ms_;
  std::optional<int64_t> last_update_ms_;
  std::map<Phase, double> expected_phase_s_;
  std::optional<double> predicted_eta_s_;
};

}  // namespace spinup
