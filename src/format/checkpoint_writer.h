// Test-data generator: writes real safetensors checkpoints (dense ones with random data, sparse
// ones whose data region is a hole so hundreds of GB cost no disk), damaged ones of every kind
// `spinup verify` names, and Hugging Face cache layouts. Used by tools/spinup_gen_checkpoint, the
// tests (in-process) and the benchmarks. It writes only under the folder it is given.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace spinup::gen {

struct TensorSpec {
  std::string name;
  std::string dtype;  // safetensors dtype name
  std::vector<uint64_t> shape;
};

// A tensor as written into a header: offsets are explicit so damaged layouts can be expressed.
struct RawTensor {
  std::string name;
  std::string dtype;
  std::vector<uint64_t> shape;
  uint64_t begin = 0;
  uint64_t end = 0;
};

struct ShardSpec {
  std::string file;  // relative to the checkpoint folder
  std::vector<RawTensor> tensors;
  uint64_t data_len = 0;  // bytes of data region to write
};

enum class Fill { kRandom, kSparse };

struct CheckpointSpec {
  std::vector<ShardSpec> shards;
  bool write_index = true;  // model.safetensors.index.json from the shards
  std::map<std::string, std::string> extra_index_entries;  // added to weight_map as is
  std::string config_json;                                 // config.json text; none when empty
  Fill fill = Fill::kRandom;
  uint64_t seed = 1;
};

// Bytes a tensor of `dtype` and `shape` occupies (dtype bits x elements / 8); 0 if unknown dtype.
uint64_t TensorBytes(std::string_view dtype, const std::vector<uint64_t>& shape);
// Lays tensors out back to back from offset 0.
ShardSpec LayOut(std::string file, const std::vector<TensorSpec>& tensors);
// "model-00002-of-00039.safetensors"; "model.safetensors" when n == 1.
std::string ShardName(size_t i, size_t n);
// Splits tensors into n shards of roughly equal bytes, in order.
std::vector<ShardSpec> SplitIntoShards(const std::vector<TensorSpec>& tensors, size_t n);

// Header JSON for these tensors (and metadata), padded with spaces to a multiple of 8 bytes.
std::string HeaderJson(const std::vector<RawTensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});
// Writes 8-byte length + header + data_len bytes of data (random, or a hole when sparse).
Status WriteSafetensorsFile(const std::filesystem::path& path, std::string_view header_json,
                            uint64_t data_len, Fill fill, uint64_t seed);
// Creates `dir` (and parents) and writes every shard, the index and config.json.
Status WriteCheckpoint(const std::filesystem::path& dir, const CheckpointSpec& spec);

// A small llama-like dense model.
struct DenseOptions {
  int layers = 2;
  uint64_t hidden = 64;
  uint64_t intermediate = 128;
  uint64_t vocab = 256;
  size_t shards = 2;
  std::string dtype = "BF16";
  uint64_t seed = 1;
};
std::vector<TensorSpec> DenseTensors(const DenseOptions& o);
CheckpointSpec DenseSpec(const DenseOptions& o);

// A large mixture-of-experts model, sparse on disk. Defaults: 48 layers x 256 experts, 39 shards,
// 37,203 tensors, about 238 GB of BF16 weights.
struct SparseOptions {
  int layers = 48;
  uint64_t experts = 256;
  uint64_t experts_per_token = 8;
  uint64_t hidden = 4096;
  uint64_t moe_intermediate = 768;
  uint64_t kv_dim = 512;
  uint64_t vocab = 151936;
  size_t shards = 39;
};
std::vector<TensorSpec> SparseTensors(const SparseOptions& o);
CheckpointSpec SparseSpec(const SparseOptions& o);

// The damaged checkpoints: each is a 3-shard dense checkpoint with one thing wrong.
enum class Damage {
  kTruncated,           // shard 2 cut short inside its data
  kMissingShard,        // shard 3 deleted
  kHeaderTooLong,       // shard 2's length prefix larger than the file
  kHeaderNotJson,       // shard 2's header bytes are not JSON
  kOverlap,             // shard 2's last tensor overlaps the one before
  kShapeMismatch,       // shard 2's first tensor's shape disagrees with its offsets
  kGap,                 // shard 2 has a hole before its last tensor
  kIndexOutside,        // the index names ../outside.safetensors
  kIndexUnknownTensor,  // the index names a tensor no shard holds
  kLfsPointer,          // shard 2 is a Git LFS pointer file
  kEmptyFile,           // shard 2 is empty
  kUnknownDtype,        // shard 2's first tensor has dtype "F7"
  kDuplicateTensor,     // shard 3 also holds a tensor of shard 1
  kOutOfBounds,         // shard 2's first tensor has reversed data_offsets
};
std::vector<Damage> AllDamages();
std::string_view DamageName(Damage d);  // "truncated", "missing-shard", ...
std::optional<Damage> DamageFromName(std::string_view name);

struct DamageInfo {
  std::string kind;  // the ProblemKindName verify must report
  std::string file;  // the file it must name
};
// Writes the damaged checkpoint into `dir`; returns what verify is expected to report.
Result<DamageInfo> WriteDamaged(const std::filesystem::path& dir, Damage damage, uint64_t seed = 7);

// A Hugging Face cache repo folder under `cache_dir`: models--org--name/{refs/main,
// snapshots/<commit>/<file> -> ../../blobs/<sha256>, blobs/}. With `corrupt`, the first shard's
// blob content no longer matches its name. Returns the repo folder.
Result<std::filesystem::path> WriteHfCache(const std::filesystem::path& cache_dir,
                                           std::string_view repo_id, const CheckpointSpec& spec,
                                           bool corrupt);

}  // namespace spinup::gen
