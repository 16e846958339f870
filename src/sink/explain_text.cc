#include "sink/explain_text.h"

#include <fmt/format.h>

#include <map>

#include "base/duration.h"
#include "diagnose/judge.h"
#include "logs/line_parser.h"
#include "sink/live_format.h"

namespace spinup {
namespace {

std::string Clock(const std::optional<int64_t>& ms) {
  if (!ms) return "?";
  std::string iso = FormatIsoTime(*ms);  // 2026-03-09T12:01:53
  return iso.substr(5, 5) + " " + iso.substr(11);
}

const char* StateColor(State s) {
  switch (s) {
    case State::kReady:
      return "\x1b[1;32m";
    case State::kCrashed:
    case State::kCrashLoop:
    case State::kStalled:
      return "\x1b[1;31m";
    case State::kSlow:
    case State::kInProgress:
      return "\x1b[1;33m";
    default:
      return "\x1b[1m";
  }
}

}  // namespace

void WriteExplainText(const Verdict& raw, const ExplainTextOptions& opt, std::ostream& out) {
  const Verdict v = ForTerminal(raw);
  const std::string bold = opt.color ? "\x1b[1m" : "";
  const std::string reset = opt.color ? "\x1b[0m" : "";
  out << (opt.color ? StateColor(v.state) : "") << v.headline << reset << "\n";
  // A supervisor's restart count can say more attempts were made than the log shows.
  const int started = std::max(v.attempts, v.restarts + 1);
  const std::string attempts = started > v.attempts && v.attempts > 0
                                   ? fmt::format("{} ({} in the log)", started, v.attempts)
                                   : std::to_string(v.attempts);
  out << fmt::format("engine: {}   attempts: {}   outcome: {}   phase: {}\n",
                     v.engine.empty() ? "unknown" : v.engine, attempts, StateName(v.state),
                     PhaseName(v.phase));

  if (!v.timeline.empty()) {
    out << "\n" << bold << "Timeline" << reset << " (per rank; * = over the phase's normal time)\n";
    size_t rank_w = 4;
    for (const auto& t : v.timeline) rank_w = std::max(rank_w, t.rank.empty() ? 4 : t.rank.size());
    rank_w = std::min<size_t>(rank_w, 24);
    out << fmt::format("  {:<{}}  {:<16}  {:<14}  {:<14}  {}\n", "RANK", rank_w, "PHASE", "START",
                       "END", "DURATION");
    // Grouped by rank, in first-seen order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const TimelineEntry*>> by_rank;
    for (const auto& t : v.timeline) {
      if (!by_rank.count(t.rank)) order.push_back(t.rank);
      by_rank[t.rank].push_back(&t);
    }
    size_t rows = 0, hidden = 0;
    for (const auto& r : order) {
      for (const auto* t : by_rank[r]) {
        if (rows >= opt.max_timeline_rows) {
          ++hidden;
          continue;
        }
        ++rows;
        std::string dur = t->seconds ? FormatDuration(*t->seconds) : "";
        if (t->seconds && !t->end_ms && v.state != State::kReady) dur += " (open)";
        if (t->slow) dur += opt.color ? " \x1b[33m* slow\x1b[0m" : " * slow";
        if (t->waiting) dur += " (waiting on other ranks)";
        out << fmt::format("  {:<{}}  {:<16}  {:<14}  {:<14}  {}\n",
                           r.empty() ? "main" : r.substr(0, 24), rank_w, PhaseName(t->phase),
                           Clock(t->start_ms), t->end_ms ? Clock(t->end_ms) : "-", dur);
      }
    }
    if (hidden) out << fmt::format("  ... {} more rows\n", hidden);
  }

  if (!v.errors.empty()) {
    out << "\n" << bold << "Decisive lines" << reset << "\n";
    for (const auto& e : v.errors) out << "  > " << e << "\n";
  }
  if (!v.evidence.empty()) {
    out << "\n" << bold << "Evidence" << reset << "\n";
    for (const auto& e : v.evidence) out << "  - " << e << "\n";
  }
  if (!v.findings.empty()) {
    out << "\n" << bold << "Known causes that fit" << reset << "\n";
    for (const auto& f : v.findings) {
      out << "  [" << f.id << "] " << f.title << "\n";
      for (const auto& e : f.evidence) out << "      seen: " << e << "\n";
      if (!f.why.empty()) out << "      why:  " << f.why << "\n";
      out << "      fix:  " << f.fix << "\n";
    }
  }
  if (!v.not_known.empty()) {
    out << "\n" << bold << "Not known" << reset << "\n";
    for (const auto& n : v.not_known) out << "  ? " << n << "\n";
  }
}

}  // namespace spinup
