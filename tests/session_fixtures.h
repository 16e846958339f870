// Helpers shared by the session tests: the built-in rules, loaded once, and a whole log read as
// `explain` reads it (its own clock, the year 2026 for year-less lines).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "diagnose/startup_session.h"

namespace spinup::testing {

inline const RuleSet& BuiltinRules() {
  static const RuleSet* rules = new RuleSet(std::move(LoadRules({})).value());
  return *rules;
}

inline Verdict ExplainLog(const std::string& log, std::optional<int64_t> now = std::nullopt) {
  SessionOptions o;
  o.reference_year = 2026;
  StartupSession s(BuiltinRules(), o);
  s.OnLogText(0, log, std::nullopt);
  s.OnSourceEnd(0, std::nullopt);
  return s.Evaluate(now);
}

// The slowest timed phase, as the corpus and the red team score a ready start.
inline Phase SlowestPhase(const Verdict& v) {
  Phase slowest = Phase::kReady;
  double best = -1;
  for (const TimelineEntry& e : v.timeline) {
    if (!e.seconds || e.waiting || e.phase == Phase::kReady || *e.seconds <= best) continue;
    best = *e.seconds;
    slowest = e.phase;
  }
  return slowest;
}

}  // namespace spinup::testing
