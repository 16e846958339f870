#include "spinup/read_plan.h"

#include <sys/stat.h>

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "spinup/checkpoint_files.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::TempDir;

TEST(ReadPlan, WholeFilesAreLaidOutBackToBack) {
  TempDir dir;
  testing::WriteFile(dir / "a", std::string(100, 'a'));
  testing::WriteFile(dir / "b", std::string(0, 'b'));
  testing::WriteFile(dir / "c", std::string(7, 'c'));
  auto plan = PlanWholeFiles({dir / "a", dir / "b", dir / "c"});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->ranges.size(), 3u);
  EXPECT_EQ(plan->ranges[1].dest_offset, 100u);
  EXPECT_EQ(plan->ranges[2].dest_offset, 100u);
  EXPECT_EQ(plan->TotalBytes(), 107u);
  EXPECT_EQ(plan->DestBytes(), 107u);
  EXPECT_EQ(plan->ranges[2].tag, 2u);
}

TEST(ReadPlan, RangesPastTheEndAndMissingFilesAreRejected) {
  TempDir dir;
  testing::WriteFile(dir / "a", std::string(100, 'a'));
  EXPECT_TRUE(PlanFromRanges({{dir / "a", 90, 10, 0}}).ok());
  auto past = PlanFromRanges({{dir / "a", 90, 11, 0}});
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("past the end"), std::string::npos);
  EXPECT_FALSE(PlanFromRanges({{dir / "a", UINT64_MAX, 2, 0}}).ok());
  auto missing = PlanWholeFiles({dir / "nope"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
}

TEST(ReadPlan, FilesAreSharedBetweenRanges) {
  TempDir dir;
  testing::WriteFile(dir / "a", std::string(100, 'a'));
  testing::WriteFile(dir / "b", std::string(100, 'b'));
  auto plan = PlanFromRanges({{dir / "a", 0, 10, 5}, {dir / "b", 0, 10, 6}, {dir / "a", 50, 3, 7}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->files.size(), 2u);
  EXPECT_EQ(plan->ranges[2].file, 0u);
  EXPECT_EQ(plan->ranges[2].dest_offset, 20u);
  EXPECT_EQ(plan->ranges[2].tag, 7u);
}

TEST(ReadPlan, ChunkingSplitsByBlockAndKeepsEverything) {
  ReadPlan plan;
  plan.files = {{"x", 1000}};
  plan.ranges = {
      {0, 3, 25, nullptr, 100, 9}, {0, 0, 0, nullptr, 0, 8}, {0, 40, 10, nullptr, 200, 7}};
  ReadPlan c = ChunkPlan(plan, 10);
  // 25 -> 10+10+5, the empty range stays, 10 -> 10.
  ASSERT_EQ(c.ranges.size(), 5u);
  EXPECT_EQ(c.ranges[2].offset, 23u);
  EXPECT_EQ(c.ranges[2].length, 5u);
  EXPECT_EQ(c.ranges[2].dest_offset, 120u);
  EXPECT_EQ(c.ranges[2].tag, 9u);
  EXPECT_EQ(c.ranges[3].length, 0u);
  EXPECT_EQ(c.TotalBytes(), plan.TotalBytes());
}

TEST(ReadPlan, BalanceByBytesIsNearEqualAndCoversEveryRange) {
  ReadPlan plan;
  plan.files = {{"x", 1 << 30}, {"y", 1 << 30}};
  uint64_t off = 0;
  for (int i = 0; i < 97; ++i) {
    uint64_t len = 1000 + static_cast<uint64_t>(i * 7919 % 50000);
    plan.ranges.push_back({static_cast<uint32_t>(i % 2), off, len, nullptr, 0, 0});
    off += len;
  }
  auto groups = BalanceByBytes(plan, 4);
  ASSERT_EQ(groups.size(), 4u);
  std::set<size_t> seen;
  uint64_t biggest_range = 0, max_load = 0;
  for (const auto& r : plan.ranges) biggest_range = std::max(biggest_range, r.length);
  for (const auto& g : groups) {
    uint64_t load = 0;
    for (size_t i : g) {
      EXPECT_TRUE(seen.insert(i).second) << "range in two groups";
      load += plan.ranges[i].length;
    }
    max_load = std::max(max_load, load);
    for (size_t k = 1; k < g.size(); ++k) {
      const auto& a = plan.ranges[g[k - 1]];
      const auto& b = plan.ranges[g[k]];
      EXPECT_TRUE(a.file < b.file || (a.file == b.file && a.offset < b.offset));
    }
  }
  EXPECT_EQ(seen.size(), plan.ranges.size());
  EXPECT_LE(max_load, plan.TotalBytes() / 4 + biggest_range);
  EXPECT_EQ(BalanceByBytes(plan, 0).size(), 1u);
}

TEST(CheckpointFiles, PrefersSafetensorsAndSortsByName) {
  TempDir dir;
  testing::WriteFile(dir / "model-00002-of-00002.safetensors", "bb");
  testing::WriteFile(dir / "model-00001-of-00002.safetensors", "a");
  testing::WriteFile(dir / "pytorch_model.bin", "ccc");
  testing::WriteFile(dir / "config.json", "{}");
  auto files = ListCheckpointFiles(dir.path());
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_NE((*files)[0].path.find("00001"), std::string::npos);
  EXPECT_EQ((*files)[1].size, 2u);
}

TEST(CheckpointFiles, FallsBackToTorchFilesButNotTrainingArgs) {
  TempDir dir;
  testing::WriteFile(dir / "pytorch_model.bin", "ccc");
  testing::WriteFile(dir / "training_args.bin", "x");
  testing::WriteFile(dir / "extra.pt", "x");
  auto files = ListCheckpointFiles(dir.path());
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 2u);
  for (const auto& f : *files) EXPECT_EQ(f.path.find("training_args"), std::string::npos);
}

TEST(CheckpointFiles, BadInputsAreOneLineErrors) {
  TempDir dir;
  testing::WriteFile(dir / "config.json", "{}");
  auto none = ListCheckpointFiles(dir.path());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no checkpoint shards"), std::string::npos);
  auto missing = ListCheckpointFiles(dir / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  ASSERT_EQ(::mkfifo((dir / "x.safetensors").c_str(), 0600), 0);
  auto fifo = ListCheckpointFiles(dir.path());
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.status().message().find("FIFO"), std::string::npos);
  auto dev = ListCheckpointFiles("/dev/null");
  ASSERT_FALSE(dev.ok());
  EXPECT_NE(dev.status().message().find("character device"), std::string::npos);
  for (const auto* r : {&none, &missing, &fifo, &dev}) {
    EXPECT_EQ(r->status().message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace spinup
