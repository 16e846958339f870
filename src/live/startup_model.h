// The live loop's StartupModel over the one StartupSession (src/diagnose/startup_session.h): the
// same rules, tracker and judge `spinup explain` uses, fed with live clocks and process samples.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "live/watcher.h"

namespace spinup {

struct StartupModelConfig {
  std::vector<std::string> rules_files;  // --rules, added to the embedded rules
  SessionOptions session;                // live = true is set by Create
};

class SessionStartupModel final : public StartupModel {
 public:
  static Result<std::unique_ptr<SessionStartupModel>> Create(const StartupModelConfig& config);
  // Over rules already loaded, which must outlive the model (tests replay many logs through one
  // rule set instead of compiling it again per log).
  static std::unique_ptr<SessionStartupModel> Borrowing(const RuleSet& rules,
                                                        SessionOptions options);

  // Lines of `source` are stamped with their arrival time (a child's pipe: every line is live).
  void StampOnArrival(int source) { session_->StampOnArrival(source); }

  void OnLogText(int source, std::string_view text, int64_t now_ms,
                 std::vector<LogEvent>& events) override {
    session_->OnLogText(source, text, now_ms, &events);
  }
  void OnSourceEnd(int source, int64_t now_ms, std::vector<LogEvent>& events) override {
    session_->OnSourceEnd(source, now_ms, &events);
  }
  void OnSample(const Sample& sample) override { session_->OnSample(sample); }
  void OnUnitEvent(const UnitEvent& event, int64_t now_ms, std::vector<LogEvent>& events) override {
    session_->OnUnitEvent(event, now_ms, &events);
  }
  Verdict Evaluate(int64_t now_ms) override { return session_->Evaluate(now_ms); }
  void LearnZone(std::string_view text, int64_t written_utc_ms) override {
    session_->LearnZone(text, written_utc_ms);
  }

  const StartupSession& session() const { return *session_; }

 private:
  SessionStartupModel(std::unique_ptr<RuleSet> owned, const RuleSet& rules, SessionOptions options);
  std::unique_ptr<RuleSet> owned_rules_;  // null when borrowed; the session refers to the rules
  std::unique_ptr<StartupSession> session_;
};

}  // namespace spinup
