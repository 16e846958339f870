#include "corpus_eval.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnose/startup_session.h"
#include "live/clock.h"
#include "live/log_sources.h"
#include "live/startup_model.h"
#include "live/watcher.h"
#include "logs/newest_first.h"

namespace spinup::corpus {
namespace {

using json = nlohmann::json;

json ReadJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return json::object();
  auto j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json::object() : j;
}

std::string Key(int number) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%03d", number);
  return buf;
}

Judged FromVerdict(const Verdict& v) {
  Judged j;
  j.outcome = std::string(StateName(v.state));
  j.phase = std::string(PhaseName(v.phase));
  j.engine = v.engine;
  j.attempts = v.attempts;
  j.headline = v.headline;
  double slowest_s = -1;
  for (const auto& e : v.timeline) {
    j.any_slow |= e.slow;
    if (e.seconds && *e.seconds > slowest_s && e.phase != Phase::kReady && !e.waiting) {
      slowest_s = *e.seconds;
      j.slowest = std::string(PhaseName(e.phase));
    }
  }
  if (!v.findings.empty()) j.first_cause = v.findings.front().id;
  j.stalled_seconds = v.stalled_seconds;
  j.phase_seconds = v.phase_seconds;
  return j;
}

constexpr int kReferenceYear = 2025;

// Hands the log to the watcher one line per Read, so each line is judged at its own time.
class ReplaySource final : public LogSource {
 public:
  explicit ReplaySource(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  std::string Read() override { return next_ < lines_.size() && ready_ ? Take() : ""; }
  bool Done() const override { return next_ >= lines_.size(); }
  std::string Name() const override { return "replay"; }
  void Allow() { ready_ = true; }
  size_t next() const { return next_; }

 private:
  std::string Take() {
    ready_ = false;
    return lines_[next_++];
  }
  std::vector<std::string> lines_;
  size_t next_ = 0;
  bool ready_ = false;
};

}  // namespace

std::string MapPhase(const std::string& label) {
  static const std::map<std::string, std::string> m = {
      {"process_spawn", "launch"},  {"model_init", "weight_load"},  {"jit_compile", "compile"},
      {"torch_compile", "compile"}, {"kv_cache_alloc", "kv_cache"}, {"first_forward", "kv_cache"},
      {"http_warmup", "warmup"},    {"shard_start", "weight_load"},
  };
  auto it = m.find(label);
  return it == m.end() ? label : it->second;
}

std::vector<Case> LoadCases(const std::filesystem::path& shared,
                            const std::filesystem::path& source) {
  std::vector<Case> cases;
  const json causes = ReadJson(source / "tests" / "data" / "corpus_causes.json");
  const json beyond = ReadJson(source / "tests" / "data" / "corpus_beyond_excerpt.json");
  std::ifstream in(shared / "corpus" / "labels.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    auto j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    Case c;
    c.file = j.value("file", "");
    c.number = std::atoi(c.file.c_str());
    auto d1 = c.file.find('-');
    auto d2 = c.file.find('-', d1 == std::string::npos ? 0 : d1 + 1);
    if (d1 != std::string::npos && d2 != std::string::npos) {
      c.engine = c.file.substr(d1 + 1, d2 - d1 - 1);
    }
    c.outcome = j.value("outcome", "");
    if (j.contains("stuck_phase") && j["stuck_phase"].is_string()) {
      c.stuck_phase = j["stuck_phase"].get<std::string>();
    }
    if (j.contains("root_cause") && j["root_cause"].is_string()) {
      c.root_cause = j["root_cause"].get<std::string>();
    }
    if (j.contains("excerpt_supports") && j["excerpt_supports"].is_boolean()) {
      c.excerpt_supports = j["excerpt_supports"].get<bool>();
    } else {
      c.excerpt_supports = !beyond.contains(Key(c.number));
    }
    if (auto it = causes.find(Key(c.number)); it != causes.end() && it->is_object()) {
      for (const auto& id : it->value("causes", json::array())) c.causes.push_back(id);
      c.cause_in_log = it->value("in_log", false) && !c.causes.empty();
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// As explain reads a file: an export that runs newest first is read the other way.
static std::string InReadingOrder(const RuleSet& rules, const std::string& text) {
  return RunsNewestFirst(text, rules, kReferenceYear) ? ReverseLines(text) : text;
}

Judged Explain(const RuleSet& rules, const std::string& given) {
  SessionOptions o;
  o.reference_year = kReferenceYear;
  StartupSession session(rules, o);
  const std::string text = InReadingOrder(rules, given);
  session.OnLogText(0, text, std::nullopt);
  session.OnSourceEnd(0, std::nullopt);
  Judged j = FromVerdict(session.Evaluate());
  if (const auto& st = session.state(); st.first_ms && st.last_ms) {
    j.log_seconds = static_cast<double>(*st.last_ms - *st.first_ms) / 1000.0;
  }
  return j;
}

Judged WatchReplay(const RuleSet& rules, const std::string& given) {
  const std::string text = InReadingOrder(rules, given);
  // The time of each line, as the log states it: the events an offline pass saw, by line.
  SessionOptions o;
  o.reference_year = kReferenceYear;
  std::vector<LogEvent> events;
  std::optional<int64_t> log_end;  // the log's last time, unmatched lines included
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l + "\n");
  std::map<uint64_t, int64_t> time_of_line;
  {
    // Line by line: a line no rule matched moves the log's latest time too (a teardown's
    // stamp after an untimed "^C"), as its arrival would move a live watch's clock.
    StartupSession offline(rules, o);
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::optional<int64_t> before = offline.state().last_ms;
      offline.OnLogText(0, lines[i], std::nullopt, &events);
      const std::optional<int64_t> after = offline.state().last_ms;
      if (after && after != before) time_of_line[i + 1] = *after;
    }
    offline.OnSourceEnd(0, std::nullopt, &events);
    log_end = offline.state().last_ms;
  }
  for (const auto& e : events) {
    if (e.time_ms && e.line_no > 0) time_of_line[e.line_no] = *e.time_ms;
  }

  // The rules explain used, not a second compile of them: each replay is one log of many.
  auto model = SessionStartupModel::Borrowing(rules, o);
  const int64_t start = time_of_line.empty() ? 1'700'000'000'000 : time_of_line.begin()->second;
  FakeClock clock(start);
  WatchOptions w;
  w.until = Until::kVerdict;
  w.server_lifetime = true;  // judge to the end of the log, as explain does
  Watcher watcher(w, clock, *model, nullptr, {});
  auto source = std::make_unique<ReplaySource>(std::move(lines));
  ReplaySource* src = source.get();
  watcher.AddSource(std::move(source));
  while (!watcher.all_sources_done()) {
    if (auto it = time_of_line.find(src->next() + 1); it != time_of_line.end()) {
      clock.SetMs(std::max(clock.NowMs(), it->second));
    }
    src->Allow();
    watcher.Pump();
    watcher.Evaluate();
  }
  // Lines no rule matched carry no event, so the clock has not seen the log's last time yet.
  if (log_end && *log_end > clock.NowMs()) {
    clock.SetMs(*log_end);
    watcher.Evaluate();
  }
  Judged j = FromVerdict(watcher.last_verdict());
  // Live words for an unfinished start, in explain's vocabulary.
  if (j.outcome == "progressing" || j.outcome == "slow" || j.outcome == "starting") {
    j.outcome = "in_progress";
  }
  return j;
}

// spinup's phases in the labels' words: the labels have no download phase, the checkpoint's
// download is part of its loading (weight_load) there.
std::string InLabelWords(const std::string& phase) {
  return phase == "download" ? "weight_load" : phase;
}

Score ScoreCase(const Case& c, const Judged& judged) {
  Score s;
  Judged j = judged;
  j.phase = InLabelWords(j.phase);
  j.slowest = InLabelWords(j.slowest);
  const std::string want_phase = MapPhase(c.stuck_phase);
  if (c.outcome == "hung") {
    s.outcome_ok = j.outcome == "stalled" || j.outcome == "in_progress";
  } else if (c.outcome == "slow_then_ready") {
    s.outcome_ok = j.outcome == "ready" && j.any_slow;
  } else if (c.outcome == "unknown") {
    s.outcome_ok = j.outcome == "unknown" || j.outcome == "in_progress";
  } else {
    s.outcome_ok = j.outcome == c.outcome;
  }
  if (!s.outcome_ok) return s;
  if (want_phase.empty()) {
    s.phase_ok = c.outcome != "ready" || j.phase == "ready";
  } else if (c.outcome == "hung" || c.outcome == "crashed" || c.outcome == "crash_loop") {
    s.phase_ok = j.phase == want_phase;
  } else if (c.outcome == "unknown") {
    // The label's phase is "where it hung, crashed or was slowest"; an unknown outcome does not
    // say which, so either reading counts.
    s.phase_ok = j.phase == want_phase || j.slowest == want_phase;
  } else {
    s.phase_ok = j.slowest == want_phase;
  }
  if (c.cause_in_log) {
    s.cause_ok = std::find(c.causes.begin(), c.causes.end(), j.first_cause) != c.causes.end();
  }
  return s;
}

}  // namespace spinup::corpus
