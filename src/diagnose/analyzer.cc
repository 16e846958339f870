#include "diagnose/analyzer.h"

namespace spinup {

StartupAnalyzer::StartupAnalyzer(const RuleSet& rules, LogStreamOptions options)
    : rules_(rules), stream_(rules, std::move(options)), judge_(rules) {
  SyncEngine();
  stream_.OnEvent([this](const LogEvent& e) {
    SyncEngine();
    tracker_.OnLogEvent(e);
    if (observer_) observer_(e);
  });
  stream_.OnActivity([this](std::optional<int64_t> t, std::string_view) {
    SyncEngine();
    tracker_.OnLogActivity(t);
  });
}

void StartupAnalyzer::SyncEngine() {
  if (stream_.engine() == engine_seen_) return;
  engine_seen_ = stream_.engine();
  tracker_.SetEngine(engine_seen_);
  tracker_.SetPhaseOrder(rules_.PhaseOrder(engine_seen_));
}

Verdict StartupAnalyzer::Evaluate(const JudgeOptions& options) const {
  return judge_.Evaluate(tracker_.state(), options);
}

}  // namespace spinup
