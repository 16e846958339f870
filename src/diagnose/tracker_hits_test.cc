// The tracker's rule hits per attempt: a long crash loop reuses the entries of dropped attempts,
// and what each attempt reports must be exactly what a fresh tracker reports for the same lines.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "diagnose/tracker.h"

namespace spinup {
namespace {

constexpr int64_t kT0 = 1773057600000;  // 2026-03-09 12:00:00

LogEvent Hit(LogEvent::Kind kind, std::string rule, std::string text, int64_t t, bool quiet) {
  LogEvent e;
  e.kind = kind;
  e.time_ms = t;
  e.rule_id = std::move(rule);
  e.text = std::move(text);
  e.quiet_level = quiet;
  return e;
}

// One start: its banner, rules hit in an order and with texts of its own, then its death.
std::vector<LogEvent> Attempt(int i) {
  const int64_t t = kT0 + i * 60000LL;
  std::vector<LogEvent> lines = {
      Hit(LogEvent::Kind::kAttemptStart, "x.banner", "start " + std::to_string(i), t, true)};
  for (int k = 0; k < 12; ++k) {
    const int rule = (k * 7 + i) % (5 + i % 4);
    lines.push_back(Hit(LogEvent::Kind::kInfo, "x.rule_" + std::to_string(rule),
                        "line " + std::to_string(i) + "." + std::to_string(k) +
                            std::string(static_cast<size_t>(k * 9), '-'),
                        t + k + 1, (k + i) % 3 != 0));
  }
  // It dies: the next banner is a restart.
  lines.push_back(
      Hit(LogEvent::Kind::kFatal, "x.died", "died " + std::to_string(i), t + 20, false));
  return lines;
}

std::vector<std::pair<std::string, RuleHit>> Hits(const AttemptFacts& a) {
  std::vector<std::pair<std::string, RuleHit>> out;
  for (const auto& [id, hit] : a.hits) out.emplace_back(id, hit);  // first-hit order
  return out;
}

TEST(TrackerHits, ACrashLoopReportsEachAttemptsHitsAsAFreshTrackerWould) {
  StartupTracker loop;
  for (int i = 0; i < 3 * static_cast<int>(StartupTracker::kMaxAttempts); ++i) {
    for (const LogEvent& e : Attempt(i)) loop.OnLogEvent(e);
    StartupTracker fresh;
    for (const LogEvent& e : Attempt(i)) fresh.OnLogEvent(e);
    const auto got = Hits(loop.state().attempts.back());
    const auto want = Hits(fresh.state().attempts.back());
    ASSERT_EQ(got.size(), want.size()) << "attempt " << i;
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].first, want[k].first) << "attempt " << i;
      EXPECT_EQ(got[k].second.count, want[k].second.count) << got[k].first;
      EXPECT_EQ(got[k].second.quiet_only, want[k].second.quiet_only) << got[k].first;
      EXPECT_EQ(got[k].second.first_text, want[k].second.first_text) << got[k].first;
      EXPECT_EQ(got[k].second.last_text, want[k].second.last_text) << got[k].first;
      EXPECT_EQ(got[k].second.last_ms, want[k].second.last_ms) << got[k].first;
    }
  }
  EXPECT_EQ(loop.state().attempts.size(), StartupTracker::kMaxAttempts);
}

// The tracker remembers where the current attempt keeps each rule's entry: a copy must count into
// its own entries, never into the original's.
TEST(TrackerHits, ACopiedTrackerCountsIntoItsOwnHits) {
  StartupTracker a;
  a.OnLogEvent(Hit(LogEvent::Kind::kInfo, "x.rule", "one", kT0, true));
  StartupTracker b = a;
  b.OnLogEvent(Hit(LogEvent::Kind::kInfo, "x.rule", "two", kT0 + 1, true));
  a = b;
  a.OnLogEvent(Hit(LogEvent::Kind::kInfo, "x.rule", "three", kT0 + 2, true));
  EXPECT_EQ(b.state().attempts.back().hits.at("x.rule").count, 2u);
  EXPECT_EQ(b.state().attempts.back().hits.at("x.rule").last_text, "two");
  EXPECT_EQ(a.state().attempts.back().hits.at("x.rule").count, 3u);
  EXPECT_EQ(a.state().attempts.back().hits.at("x.rule").last_text, "three");
}

// More rules than the remembered places, many of the same length and ending: every id still
// counts only its own lines.
TEST(TrackerHits, ManyRulesEachCountTheirOwnLines) {
  StartupTracker t;
  for (int round = 0; round < 3; ++round) {
    for (int r = 0; r < 300; ++r) {
      const std::string id = "r" + std::to_string(r % 10) + ".rule_" + std::to_string(r / 10);
      t.OnLogEvent(Hit(LogEvent::Kind::kInfo, id, id, kT0 + round * 1000 + r, true));
    }
  }
  const auto& hits = t.state().attempts.back().hits;
  ASSERT_EQ(hits.size(), 300u);
  for (const auto& [id, hit] : hits) {
    EXPECT_EQ(hit.count, 3u) << id;
    EXPECT_EQ(hit.last_text, id);
  }
}

}  // namespace
}  // namespace spinup
