// The live StartupModel over the rule engine: one LogStream per source (so lines of stdout,
// stderr, a log file and the journal never interleave mid-line), ONE StartupTracker and the Judge
// — the same log understanding as `spinup explain`, with live clocks and process samples.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diagnose/judge.h"
#include "diagnose/tracker.h"
#include "live/watcher.h"
#include "logs/log_stream.h"
#include "logs/rules.h"

namespace spinup {

struct StartupModelConfig {
  std::vector<std::string> rules_files;  // --rules, added to the embedded rules
  std::string engine;                    // forced engine, "" = detect
  std::optional<double> stall_after_s;   // --stall-after
  int reference_year = 1970;             // for timestamps without a year
  // Seconds east of UTC of the local zone: engine timestamps are local time (SGLang, vLLM).
  int64_t local_utc_offset_s = 0;
};

class RulesStartupModel final : public StartupModel {
 public:
  static Result<std::unique_ptr<RulesStartupModel>> Create(const StartupModelConfig& config);
  ~RulesStartupModel() override;

  // Sources whose lines are stamped with their arrival time (a child's pipe: every line is live)
  // rather than with the time printed on them.
  void StampOnArrival(int source) {
    stamp_on_arrival_.resize(std::max<size_t>(stamp_on_arrival_.size(), source + 1));
    stamp_on_arrival_[source] = true;
  }

  void OnLogText(int source, std::string_view text, int64_t now_ms,
                 std::vector<LogEvent>& events) override;
  void OnSourceEnd(int source, int64_t now_ms, std::vector<LogEvent>& events) override;
  void OnSample(const Sample& sample) override;
  void OnUnitEvent(const UnitEvent& event, int64_t now_ms, std::vector<LogEvent>& events) override;
  Verdict Evaluate(int64_t now_ms) override;

  const TrackerState& state() const { return tracker_.state(); }

 private:
  explicit RulesStartupModel(const StartupModelConfig& config, RuleSet rules);
  struct Source;
  Source& SourceAt(int source);
  void SyncEngine();

  StartupModelConfig config_;
  RuleSet rules_;
  StartupTracker tracker_;
  Judge judge_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<bool> stamp_on_arrival_;
  // Set while one source's text is fed, for the stream callbacks.
  int64_t feeding_now_ms_ = 0;
  bool feeding_arrival_ = false;
  std::vector<LogEvent>* feeding_events_ = nullptr;
  std::string engine_;
};

}  // namespace spinup
