#include "history/history_render.h"

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include "base/duration.h"
#include "base/units.h"
#include "history/learner.h"
#include "logs/line_parser.h"

namespace spinup {

namespace {

// The phases worth a column: the ones that take time on real starts.
constexpr Phase kColumns[] = {Phase::kDistributedInit, Phase::kWeightLoad, Phase::kCompile,
                              Phase::kKvCache,         Phase::kCudaGraph,  Phase::kHttpStart};

std::string_view ColumnName(Phase p) {
  switch (p) {
    case Phase::kDistributedInit:
      return "dist_init";
    case Phase::kWeightLoad:
      return "weights";
    case Phase::kHttpStart:
      return "http";
    default:
      return PhaseName(p);
  }
}

std::string ShortModel(const std::string& model) {
  std::string m = model;
  while (m.size() > 1 && m.back() == '/') m.pop_back();
  size_t slash = m.rfind('/');
  m = slash == std::string::npos ? m : m.substr(slash + 1);
  if (m.size() > 24) m = m.substr(0, 23) + "~";
  return m.empty() ? "-" : m;
}

std::string When(int64_t ms) {
  std::string iso = FormatIsoTime(ms);
  if (iso.size() >= 16) iso = iso.substr(0, 10) + " " + iso.substr(11, 5);
  return iso;
}

std::string Secs(std::optional<double> s) {
  if (!s) return "-";
  return *s < 100 ? fmt::format("{:.1f}", *s) : fmt::format("{:.0f}", *s);
}

nlohmann::json Opt(const auto& o) { return o ? nlohmann::json(*o) : nlohmann::json(nullptr); }

}  // namespace

std::string Sparkline(const std::vector<double>& v) {
  static const char* kBars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (v.empty()) return "";
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  std::string out;
  for (double x : v) {
    int i = *hi > *lo ? static_cast<int>((x - *lo) / (*hi - *lo) * 7.0 + 0.5) : 3;
    out += kBars[std::clamp(i, 0, 7)];
  }
  return out;
}

nlohmann::json StartJson(const StartRecord& r) {
  nlohmann::json j;
  j["id"] = r.id;
  j["started"] = FormatIsoTime(r.started_ms) + "Z";
  j["started_ms"] = r.started_ms;
  j["ended_ms"] = Opt(r.ended_ms);
  j["ready_ms"] = Opt(r.ready_ms);
  j["seconds_to_ready"] = Opt(SecondsToReady(r));
  j["host"] = r.host;
  j["model"] = r.model;
  if (r.fingerprint) {
    j["checkpoint"] = {{"bytes", r.fingerprint->bytes},
                       {"shards", r.fingerprint->shards},
                       {"header_hash", r.fingerprint->header_hash}};
  } else {
    j["checkpoint"] = nullptr;
  }
  j["engine"] = r.engine;
  j["engine_version"] = r.engine_version;
  j["flags"] = {{"tp", Opt(r.flags.tp)},
                {"pp", Opt(r.flags.pp)},
                {"dp", Opt(r.flags.dp)},
                {"quantization", r.flags.quantization},
                {"context_length", Opt(r.flags.context_length)},
                {"speculative", r.flags.speculative}};
  j["spinup_version"] = r.spinup_version;
  j["resident_bytes_at_launch"] = Opt(r.resident_bytes);
  j["bytes_read"] = Opt(r.bytes_read);
  j["read_bytes_per_second"] = Opt(r.read_bytes_per_s);
  j["restarts"] = r.restarts;
  j["state"] = StateName(r.state);
  j["exit_status"] = Opt(r.exit_status);
  j["source"] = r.source;
  j["imported"] = r.imported;
  nlohmann::json secs = nlohmann::json::object();
  for (const auto& [p, s] : PhaseSeconds(r)) secs[std::string(PhaseName(p))] = s;
  j["phase_seconds"] = secs;
  nlohmann::json spans = nlohmann::json::array();
  for (const auto& s : r.phases) {
    spans.push_back({{"rank", s.rank},
                     {"phase", PhaseName(s.phase)},
                     {"start_ms", Opt(s.start_ms)},
                     {"end_ms", Opt(s.end_ms)},
                     {"seconds", Opt(s.seconds)}});
  }
  j["phases"] = spans;
  return j;
}

nlohmann::json HistoryListJson(const std::vector<StartRecord>& records) {
  nlohmann::json starts = nlohmann::json::array();
  std::map<Phase, std::vector<double>> by_phase;
  for (const auto& r : records) {
    starts.push_back(StartJson(r));
    for (const auto& [p, s] : PhaseSeconds(r)) by_phase[p].push_back(s);
  }
  nlohmann::json medians = nlohmann::json::object();
  for (const auto& [p, v] : by_phase) medians[std::string(PhaseName(p))] = *Quantile(v, 0.5);
  return {{"starts", starts}, {"median_phase_seconds", medians}};
}

std::string HistoryListText(const std::vector<StartRecord>& records) {
  if (records.empty()) return "no starts recorded\n";
  std::string out = fmt::format("{:>5}  {:<16}  {:<24}  {:<16}  {:<11}  {:>7}", "ID", "STARTED",
                                "MODEL", "ENGINE", "STATE", "READY_S");
  for (Phase p : kColumns) out += fmt::format("  {:>10}", ColumnName(p));
  out += "\n";
  std::map<Phase, std::vector<double>> by_phase;  // oldest first, for the trend
  std::vector<double> ready;
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    for (const auto& [p, s] : PhaseSeconds(*it)) by_phase[p].push_back(s);
    if (auto s = SecondsToReady(*it)) ready.push_back(*s);
  }
  for (const auto& r : records) {
    std::string engine = r.engine.empty() ? "-" : r.engine;
    if (!r.engine_version.empty()) engine += " " + r.engine_version;
    std::string state(StateName(r.state));
    if (r.imported) state += "*";
    out += fmt::format("{:>5}  {:<16}  {:<24}  {:<16.16}  {:<11}  {:>7}", r.id, When(r.started_ms),
                       ShortModel(r.model), engine, state, Secs(SecondsToReady(r)));
    auto secs = PhaseSeconds(r);
    for (Phase p : kColumns) {
      auto f = secs.find(p);
      out += fmt::format("  {:>10}",
                         Secs(f == secs.end() ? std::nullopt : std::optional<double>(f->second)));
    }
    out += "\n";
  }
  out += fmt::format("\nmedian over {} starts: ready {}", records.size(),
                     ready.empty() ? "-" : FormatDuration(*Quantile(ready, 0.5)));
  out += "\n";
  for (const auto& [p, v] : by_phase) {
    out += fmt::format("  {:<17} median {:>10}  trend {}\n", PhaseName(p),
                       FormatDuration(*Quantile(v, 0.5)), Sparkline(v));
  }
  if (std::any_of(records.begin(), records.end(), [](const auto& r) { return r.imported; })) {
    out += "(* imported from a pasted log with explain --record)\n";
  }
  return out;
}

std::string StartDetailText(const StartRecord& r, const RegressionReport& reg) {
  std::string out = fmt::format("start {}: {} on {}, {}\n", r.id, StateName(r.state),
                                r.host.empty() ? "-" : r.host, When(r.started_ms) + " UTC");
  out += fmt::format("  model       {}\n", r.model.empty() ? "-" : r.model);
  if (r.fingerprint) {
    out += fmt::format("  checkpoint  {} in {} shards, header hash {}\n",
                       FormatBytes(r.fingerprint->bytes), r.fingerprint->shards,
                       r.fingerprint->header_hash);
  }
  out += fmt::format("  engine      {} {}\n", r.engine.empty() ? "-" : r.engine,
                     r.engine_version.empty() ? "(version unknown)" : r.engine_version);
  std::string flags = StartupFlagsKey(r.flags);
  out += fmt::format("  flags       {}\n", flags.empty() ? "-" : flags);
  out += fmt::format("  spinup      {} ({}{})\n", r.spinup_version, r.source,
                     r.imported ? ", imported" : "");
  if (r.resident_bytes) {
    out += fmt::format("  page cache  {} resident at launch\n", FormatBytes(*r.resident_bytes));
  }
  if (r.bytes_read && *r.bytes_read > 0) {
    out += fmt::format("  read        {}{}\n", FormatBytes(*r.bytes_read),
                       r.read_bytes_per_s ? " at " + FormatRate(*r.read_bytes_per_s) : "");
  }
  out += fmt::format("  restarts    {}; exit status {}\n", r.restarts,
                     r.exit_status ? std::to_string(*r.exit_status) : "-");
  if (auto s = SecondsToReady(r)) out += fmt::format("  ready after {}\n", FormatDuration(*s));
  out += "  phases:\n";
  for (const auto& [p, s] : PhaseSeconds(r)) {
    out += fmt::format("    {:<17} {}\n", PhaseName(p), FormatDuration(s));
  }
  for (const auto& g : reg.phases) out += "  regression: " + g.text + "\n";
  if (reg.any() && !reg.changes.empty()) {
    out += fmt::format("  changed since the last start: {}\n", fmt::join(reg.changes, "; "));
  }
  return out;
}

nlohmann::json BudgetBookJson(const BudgetBook& book) {
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [p, b] : book.budgets()) {
    phases[std::string(PhaseName(p))] = {{"slow_s", b.slow_s},       {"stall_s", b.stall_s},
                                         {"typical_s", b.typical_s}, {"longest_s", b.longest_s},
                                         {"starts", b.starts},       {"evidence", b.evidence}};
  }
  return {{"phases", phases},
          {"starts", book.starts()},
          {"nearest_match", book.nearest_match()},
          {"match_note", book.match_note()},
          {"typical_ready_s", Opt(book.typical_ready_s())}};
}

std::string BudgetBookText(const BudgetBook& book) {
  if (book.empty()) return "learned budgets: none yet (fewer than 3 comparable starts)\n";
  std::string out = fmt::format("learned budgets (from {} starts{}):\n", book.starts(),
                                book.nearest_match() ? "; " + book.match_note() : "");
  for (const auto& [p, b] : book.budgets()) {
    out += fmt::format("  {:<17} slow past {:>10}, stalled after {:>10} without progress\n",
                       PhaseName(p), FormatDuration(b.slow_s), FormatDuration(b.stall_s));
  }
  return out;
}

nlohmann::json StartDetailJson(const StartRecord& r, const RegressionReport& reg) {
  nlohmann::json j = StartJson(r);
  nlohmann::json regs = nlohmann::json::array();
  for (const auto& g : reg.phases) {
    regs.push_back({{"phase", PhaseName(g.phase)},
                    {"seconds", g.seconds},
                    {"typical_seconds", g.typical_s},
                    {"text", g.text}});
  }
  j["regressions"] = regs;
  j["changes"] = reg.changes;
  return j;
}

ReportData StartReportData(const StartRecord& r) {
  ReportData d;
  d.options.title = fmt::format("spinup startup report: start {}", r.id);
  d.options.host = r.host;
  d.options.model = ShortModel(r.model);
  d.options.source = fmt::format("history start {} ({})", r.id, r.source);
  Verdict v;
  v.state = r.state;
  v.engine = r.engine;
  v.attempts = r.restarts + 1;
  v.headline = fmt::format("{} (recorded start {})", StateName(r.state), r.id);
  for (const auto& s : r.phases) {
    TimelineEntry e;
    e.rank = s.rank;
    e.phase = s.phase;
    e.start_ms = s.start_ms;
    e.end_ms = s.end_ms;
    e.seconds = s.seconds;
    v.timeline.push_back(std::move(e));
    v.phase = std::max(v.phase, s.phase);
  }
  v.progress.bytes_done = r.bytes_read;
  v.progress.bytes_per_second = r.read_bytes_per_s;
  if (r.fingerprint) v.progress.bytes_total = r.fingerprint->bytes;
  d.verdict = std::move(v);
  d.first_ms = r.started_ms;
  d.last_ms = r.ended_ms ? r.ended_ms : std::optional<int64_t>(r.started_ms);
  return d;
}

}  // namespace spinup
