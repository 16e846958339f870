// A checkpoint as spinup sees it before anything loads it: the tensor table of every safetensors
// shard (from headers alone, never tensor data), the optional index, and the few config.json facts
// that matter for startup. Also the problems found while reading it, which `verify` reports.
//
// Loading is read-only (O_RDONLY|O_CLOEXEC) and never writes into the model directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace spinup {

// What can be wrong with a checkpoint. Names (ProblemKindName) are part of the JSON schema in
// docs/verify.md: never rename.
enum class ProblemKind {
  kMissingShard,      // the index names a shard that is not there
  kTruncated,         // the file is shorter than its header says
  kHeaderInvalid,     // bad length prefix, not JSON, wrong structure, over the 100 MB cap
  kUnknownDtype,      // a dtype safetensors does not define
  kShapeMismatch,     // shape x dtype size differs from the data_offsets span
  kOutOfBounds,       // offsets reversed (begin > end) or impossible
  kOverlap,           // two tensors share bytes
  kGap,               // bytes of the data region no tensor covers
  kIndexMismatch,     // index and shards disagree on which tensor lives where
  kDuplicateTensor,   // one tensor name in two shards
  kPathOutsideModel,  // an index entry points outside the model folder
  kLfsPointer,        // a Git LFS pointer file stands where a shard should be
  kEmptyFile,         // a zero-byte shard
  kHashMismatch,      // SHA-256 differs from the Hugging Face blob name
};
std::string_view ProblemKindName(ProblemKind kind);

struct CheckpointProblem {
  ProblemKind kind = ProblemKind::kHeaderInvalid;
  std::string file;                   // relative to the checkpoint root, as named by the index
  std::optional<std::string> tensor;  // the tensor concerned, when there is one
  std::string message;                // one line, without the file name
};

struct TensorInfo {
  std::string name;
  std::string dtype;        // as written in the header ("BF16", "F8_E4M3", ...)
  uint32_t dtype_bits = 0;  // bits per element; 0 for an unknown dtype
  std::vector<uint64_t> shape;
  uint64_t data_begin = 0;  // data_offsets, relative to the start of the data region
  uint64_t data_end = 0;
  uint64_t file_begin = 0;  // the same span as absolute offsets in the file
  uint64_t file_end = 0;
  std::string file;  // the shard holding it, relative to the checkpoint root

  uint64_t bytes() const { return data_end >= data_begin ? data_end - data_begin : 0; }
  // Product of the shape (1 for a scalar); saturates at UINT64_MAX instead of wrapping.
  uint64_t elements() const;
};

struct ShardInfo {
  std::string file;            // relative to the checkpoint root
  std::filesystem::path path;  // as opened (may be a symlink, e.g. into an HF cache blobs/)
  bool present = false;        // the file exists and could be opened
  bool parsed = false;         // its header was read and understood (tensors is meaningful)
  uint64_t file_size = 0;
  uint64_t header_len = 0;  // the 8-byte little-endian prefix's value
  // Identity of the file as loaded: `verify --hash` checks it still is this file, this size.
  uint64_t device = 0;
  uint64_t inode = 0;
  std::vector<TensorInfo> tensors;
  std::map<std::string, std::string> metadata;  // "__metadata__"
};

struct CheckpointIndex {
  std::string file;                               // e.g. "model.safetensors.index.json"
  std::map<std::string, std::string> weight_map;  // tensor name -> shard file
  std::optional<uint64_t> total_size;             // metadata.total_size when present
};

// config.json facts; each absent when config.json lacks it (or has no config.json at all).
// For multimodal configs, values missing at the top level are taken from "text_config".
struct ModelConfig {
  std::optional<std::string> architecture;  // architectures[0]
  std::optional<std::string> model_type;
  std::optional<int64_t> layers;             // num_hidden_layers
  std::optional<int64_t> experts;            // num_experts / n_routed_experts / num_local_experts
  std::optional<int64_t> experts_per_token;  // num_experts_per_tok
  std::optional<int64_t> hidden_size;
  std::optional<std::string> dtype;         // torch_dtype or dtype
  std::optional<std::string> quantization;  // quantization_config.quant_method
};

struct Checkpoint {
  std::filesystem::path input;  // PATH as given
  std::filesystem::path root;   // the model folder (snapshot folder for an HF cache repo)
  std::vector<ShardInfo> shards;
  std::optional<CheckpointIndex> index;
  bool has_config = false;
  ModelConfig config;
  // Problems found while reading headers and index; cross-checks (index vs shards, duplicates)
  // included. Empty for a whole checkpoint (hashing aside).
  std::vector<CheckpointProblem> problems;

  uint64_t tensor_count() const;
  uint64_t tensor_bytes() const;  // sum of tensor data spans
  uint64_t file_bytes() const;    // sum of shard file sizes
};

// Resolves PATH (a model folder, one .safetensors file, or an HF cache repo folder
// `models--org--name` via refs/main) and reads headers, index and config.json. Fails (kNotFound,
// kIo, kInvalidArgument) only when PATH cannot be used at all; damage inside is reported in
// Checkpoint::problems.
Result<Checkpoint> LoadCheckpoint(const std::filesystem::path& path);

// ---- verify ----

struct VerifyOptions {
  bool hash = false;     // SHA-256 of every shard
  unsigned threads = 0;  // hashing threads; 0 = one per core
  // Called on the calling thread about every 100 ms with bytes hashed so far and the total;
  // may be empty.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

struct ShardDigest {
  std::string file;
  std::string sha256;                   // lowercase hex
  std::optional<std::string> expected;  // the HF cache blob name, when the shard links into blobs/
};

struct VerifyReport {
  std::string path;
  bool ok = true;
  uint64_t checked_files = 0;  // shard files found and opened, plus the index file
  uint64_t hashed_bytes = 0;
  std::vector<CheckpointProblem> problems;
  std::vector<ShardDigest> digests;  // with hashing only
};

// The checkpoint's load-time problems plus, with options.hash, digests and hash_mismatch.
VerifyReport VerifyCheckpoint(const Checkpoint& checkpoint, const VerifyOptions& options);

// Renderers (docs/verify.md): one JSON object; and one line per problem naming file and problem,
// then a summary line.
std::string VerifyReportJson(const VerifyReport& report);
std::string VerifyReportText(const VerifyReport& report);

}  // namespace spinup
