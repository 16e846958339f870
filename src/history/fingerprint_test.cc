#include "history/fingerprint.h"

#include <gtest/gtest.h>

#include "format/checkpoint_writer.h"
#include "test_util.h"

namespace spinup {
namespace {

Checkpoint Load(const std::filesystem::path& dir) {
  auto c = LoadCheckpoint(dir);
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? *c : Checkpoint{};
}

void Write(const std::filesystem::path& dir, const std::vector<gen::TensorSpec>& tensors,
           size_t shards, uint64_t seed) {
  gen::CheckpointSpec spec;
  spec.shards = gen::SplitIntoShards(tensors, shards);
  spec.seed = seed;
  ASSERT_TRUE(gen::WriteCheckpoint(dir, spec).ok());
}

TEST(FingerprintTest, SameHeadersSameFingerprintAndChangesShow) {
  testing::TempDir dir;
  std::vector<gen::TensorSpec> t = {{"a.weight", "BF16", {64, 64}}, {"b.weight", "BF16", {64}}};
  Write(dir / "one", t, 2, 1);
  Write(dir / "two", t, 2, 7);  // other tensor data, same headers
  auto f1 = FingerprintCheckpoint(Load(dir / "one"));
  EXPECT_EQ(f1.shards, 2);
  EXPECT_GT(f1.bytes, 64u * 64 * 2);
  EXPECT_EQ(f1.header_hash.size(), 16u);
  EXPECT_EQ(f1, FingerprintCheckpoint(Load(dir / "two")));

  t[1].shape = {128};  // a changed tensor
  Write(dir / "three", t, 2, 1);
  EXPECT_NE(f1.header_hash, FingerprintCheckpoint(Load(dir / "three")).header_hash);
  Write(dir / "four", {{"a.weight", "BF16", {64, 64}}, {"b.weight", "BF16", {64}}}, 1, 1);
  auto f4 = FingerprintCheckpoint(Load(dir / "four"));  // re-sharded
  EXPECT_EQ(f4.shards, 1);
  EXPECT_NE(f1.header_hash, f4.header_hash);
}

}  // namespace
}  // namespace spinup
