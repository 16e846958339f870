#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "format/checkpoint_writer.h"
#include "spinup/checkpoint.h"
#include "spinup/inspect.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

// The test's own table (not the parser's) of bytes per element, in bits.
uint64_t Bits(const std::string& dtype) {
  if (dtype == "F32" || dtype == "I32") return 32;
  if (dtype == "BF16" || dtype == "F16") return 16;
  if (dtype == "F8_E4M3" || dtype == "U8") return 8;
  if (dtype == "I64" || dtype == "F64") return 64;
  if (dtype == "F4") return 4;
  return 0;
}

struct Expected {
  uint64_t bytes = 0, params = 0, per_rank = 0;
};

Expected Expect(const std::vector<gen::TensorSpec>& tensors, uint64_t tp) {
  Expected e;
  for (const auto& t : tensors) {
    uint64_t n = 1;
    for (auto d : t.shape) n *= d;
    uint64_t b = n * Bits(t.dtype) / 8;
    e.bytes += b;
    e.params += n;
    e.per_rank += t.shape.size() >= 2 ? (b + tp - 1) / tp : b;
  }
  return e;
}

TEST(CheckpointLoader, ModelFolderWithIndexAndConfig) {
  TempDir tmp;
  std::vector<gen::TensorSpec> first = {{"a", "F32", {4, 8}}, {"b", "BF16", {16}}};
  std::vector<gen::TensorSpec> second = {
      {"c", "F8_E4M3", {3, 5, 7}}, {"d", "I64", {}}, {"e", "F4", {2, 8}}};
  gen::CheckpointSpec spec;
  spec.shards = {gen::LayOut("one.safetensors", first), gen::LayOut("two.safetensors", second)};
  spec.config_json =
      R"({"architectures":["MyForCausalLM"],"model_type":"mm","dtype":"bfloat16",)"
      R"("quantization_config":{"quant_method":"fp8"},)"
      R"("text_config":{"num_hidden_layers":3,"hidden_size":8,"num_local_experts":4,)"
      R"("num_experts_per_tok":2,"model_type":"ignored"}})";
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), spec).ok());

  auto ck = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  EXPECT_TRUE(ck->problems.empty()) << ck->problems[0].message;
  ASSERT_TRUE(ck->index.has_value());
  EXPECT_EQ(ck->index->weight_map.size(), 5u);
  ASSERT_EQ(ck->shards.size(), 2u);
  EXPECT_EQ(ck->shards[0].file, "one.safetensors");

  std::vector<gen::TensorSpec> all = first;
  all.insert(all.end(), second.begin(), second.end());
  Expected e = Expect(all, 2);
  InspectSettings settings;
  settings.tp = 2;
  settings.gpu_mem_bytes = 1000;
  settings.read_bytes_per_s = 1000.0;
  InspectReport r = BuildInspectReport(*ck, settings);
  uint64_t file_bytes =
      fs::file_size(tmp / "one.safetensors") + fs::file_size(tmp / "two.safetensors");
  EXPECT_EQ(r.shards, 2u);
  EXPECT_EQ(r.tensors, 5u);
  EXPECT_EQ(r.total_bytes, e.bytes);
  EXPECT_EQ(r.total_bytes, 128u + 32 + 105 + 8 + 8);
  EXPECT_EQ(r.parameters, e.params);
  EXPECT_EQ(r.file_bytes, file_bytes);
  EXPECT_EQ(r.per_rank_bytes, e.per_rank);
  EXPECT_EQ(r.per_rank_bytes, 64u + 32 + 53 + 8 + 4);
  EXPECT_EQ(r.dtypes.at("F8_E4M3"), 105u);
  EXPECT_EQ(r.dtypes.at("F4"), 8u);
  ASSERT_TRUE(r.fits.has_value());
  EXPECT_TRUE(*r.fits);
  EXPECT_EQ(*r.headroom_bytes, 1000 - static_cast<int64_t>(e.per_rank));
  EXPECT_DOUBLE_EQ(*r.predicted_load_seconds, static_cast<double>(file_bytes) / 1000.0);
  EXPECT_EQ(r.config.architecture.value_or(""), "MyForCausalLM");
  EXPECT_EQ(r.config.model_type.value_or(""), "mm");  // top level wins over text_config
  EXPECT_EQ(r.config.layers.value_or(0), 3);
  EXPECT_EQ(r.config.experts.value_or(0), 4);
  EXPECT_EQ(r.config.experts_per_token.value_or(0), 2);
  EXPECT_EQ(r.config.hidden_size.value_or(0), 8);
  EXPECT_EQ(r.config.dtype.value_or(""), "bfloat16");
  EXPECT_EQ(r.config.quantization.value_or(""), "fp8");

  // Per-rank bytes never exceed the whole, and TP 1 holds everything.
  EXPECT_EQ(PerRankBytes(*ck, 1), e.bytes);
  EXPECT_EQ(PerRankBytes(*ck, 3), Expect(all, 3).per_rank);
}

TEST(CheckpointLoader, SingleFileAndFolderWithoutIndex) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 1;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::DenseSpec(o)).ok());
  auto tensors = gen::DenseTensors(o);
  Expected e = Expect(tensors, 1);

  auto folder = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(folder.ok());
  EXPECT_FALSE(folder->index.has_value());
  EXPECT_EQ(folder->shards.size(), 1u);
  EXPECT_EQ(folder->tensor_count(), tensors.size());
  EXPECT_EQ(folder->tensor_bytes(), e.bytes);
  EXPECT_TRUE(folder->problems.empty());

  auto file = LoadCheckpoint(tmp / "model.safetensors");
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file->shards.size(), 1u);
  EXPECT_EQ(file->shards[0].file, "model.safetensors");
  EXPECT_EQ(file->tensor_bytes(), e.bytes);
  EXPECT_EQ(file->config.layers.value_or(0), o.layers);
  EXPECT_EQ(file->config.architecture.value_or(""), "LlamaForCausalLM");
  EXPECT_FALSE(file->config.experts.has_value());
}

TEST(CheckpointLoader, HuggingFaceCacheRepoResolvesThroughRefsMain) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 2;
  auto repo = gen::WriteHfCache(tmp.path(), "org/name", gen::DenseSpec(o), false);
  ASSERT_TRUE(repo.ok()) << repo.status().message();
  EXPECT_EQ(repo->filename(), "models--org--name");
  std::string commit = testing::ReadFile(*repo / "refs" / "main");
  auto ck = LoadCheckpoint(*repo);
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  EXPECT_EQ(ck->root, *repo / "snapshots" / commit);
  EXPECT_EQ(ck->shards.size(), 2u);
  EXPECT_TRUE(ck->problems.empty());
  EXPECT_EQ(ck->tensor_bytes(), Expect(gen::DenseTensors(o), 1).bytes);

  // refs/main naming a snapshot that is not there is an unusable PATH.
  WriteFile(*repo / "refs" / "main", "0123456789abcdef0123456789abcdef01234567\n");
  auto bad = LoadCheckpoint(*repo);
  EXPECT_FALSE(bad.ok());
  // refs/main trying to leave snapshots/.
  WriteFile(*repo / "refs" / "main", "../../etc");
  EXPECT_FALSE(LoadCheckpoint(*repo).ok());
}

TEST(CheckpointLoader, UnusablePathsFail) {
  TempDir tmp;
  EXPECT_EQ(LoadCheckpoint(tmp / "nope").status().kind(), ErrorKind::kNotFound);
  EXPECT_FALSE(LoadCheckpoint(tmp.path()).ok());  // empty folder: nothing to inspect
}

TEST(CheckpointLoader, SparseMoeCheckpointFacts) {
  TempDir tmp;
  gen::SparseOptions o;  // defaults: 48 layers x 256 experts, 39 shards, 37,203 tensors
#ifdef __SANITIZE_ADDRESS__
  o.experts = 32;  // unoptimized JSON parsing under ASan: a smaller table, same shape of problem
#endif
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::SparseSpec(o)).ok());
  auto ck = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(ck.ok());
  EXPECT_TRUE(ck->problems.empty());
  EXPECT_EQ(ck->shards.size(), 39u);
  // Per layer: 2 norms, q/k/v/o, the router, 3 per expert; plus embeddings, final norm, lm_head.
  const uint64_t e = o.experts;
  EXPECT_EQ(ck->tensor_count(), 48u * (7 + 3 * e) + 3);
  if (e == 256) {
    EXPECT_EQ(ck->tensor_count(), 37203u);
  }
  uint64_t h = 4096, i = 768, kv = 512, v = 151936;
  uint64_t per_layer = 2 * h + 2 * h * h + 2 * kv * h + e * h + e * 3 * i * h;
  EXPECT_EQ(ck->tensor_bytes(), 2 * (48 * per_layer + 2 * v * h + h));
  EXPECT_GT(ck->file_bytes(), ck->tensor_bytes());
  EXPECT_EQ(ck->config.experts.value_or(0), static_cast<int64_t>(e));
  EXPECT_EQ(ck->config.experts_per_token.value_or(0), 8);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

TEST(CheckpointLoader, FifoInPlaceOfAShardDoesNotHang) {
  testing::TempDir tmp;
  gen::DenseOptions o;
  o.shards = 2;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::DenseSpec(o)).ok());
  std::filesystem::path shard = tmp / gen::ShardName(1, 2);
  std::filesystem::remove(shard);
  ASSERT_EQ(::mkfifo(shard.c_str(), 0644), 0);
  auto ck = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(ck.ok());
  ASSERT_EQ(ck->problems.size(), 1u);
  EXPECT_EQ(ck->problems[0].kind, ProblemKind::kHeaderInvalid);
  EXPECT_EQ(ck->problems[0].file, gen::ShardName(1, 2));
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

std::vector<std::string> KindsAndFiles(const Checkpoint& ck) {
  std::vector<std::string> out;
  for (const auto& p : ck.problems) {
    out.push_back(std::string(ProblemKindName(p.kind)) + " " + p.file + " " +
                  p.tensor.value_or("-"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CheckpointLoader, IndexCrossChecks) {
  testing::TempDir tmp;
  gen::CheckpointSpec spec;
  spec.shards = {gen::LayOut("sub/a.safetensors", {{"x", "F32", {2}}, {"y", "F32", {2}}}),
                 gen::LayOut("b.safetensors", {{"z", "F32", {2}}})};
  // The index places y in b (it is in a), and names files outside the folder two ways.
  spec.extra_index_entries = {
      {"y", "b.safetensors"}, {"p", "/etc/passwd"}, {"q", "sub/../../up.safetensors"}};
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), spec).ok());
  auto ck = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  ASSERT_EQ(ck->shards.size(), 2u);  // only the two inside; nothing outside is opened
  EXPECT_EQ(KindsAndFiles(*ck), (std::vector<std::string>{
                                    "index_mismatch model.safetensors.index.json y",
                                    "path_outside_model /etc/passwd p",
                                    "path_outside_model sub/../../up.safetensors q",
                                }));
}

TEST(CheckpointLoader, ShardTensorMissingFromIndexAndBrokenIndex) {
  testing::TempDir tmp;
  gen::CheckpointSpec spec;
  spec.shards = {gen::LayOut("a.safetensors", {{"x", "U8", {3}}})};
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), spec).ok());
  testing::WriteFile(tmp / "model.safetensors.index.json", R"({"weight_map":{}})");
  // An index that names no shard at all: nothing is loaded, nothing to compare.
  auto empty = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->shards.empty());

  testing::WriteFile(tmp / "model.safetensors.index.json",
                     R"({"weight_map":{"w":"a.safetensors"}})");
  auto ck = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(ck.ok());
  EXPECT_EQ(KindsAndFiles(*ck),
            (std::vector<std::string>{"index_mismatch a.safetensors x",
                                      "index_mismatch model.safetensors.index.json w"}));

  // Not JSON: reported, and the folder's shards are still read.
  testing::WriteFile(tmp / "model.safetensors.index.json", "{nope");
  auto broken = LoadCheckpoint(tmp.path());
  ASSERT_TRUE(broken.ok());
  EXPECT_EQ(KindsAndFiles(*broken),
            (std::vector<std::string>{"header_invalid model.safetensors.index.json -"}));
  EXPECT_EQ(broken->tensor_count(), 1u);
}

}  // namespace
}  // namespace spinup
