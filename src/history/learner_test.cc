#include "history/learner.h"

#include <gtest/gtest.h>

#include "history/history_test_util.h"
#include "history/predict.h"

namespace spinup {
namespace {

using testing::MakeStart;

std::vector<StartRecord> Starts(const std::vector<double>& weight_load_s) {
  std::vector<StartRecord> out;
  int64_t id = 1;
  for (double wl : weight_load_s) {
    out.push_back(MakeStart(
        id, id * 1'000'000,
        {{Phase::kDistributedInit, 10}, {Phase::kWeightLoad, wl}, {Phase::kCudaGraph, 20}}));
    ++id;
  }
  return out;
}

StartKey KeyFor(const StartRecord& r) { return KeyOf(r); }

TEST(LearnerTest, FewerThanThreeStartsLearnNothing) {
  auto past = Starts({250, 260});
  BudgetBook book = LearnBudgets(past, KeyFor(past[0]));
  EXPECT_TRUE(book.empty());
  EXPECT_FALSE(book.For(Phase::kWeightLoad));
  EXPECT_FALSE(PredictReady(book, {}).eta_s);
}

TEST(LearnerTest, ThreeStartsGiveSlowAndStallThresholdsWithEvidence) {
  auto past = Starts({250, 240, 280, 245, 255});
  BudgetBook book = LearnBudgets(past, KeyFor(past[0]));
  ASSERT_FALSE(book.empty());
  EXPECT_FALSE(book.nearest_match());
  auto wl = book.For(Phase::kWeightLoad);
  ASSERT_TRUE(wl);
  EXPECT_EQ(wl->starts, 5);
  EXPECT_DOUBLE_EQ(wl->typical_s, 250);
  EXPECT_DOUBLE_EQ(wl->longest_s, 280);
  // p90 of {240,245,250,255,280} = 270; slow = max(1.2 x 270, 270 + 2).
  EXPECT_NEAR(wl->slow_s, 324, 1e-9);
  EXPECT_DOUBLE_EQ(wl->stall_s, 2 * 280 + 30);
  EXPECT_EQ(wl->evidence, "weight_load usually 4 min 10 s (last 5 starts, at most 4 min 40 s)");
  EXPECT_EQ(NowEvidence(*wl, 542),
            "weight_load usually 4 min 10 s (last 5 starts, at most 4 min 40 s); now 9 min 2 s");
}

TEST(LearnerTest, AnOutlierMovesTheMedianLittleButTheStallBudgetWithIt) {
  auto past = Starts({250, 250, 250, 250, 2500});
  auto wl = LearnBudgets(past, KeyFor(past[0])).For(Phase::kWeightLoad);
  ASSERT_TRUE(wl);
  EXPECT_DOUBLE_EQ(wl->typical_s, 250);
  // Never stalled before the longest start seen: the outlier really happened on this host.
  EXPECT_GT(wl->stall_s, 2500);
}

TEST(LearnerTest, OnlyComparableStartsCountAndTheWindowKeepsTheNewest) {
  auto past = Starts({100, 100, 100, 100});
  for (auto& r : past) r.flags.tp = 4;  // a different tp: not comparable
  auto same = Starts({300, 300, 300});
  for (auto& r : same) r.id += 10, r.started_ms += 100'000'000;
  past.insert(past.end(), same.begin(), same.end());
  BudgetBook book = LearnBudgets(past, KeyFor(same[0]));
  EXPECT_FALSE(book.nearest_match());
  EXPECT_DOUBLE_EQ(book.For(Phase::kWeightLoad)->typical_s, 300);

  LearnerOptions o;
  o.window = 3;
  auto many = Starts({10, 10, 10, 50, 50, 50});  // the newest three are the 50 s ones
  EXPECT_DOUBLE_EQ(LearnBudgets(many, KeyFor(many[0]), o).For(Phase::kWeightLoad)->typical_s, 50);
}

TEST(LearnerTest, NearestMatchIsUsedAndSaidWhenTooFewExactStarts) {
  auto past = Starts({200, 210, 220});
  for (auto& r : past) r.engine_version = "0.3.0";
  StartKey key = KeyFor(past[0]);
  key.engine_version = "0.4.1";
  BudgetBook book = LearnBudgets(past, key);
  ASSERT_FALSE(book.empty());
  EXPECT_TRUE(book.nearest_match());
  EXPECT_NE(book.match_note().find("engine version"), std::string::npos) << book.match_note();
  EXPECT_DOUBLE_EQ(book.For(Phase::kWeightLoad)->typical_s, 210);
}

TEST(LearnerTest, ChangedFingerprintIsNotAnExactMatch) {
  auto past = Starts({200, 210, 220});
  StartKey key = KeyFor(past[0]);
  key.fingerprint = CheckpointFingerprint{2000, 4, "00000000000000bb"};
  BudgetBook book = LearnBudgets(past, key);  // same model path: nearest match
  EXPECT_TRUE(book.nearest_match());
  EXPECT_NE(book.match_note().find("checkpoint"), std::string::npos);
  // Another model entirely: nothing to learn from.
  key.model = "/models/other";
  EXPECT_TRUE(LearnBudgets(past, key).empty());
}

TEST(LearnerTest, UnknownEngineVersionAtLaunchMatchesAnything) {
  auto past = Starts({200, 210, 220});
  StartKey key = KeyFor(past[0]);
  key.engine.clear();
  key.engine_version.clear();
  BudgetBook book = LearnBudgets(past, key);
  EXPECT_FALSE(book.nearest_match());
  EXPECT_EQ(book.starts(), 3);
}

TEST(LearnerTest, QuantileInterpolates) {
  EXPECT_FALSE(Quantile({}, 0.5));
  EXPECT_DOUBLE_EQ(*Quantile({3, 1, 2}, 0.5), 2);
  EXPECT_DOUBLE_EQ(*Quantile({1, 2}, 0.5), 1.5);
  EXPECT_DOUBLE_EQ(*Quantile({1, 2, 3, 4, 5}, 0.9), 4.6);
}

TEST(PredictTest, AtLaunchAndHalfWayFromTheMedians) {
  auto past = Starts({100, 100, 100});  // 10 + 100 + 20 = 130 s to ready
  BudgetBook book = LearnBudgets(past, KeyFor(past[0]));
  PredictionInput in;
  in.phase = Phase::kLaunch;
  auto p = PredictReady(book, in);
  ASSERT_TRUE(p.eta_s);
  EXPECT_DOUBLE_EQ(*p.eta_s, 130);
  EXPECT_DOUBLE_EQ(p.expected_s.at(Phase::kWeightLoad), 100);

  in.phase = Phase::kWeightLoad;
  in.phase_elapsed_s = 40;
  in.since_start_s = 50;
  EXPECT_DOUBLE_EQ(*PredictReady(book, in).eta_s, 60 + 20);
  // The read rate measured now says 200 s of reading are left: that wins over the median.
  in.read_eta_s = 200;
  EXPECT_DOUBLE_EQ(*PredictReady(book, in).eta_s, 200 + 20);
  in.ready = true;
  EXPECT_DOUBLE_EQ(*PredictReady(book, in).eta_s, 0);
}

TEST(PredictTest, AWarmPageCacheShortensAWeightLoadStillAhead) {
  auto past = Starts({100, 100, 100});
  for (auto& r : past) r.resident_bytes = 0;  // they all read from storage
  BudgetBook book = LearnBudgets(past, KeyFor(past[0]));
  PredictionInput in;
  in.phase = Phase::kDistributedInit;
  in.resident_fraction = 0.9;
  auto p = PredictReady(book, in);
  EXPECT_NEAR(p.expected_s.at(Phase::kWeightLoad), 10, 1e-9);
  EXPECT_NEAR(*p.eta_s, 10 + 10 + 20, 1e-9);
}

TEST(RegressionTest, NamesTheSlowPhaseAndWhatChanged) {
  auto past = Starts({250, 240, 260});
  StartRecord now = MakeStart(
      9, 99'000'000,
      {{Phase::kDistributedInit, 10}, {Phase::kWeightLoad, 542}, {Phase::kCudaGraph, 21}});
  now.engine_version = "0.4.2";
  RegressionReport rep = FindRegressions(now, past);
  ASSERT_EQ(rep.phases.size(), 1u);
  EXPECT_EQ(rep.phases[0].phase, Phase::kWeightLoad);
  EXPECT_NE(rep.phases[0].text.find("weight_load took 9 min 2 s"), std::string::npos)
      << rep.phases[0].text;
  ASSERT_FALSE(rep.changes.empty());
  EXPECT_EQ(rep.changes[0], "engine version 0.4.1 -> 0.4.2");

  StartRecord fine = MakeStart(10, 99'000'000, {{Phase::kWeightLoad, 255}});
  EXPECT_FALSE(FindRegressions(fine, past).any());
}

}  // namespace
}  // namespace spinup
