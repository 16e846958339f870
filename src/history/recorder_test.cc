#include "history/recorder.h"

#include <gtest/gtest.h>

#include <sstream>

#include "history/history_test_util.h"
#include "sink/metrics_sink.h"
#include "test_util.h"

namespace spinup {
namespace {

HistoryRecorderConfig Config(const std::filesystem::path& db) {
  HistoryRecorderConfig c;
  c.path = db.string();
  c.context.host = "node1";
  c.context.model = "/models/m";
  c.context.fingerprint = CheckpointFingerprint{1000, 2, "00000000000000aa"};
  c.context.flags.tp = 2;
  c.context.spinup_version = "0.1.0";
  return c;
}

// A watch of one start: samples and log events, then a ready verdict.
void Drive(HistoryRecorder& rec, int64_t t0, double weight_load_s, int64_t& now) {
  now = t0;
  Sample s;
  s.time_ms = t0;
  s.checkpoint_bytes = 1000;
  s.checkpoint_resident_bytes = 0;
  rec.OnSample(s);
  LogEvent e;
  e.time_ms = t0;
  e.text = "sglang version: 0.4.1";
  rec.OnLogEvent(e);
  Verdict v;
  v.engine = "sglang";
  v.state = State::kReady;
  v.phase = Phase::kReady;
  const int64_t wl_end = t0 + 10'000 + static_cast<int64_t>(weight_load_s * 1000);
  v.timeline = {{"TP0", Phase::kDistributedInit, t0, t0 + 10'000, 10.0, false},
                {"TP0", Phase::kWeightLoad, t0 + 10'000, wl_end, weight_load_s, false},
                {"TP0", Phase::kReady, wl_end, std::nullopt, std::nullopt, false}};
  now = wl_end;
  rec.Finish(v);
}

TEST(HistoryRecorderTest, RecordsStartsAndLearnsFromThem) {
  testing::TempDir dir;
  int64_t now = 0;
  std::ostringstream warn;
  for (int i = 0; i < 3; ++i) {
    HistoryRecorder rec(
        Config(dir / "h.db"), [&] { return now; }, warn);
    EXPECT_TRUE(rec.enabled());
    EXPECT_TRUE(rec.book().empty());  // fewer than 3 earlier starts
    Drive(rec, 1'000'000 * (i + 1), 100 + i, now);
    ASSERT_TRUE(rec.Commit(0));
  }
  HistoryRecorder rec(
      Config(dir / "h.db"), [&] { return now; }, warn);
  ASSERT_FALSE(rec.book().empty());
  EXPECT_DOUBLE_EQ(rec.book().For(Phase::kWeightLoad)->typical_s, 101);
  // A fourth start, much slower: the prediction reaches the metrics, the regression is named.
  MetricsSink metrics({"job", "node1", "0.1.0"}, [&] { return now; });
  rec.OnPrediction([&](const Prediction& p) { metrics.SetExpectations(p.expected_s, p.eta_s); });
  Drive(rec, 9'000'000, 400, now);
  std::string exposition = metrics.Render();
  EXPECT_NE(exposition.find("spinup_expected_phase_seconds{model=\"job\",host=\"node1\",phase="
                            "\"weight_load\"} 101"),
            std::string::npos)
      << exposition;
  auto id = rec.Commit(0);
  ASSERT_TRUE(id);
  EXPECT_NE(warn.str().find("spinup: history: regression: weight_load took 6 min 40 s"),
            std::string::npos)
      << warn.str();
  auto store = HistoryStore::Open(dir / "h.db");
  auto got = (*store)->Get(*id);
  ASSERT_TRUE(got.ok() && *got);
  EXPECT_EQ((*got)->engine_version, "0.4.1");
  EXPECT_EQ((*got)->resident_bytes, 0u);
  EXPECT_EQ((*got)->exit_status, 0);
  EXPECT_EQ(SecondsToReady(**got), 410);
}

TEST(HistoryRecorderTest, ACorruptDatabaseIsOneWarningAndTheWatchGoesOn) {
  testing::TempDir dir;
  testing::WriteFile(dir / "h.db", std::string(4096, '\x7f'));
  int64_t now = 0;
  std::ostringstream warn;
  HistoryRecorder rec(
      Config(dir / "h.db"), [&] { return now; }, warn);
  EXPECT_FALSE(rec.enabled());
  Drive(rec, 1'000'000, 100, now);
  EXPECT_FALSE(rec.Commit(0));
  const std::string w = warn.str();
  EXPECT_EQ(std::count(w.begin(), w.end(), '\n'), 1) << w;
  EXPECT_TRUE(w.starts_with("spinup: history: " + (dir / "h.db").string())) << w;
  EXPECT_NE(w.find("not recorded"), std::string::npos) << w;
}

TEST(HistoryRecorderTest, AChangedFingerprintLearnsFromTheNearestMatchAndSaysSo) {
  testing::TempDir dir;
  int64_t now = 0;
  std::ostringstream warn;
  for (int i = 0; i < 3; ++i) {
    HistoryRecorder rec(
        Config(dir / "h.db"), [&] { return now; }, warn);
    Drive(rec, 1'000'000 * (i + 1), 100, now);
    ASSERT_TRUE(rec.Commit(0));
  }
  auto changed = Config(dir / "h.db");
  changed.context.fingerprint = CheckpointFingerprint{2000, 4, "00000000000000bb"};
  HistoryRecorder rec(
      changed, [&] { return now; }, warn);
  ASSERT_FALSE(rec.book().empty());
  EXPECT_TRUE(rec.book().nearest_match());
  EXPECT_NE(rec.book().match_note().find("checkpoint"), std::string::npos);
  Drive(rec, 9'000'000, 400, now);
  ASSERT_TRUE(rec.Commit(0));
  EXPECT_NE(warn.str().find("checkpoint 1.0 kB in 2 shards"), std::string::npos) << warn.str();
}

}  // namespace
}  // namespace spinup
