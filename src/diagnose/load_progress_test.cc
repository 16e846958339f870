#include "diagnose/load_progress.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

Sample WithOffsets(int64_t t, std::vector<std::pair<std::string, uint64_t>> files) {
  Sample s;
  s.time_ms = t;
  s.checkpoint_bytes = 1000;
  ProcessSample p;
  for (auto& [path, off] : files) p.model_files.push_back({path, off, 500});
  s.processes.push_back(p);
  return s;
}

TEST(LoadProgressTest, OffsetsOfShardsAddUpAndClosedShardsKeepTheirBytes) {
  LoadProgressEstimator e;
  e.OnSample(WithOffsets(0, {{"a", 100}}));
  EXPECT_EQ(*e.Current().bytes_done, 100u);
  e.OnSample(WithOffsets(1000, {{"a", 500}, {"b", 100}}));
  EXPECT_EQ(*e.Current().bytes_done, 600u);
  EXPECT_TRUE(e.grew());
  e.OnSample(WithOffsets(2000, {{"b", 300}}));  // "a" was closed when done
  auto p = e.Current();
  EXPECT_EQ(*p.bytes_done, 800u);
  EXPECT_DOUBLE_EQ(*p.bytes_per_second, 350.0);
  EXPECT_NEAR(*p.eta_seconds, 200.0 / 350.0, 1e-9);
}

TEST(LoadProgressTest, AShardClosedBetweenSamplesCountsWhole) {
  LoadProgressEstimator e;
  e.OnSample(WithOffsets(0, {{"a", 100}}));
  e.OnSample(WithOffsets(1000, {{"b", 50}}));  // "a" read to its end (500) and closed unseen
  EXPECT_EQ(*e.Current().bytes_done, 550u);
}

TEST(LoadProgressTest, ResidencyCountsForMmapLoadersAndNeverGoesBack) {
  LoadProgressEstimator e;
  Sample s = WithOffsets(0, {{"a", 0}});  // a shard is open: attached mid-load, all counts
  s.checkpoint_resident_bytes = 400;
  e.OnSample(s);
  EXPECT_EQ(*e.Current().bytes_done, 400u);
  s.time_ms = 1000;
  s.checkpoint_resident_bytes = 100;  // evicted under pressure
  e.OnSample(s);
  EXPECT_EQ(*e.Current().bytes_done, 400u);
  EXPECT_FALSE(e.grew());
}

TEST(LoadProgressTest, AWarmPageCacheBeforeTheLoadIsNotProgress) {
  LoadProgressEstimator e;
  Sample s;
  s.time_ms = 0;
  s.checkpoint_bytes = 1000;
  s.checkpoint_resident_bytes = 900;  // cached from the last start, nothing open yet
  e.OnSample(s);
  EXPECT_EQ(*e.Current().bytes_done, 0u);
  s.time_ms = 1000;
  s.checkpoint_resident_bytes = 950;  // the last 100 bytes are being read
  e.OnSample(s);
  EXPECT_EQ(*e.Current().bytes_done, 50u);
  EXPECT_TRUE(e.grew());
}

TEST(LoadProgressTest, NothingKnownIsEmpty) {
  LoadProgressEstimator e;
  Sample s;
  e.OnSample(s);
  auto p = e.Current();
  EXPECT_FALSE(p.bytes_done.has_value());
  EXPECT_FALSE(p.bytes_per_second.has_value());
}

TEST(MergeMeasuredProgressTest, KeepsTheJudgesValuesAndTheEngineBar) {
  Progress measured;
  measured.bytes_done = 5;
  measured.bytes_total = 10;
  measured.bytes_per_second = 1;
  Progress judged;
  judged.bytes_total = 12;
  judged.bar = "shards";
  judged.bar_n = 1;
  judged.bar_total = 4;
  MergeMeasuredProgress(measured, judged);
  EXPECT_EQ(*judged.bytes_done, 5u);
  EXPECT_EQ(*judged.bytes_total, 12u);
  EXPECT_EQ(judged.bar_total, 4);
}

}  // namespace
}  // namespace spinup
