#include "live/warm_stage.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "spinup/page_cache.h"
#include "test_util.h"

namespace spinup {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

TEST(MemInfo, Parses) {
  auto m =
      ParseMemInfo("MemTotal:       24576000 kB\nMemFree:  1 kB\nMemAvailable:   20480000 kB\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->total, 24576000ull * 1024);
  EXPECT_EQ(m->available, 20480000ull * 1024);
  EXPECT_FALSE(ParseMemInfo("MemTotal: 5 kB\n"));
  EXPECT_FALSE(ParseMemInfo("MemAvailable: x kB\n"));
  EXPECT_EQ(DefaultWarmReserve({8 * kGiB, 0}), 2 * kGiB);
  EXPECT_EQ(DefaultWarmReserve({100 * kGiB, 0}), 10 * kGiB);
}

TEST(PlanWarm, TakesShardsInOrderWhileTheyFit) {
  std::vector<CheckpointFile> files = {{"a", 4 * kGiB}, {"b", 4 * kGiB}, {"c", 4 * kGiB}};
  // Everything fits.
  WarmPlan p = PlanWarm(files, {4 * kGiB, 4 * kGiB, 4 * kGiB}, {64 * kGiB, 40 * kGiB}, 4 * kGiB);
  EXPECT_EQ(p.files.size(), 3u);
  EXPECT_EQ(p.bytes, 12 * kGiB);
  EXPECT_TRUE(p.note.empty());
  // 10 GiB available, 2 GiB reserve: two shards, and the note says so.
  p = PlanWarm(files, {4 * kGiB, 4 * kGiB, 4 * kGiB}, {16 * kGiB, 10 * kGiB}, 2 * kGiB);
  EXPECT_EQ(p.files.size(), 2u);
  EXPECT_EQ(p.bytes, 8 * kGiB);
  EXPECT_NE(p.note.find("warming the first 2 shard(s)"), std::string::npos) << p.note;
  // Resident shards cost nothing and are not read again.
  p = PlanWarm(files, {0, 4 * kGiB, 0}, {16 * kGiB, 6 * kGiB}, 2 * kGiB);
  EXPECT_EQ(p.files.size(), 1u);
  EXPECT_EQ(p.files[0].path, "b");
  // Less available than the reserve: nothing.
  p = PlanWarm(files, {4 * kGiB, 4 * kGiB, 4 * kGiB}, {16 * kGiB, 1 * kGiB}, 2 * kGiB);
  EXPECT_TRUE(p.files.empty());
  EXPECT_FALSE(p.note.empty());
}

WarmStatus WaitForEnd(WarmStage& stage) {
  for (int i = 0; i < 1000; ++i) {
    WarmStatus s = stage.status();
    if (s.state != "planning" && s.state != "warming") return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return stage.status();
}

TEST(WarmStage, WarmsWhatFitsAndSaysWhatItSkipped) {
  testing::TempDir dir;
  testing::WriteSyncedFile(dir / "model-00001-of-00001.safetensors", 4 << 20);
  testing::WriteFile(dir / "meminfo", "MemTotal: 16000000 kB\nMemAvailable: 8000000 kB\n");
  WarmConfig c;
  c.model_dir = dir.path().string();
  c.meminfo_path = (dir / "meminfo").string();
  c.reserve_bytes = 1 << 20;
  {
    WarmStage stage(c);
    stage.Start();
    WarmStatus s = WaitForEnd(stage);
    EXPECT_EQ(s.state, "done") << s.note;
    EXPECT_EQ(s.checkpoint_bytes, 4u << 20);
    Verdict v;
    stage.Apply(v, 0);
    ASSERT_TRUE(v.warm);
  }
  // Nothing fits: skipped, with the reason, and the server is left alone.
  const auto shard = dir / "model-00001-of-00001.safetensors";
  if (!testing::EvictionObservable(shard) || !EvictFile(shard.string()).ok()) {
    GTEST_SKIP() << "eviction not observable here";
  }
  testing::WriteFile(dir / "meminfo", "MemTotal: 16000000 kB\nMemAvailable: 1000 kB\n");
  WarmStage small(c);
  small.Start();
  WarmStatus s = WaitForEnd(small);
  EXPECT_EQ(s.state, "skipped");
  EXPECT_NE(s.note.find("fits"), std::string::npos) << s.note;
  // No checkpoint: skipped with the reason, never an exception.
  c.model_dir = (dir / "missing").string();
  WarmStage none(c);
  none.Start();
  EXPECT_EQ(WaitForEnd(none).state, "skipped");
}

TEST(WarmStage, StopsWhenTheServerIsReady) {
  WarmConfig c;
  c.model_dir = "/nonexistent";
  WarmStage stage(c);  // not started: Apply still reports, and never blocks
  Verdict v;
  v.state = State::kReady;
  stage.Apply(v, 0);
  ASSERT_TRUE(v.warm);
  EXPECT_EQ(v.warm->state, "planning");
}

}  // namespace
}  // namespace spinup
