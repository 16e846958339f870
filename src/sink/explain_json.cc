#include "sink/explain_json.h"

#include <algorithm>
#include <string>

#include "logs/line_parser.h"
#include "sink/json_codec.h"

namespace spinup {
namespace {

nlohmann::json Time(const std::optional<int64_t>& ms) {
  return ms ? nlohmann::json(FormatIsoTime(*ms)) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json ExplainJson(const Verdict& v) {
  using nlohmann::json;
  json ranks = json::object();
  for (const auto& r : v.ranks) {
    ranks[r.rank.empty() ? "main" : r.rank] = {{"phase", PhaseName(r.phase)},
                                               {"since", Time(r.since_ms)}};
  }
  json timeline = json::array();
  // The phases that ran past their normal time, once each in the order they began: the timeline
  // holds them per rank, and a script asking "was this start slow, and where" reads this list.
  json slow_phases = json::array();
  for (const auto& t : v.timeline) {
    const std::string name(PhaseName(t.phase));
    if (t.slow && !t.waiting &&
        std::find(slow_phases.begin(), slow_phases.end(), name) == slow_phases.end()) {
      slow_phases.push_back(name);
    }
    json e = ToJson(t);  // rank, phase, start_ms, end_ms, seconds, slow, waiting
    e["rank"] = t.rank.empty() ? "main" : t.rank;
    e["start"] = Time(t.start_ms);
    e["end"] = Time(t.end_ms);
    timeline.push_back(std::move(e));
  }
  json findings = json::array();
  for (const auto& f : v.findings) findings.push_back(ToJson(f));
  return {{"engine", v.engine.empty() ? json(nullptr) : json(v.engine)},
          {"outcome", StateName(v.state)},
          {"phase", PhaseName(v.phase)},
          {"headline", v.headline},
          {"attempts", v.attempts},
          {"restarts", v.restarts},
          {"phase_seconds", v.phase_seconds ? json(*v.phase_seconds) : json(nullptr)},
          {"budget_seconds", v.budget_seconds ? json(*v.budget_seconds) : json(nullptr)},
          {"stalled_seconds", v.stalled_seconds ? json(*v.stalled_seconds) : json(nullptr)},
          {"after_ready", v.after_ready.empty() ? json(nullptr) : json(v.after_ready)},
          {"ranks", ranks},
          {"timeline", timeline},
          {"slow_phases", slow_phases},
          {"errors", v.errors},
          {"evidence", v.evidence},
          {"findings", findings},
          {"not_known", v.not_known}};
}

}  // namespace spinup
