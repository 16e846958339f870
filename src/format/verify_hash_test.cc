// verify --hash vouches only for the file the headers were checked on, whole (issue 11, item 15),
// and the loader's JSON is bounded by structure (item 3).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "format/safetensors.h"
#include "spinup/checkpoint.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;

std::string Shard(size_t data_bytes) {
  std::string header = R"({"w":{"dtype":"U8","shape":[)" + std::to_string(data_bytes) +
                       R"(],"data_offsets":[0,)" + std::to_string(data_bytes) + "]}}";
  std::string out;
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  return out + header + std::string(data_bytes, 'x');
}

bool HasProblem(const VerifyReport& r, const std::string& text) {
  for (const auto& p : r.problems) {
    if (p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(VerifyHash, ShardTruncatedAfterLoadingIsNotOk) {
  testing::TempDir dir;
  testing::WriteFile(dir / "model.safetensors", Shard(1 << 16));
  auto ck = LoadCheckpoint(dir.path());
  ASSERT_TRUE(ck.ok());
  ASSERT_EQ(::truncate((dir / "model.safetensors").c_str(), 1000), 0);
  VerifyOptions o;
  o.hash = true;
  VerifyReport r = VerifyCheckpoint(*ck, o);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasProblem(r, "changed while it was hashed")) << VerifyReportText(r);
}

TEST(VerifyHash, ShardThatGrewOrWasReplacedIsNotOk) {
  testing::TempDir dir;
  auto path = dir / "model.safetensors";
  testing::WriteFile(path, Shard(1 << 16));
  auto ck = LoadCheckpoint(dir.path());
  ASSERT_TRUE(ck.ok());
  testing::WriteFile(dir / "other", Shard(1 << 16));
  fs::rename(dir / "other", path);  // same size, another file
  VerifyOptions o;
  o.hash = true;
  VerifyReport r = VerifyCheckpoint(*ck, o);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasProblem(r, "replaced")) << VerifyReportText(r);
}

TEST(VerifyHash, UnchangedShardIsOk) {
  testing::TempDir dir;
  testing::WriteFile(dir / "model.safetensors", Shard(1 << 16));
  auto ck = LoadCheckpoint(dir.path());
  ASSERT_TRUE(ck.ok());
  VerifyOptions o;
  o.hash = true;
  VerifyReport r = VerifyCheckpoint(*ck, o);
  EXPECT_TRUE(r.ok) << VerifyReportText(r);
  EXPECT_EQ(r.hashed_bytes, fs::file_size(dir / "model.safetensors"));
}

// Item 3: 16 MB of tiny nested arrays (5.6 million values) in a header is refused after one
// counting pass instead of being built as a tree of gigabytes.
TEST(BoundedHeaders, WideHeaderIsRefusedByStructure) {
  std::string header = "{\"a\":[";
  header.reserve(16 << 20);
  while (header.size() < (16u << 20)) header += "[],";
  header += "[]]}";
  auto h = ParseSafetensorsHeader(header, 8 + header.size());
  EXPECT_FALSE(h.valid);
  ASSERT_FALSE(h.problems.empty());
  EXPECT_NE(h.problems[0].message.find("JSON values"), std::string::npos) << h.problems[0].message;
  std::string deep = "{\"a\":" + std::string(1000, '[') + std::string(1000, ']') + "}";
  auto d = ParseSafetensorsHeader(deep, 8 + deep.size());
  EXPECT_FALSE(d.valid);
  EXPECT_NE(d.problems[0].message.find("deeper"), std::string::npos) << d.problems[0].message;
}

TEST(BoundedHeaders, HostileIndexAndConfigAreProblemsNotMemory) {
  testing::TempDir dir;
  testing::WriteFile(dir / "model.safetensors", Shard(16));
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  testing::WriteFile(dir / "model.safetensors.index.json", deep);
  testing::WriteFile(dir / "config.json", deep);
  auto ck = LoadCheckpoint(dir.path());
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  EXPECT_FALSE(ck->has_config);
  bool index_problem = false;
  for (const auto& p : ck->problems) {
    index_problem |= p.message.find("deeper") != std::string::npos;
  }
  EXPECT_TRUE(index_problem);
}

}  // namespace
}  // namespace spinup
