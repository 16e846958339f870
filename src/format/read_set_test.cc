#include "format/read_set.h"

#include <gtest/gtest.h>

#include "format/checkpoint_writer.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::TempDir;

// warm/bench/evict read what the index names, not every *.safetensors in the folder (issue 12).
TEST(CheckpointReadSet, FollowsTheIndexNotTheListing) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 2;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::DenseSpec(o)).ok());
  // A stale shard from an earlier download: listed by the folder, named by no index.
  testing::WriteFile(tmp / "old-model-00001-of-00009.safetensors", std::string(64, 'x'));
  auto set = ResolveCheckpointReadSet(tmp.path().string());
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->files.size(), 2u);
  for (const auto& f : set->files) {
    EXPECT_EQ(f.path.find("old-model"), std::string::npos) << f.path;
  }
  EXPECT_TRUE(set->missing.empty());
}

TEST(CheckpointReadSet, HuggingFaceCacheFolderAndSingleFile) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 3;
  auto repo = gen::WriteHfCache(tmp.path(), "org/name", gen::DenseSpec(o), false);
  ASSERT_TRUE(repo.ok()) << repo.status().message();
  auto set = ResolveCheckpointReadSet(repo->string());
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->files.size(), 3u);
  EXPECT_NE(set->root.find("snapshots"), std::string::npos);
  auto one = ResolveCheckpointReadSet(set->files.front().path);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->files.size(), 1u);
}

TEST(CheckpointReadSet, MissingShardsAreNamedAndNonSafetensorsFallBack) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 2;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::DenseSpec(o)).ok());
  auto full = ResolveCheckpointReadSet(tmp.path().string());
  ASSERT_TRUE(full.ok());
  std::filesystem::remove(full->files.back().path);
  auto set = ResolveCheckpointReadSet(tmp.path().string());
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->files.size(), 1u);
  ASSERT_EQ(set->missing.size(), 1u);

  TempDir gguf;
  testing::WriteFile(gguf / "model-q4.gguf", std::string(128, 'g'));
  auto g = ResolveCheckpointReadSet(gguf.path().string());
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->files.size(), 1u);
  EXPECT_FALSE(ResolveCheckpointReadSet((gguf / "nope").string()).ok());
}

}  // namespace
}  // namespace spinup
