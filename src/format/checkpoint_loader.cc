// LoadCheckpoint: PATH resolution, headers, index and config.json, plus the cross-checks between
// index and shards. Reads only headers (never tensor data), so it is fast on any checkpoint size.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <unordered_map>

#include "base/json_bounded.h"
#include "base/readonly_file.h"
#include "base/threads.h"
#include "format/safetensors.h"
#include "spinup/checkpoint.h"

namespace spinup {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uint64_t kMaxIndexBytes = 100'000'000;
constexpr uint64_t kMaxConfigBytes = 16'000'000;
// First read of a shard: covers most headers in one pread.
constexpr uint64_t kFirstRead = 256 * 1024;
constexpr size_t kMaxLoadThreads = 16;
// JSON structure caps (base/json_bounded.h). An index lists each tensor once (2 values each);
// config.json files run to a few thousand values.
constexpr JsonLimits kIndexLimits{8, 4'000'000};
constexpr JsonLimits kConfigLimits{32, 1'000'000};
// What the loader threads may hold at once, whatever their number: header text (a header may be
// 100 MB, 16 threads read at once) and header trees (up to ~125 bytes a value measured for
// "[[],[],...]": 3.9M values peaked at 490 MB). Together under 700 MB.
constexpr uint64_t kHeaderBytesInFlight = 200'000'000;
constexpr uint64_t kHeaderValuesInFlight = kMaxSafetensorsHeaderValues;

JsonValueBudget& HeaderBudget() {
  static JsonValueBudget budget(kHeaderValuesInFlight);
  return budget;
}

JsonValueBudget& HeaderBytesBudget() {  // the same counting budget, in bytes
  static JsonValueBudget budget(kHeaderBytesInFlight);
  return budget;
}

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

struct Resolved {
  fs::path root;
  std::optional<std::string> single_file;
  // Shards must really lie under this folder (after following links): the model folder, or for
  // a Hugging Face cache snapshot the repo folder, whose snapshots link into its blobs/. Empty
  // when the operator named one file: that file is read wherever it lives.
  fs::path confine;
};

fs::path ConfineFor(const fs::path& root) {
  std::error_code ec;
  fs::path real = fs::canonical(root, ec);
  if (ec) return root;
  if (real.parent_path().filename() == "snapshots") return real.parent_path().parent_path();
  return real;
}

// True when `path`, links followed, is `base` or lies under it.
bool Inside(const fs::path& base, const fs::path& path) {
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  if (ec) return true;  // missing or unreadable: the open reports it
  auto [b, r] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  return b == base.end();
}

Result<Resolved> Resolve(const fs::path& input) {
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0) return Status::FromErrno(errno, input.string());
  if (S_ISREG(st.st_mode)) {
    fs::path parent = input.parent_path();
    return Resolved{parent.empty() ? fs::path(".") : parent, input.filename().string(), {}};
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument(input.string() + ": not a file or a directory");
  }
  std::error_code ec;
  fs::path snapshots = input / "snapshots";
  if (!fs::is_directory(snapshots, ec)) return Resolved{input, std::nullopt, ConfineFor(input)};
  // A Hugging Face cache repo folder (models--org--name): refs/main names the snapshot.
  fs::path ref = input / "refs" / "main";
  std::string hash;
  if (fs::exists(ref, ec)) {
    auto text = ReadSmallFile(ref, 4096);
    if (!text.ok()) return text.status();
    hash = Trim(*text);
    if (hash.empty() || hash == "." || hash == ".." || hash.find('/') != std::string::npos ||
        hash.find('\0') != std::string::npos) {
      return Status::InvalidArgument(ref.string() + ": does not hold a snapshot name");
    }
  } else {
    std::vector<std::string> names;
    for (auto it = fs::directory_iterator(snapshots, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    if (names.size() != 1) {
      return Status::InvalidArgument(
          input.string() + ": no refs/main and not exactly one snapshot; pass snapshots/<hash>");
    }
    hash = names[0];
  }
  fs::path root = snapshots / hash;
  if (!fs::is_directory(root, ec)) {
    return Status::NotFound(
        fmt::format("{}: snapshot {} named by refs/main is missing", input.string(), hash));
  }
  return Resolved{root, std::nullopt, ConfineFor(root)};
}

// An index entry must name a file inside the model folder: relative, no ".." escaping it.
std::optional<std::string> InsideName(const std::string& value) {
  if (value.empty() || value.find('\0') != std::string::npos) return std::nullopt;
  fs::path p(value);
  if (p.is_absolute()) return std::nullopt;
  fs::path norm = p.lexically_normal();
  std::string s = norm.generic_string();
  if (s.empty() || s == "." || s == ".." || s.starts_with("../") || norm.filename().empty()) {
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> GetString(const json& j, const char* key) {
  auto it = j.find(key);
  if (it != j.end() && it->is_string()) return it->get<std::string>();
  return std::nullopt;
}

std::optional<int64_t> GetInt(const json& j, const char* key) {
  auto it = j.find(key);
  if (it != j.end() && it->is_number_integer()) return it->get<int64_t>();
  return std::nullopt;
}

ModelConfig ParseConfig(const json& j) {
  ModelConfig c;
  auto fill = [&c](const json& o) {
    if (!o.is_object()) return;
    if (!c.architecture) {
      auto it = o.find("architectures");
      if (it != o.end() && it->is_array() && !it->empty() && (*it)[0].is_string()) {
        c.architecture = (*it)[0].get<std::string>();
      }
    }
    if (!c.model_type) c.model_type = GetString(o, "model_type");
    if (!c.layers) c.layers = GetInt(o, "num_hidden_layers");
    for (const char* key : {"num_experts", "n_routed_experts", "num_local_experts"}) {
      if (!c.experts) c.experts = GetInt(o, key);
    }
    if (!c.experts_per_token) c.experts_per_token = GetInt(o, "num_experts_per_tok");
    if (!c.hidden_size) c.hidden_size = GetInt(o, "hidden_size");
    if (!c.dtype) c.dtype = GetString(o, "torch_dtype");
    if (!c.dtype) c.dtype = GetString(o, "dtype");
    if (!c.quantization) {
      auto it = o.find("quantization_config");
      if (it != o.end() && it->is_object()) c.quantization = GetString(*it, "quant_method");
    }
  };
  fill(j);
  // Multimodal configs keep the language model's facts under text_config.
  if (j.is_object()) {
    auto it = j.find("text_config");
    if (it != j.end()) fill(*it);
  }
  return c;
}

void LoadShard(const fs::path& root, const fs::path& confine, ShardInfo* shard,
               std::vector<CheckpointProblem>* problems) {
  auto add = [&](ProblemKind kind, std::optional<std::string> tensor, std::string msg) {
    problems->push_back(CheckpointProblem{kind, shard->file, std::move(tensor), std::move(msg)});
  };
  shard->path = root / shard->file;
  // A link out of the model folder (model.safetensors -> /etc/shadow) is reported, never read:
  // not even its first 8 bytes, which an error would otherwise print as a "header length".
  if (!confine.empty() && !Inside(confine, shard->path)) {
    add(ProblemKind::kPathOutsideModel, std::nullopt,
        "is a link to a file outside the model folder; not read");
    return;
  }
  auto file = ReadOnlyFile::Open(shard->path);
  if (!file.ok()) {
    if (file.status().kind() == ErrorKind::kNotFound) {
      add(ProblemKind::kMissingShard, std::nullopt, "shard is missing");
    } else {
      add(ProblemKind::kMissingShard, std::nullopt,
          "shard cannot be opened: " + file.status().message());
    }
    return;
  }
  if (!file->regular()) {
    add(ProblemKind::kHeaderInvalid, std::nullopt, "is not a regular file");
    return;
  }
  shard->present = true;
  shard->file_size = file->size();
  if (struct stat id{}; ::fstat(file->fd(), &id) == 0) {
    shard->device = id.st_dev;
    shard->inode = id.st_ino;
  }
  // Declared before `prefix`, so the text's bytes are freed before its reservation is released.
  JsonReservation text_reservation;
  std::string prefix;
  Status st = file->ReadAt(0, std::min(file->size(), kFirstRead), &prefix);
  if (st.ok() && prefix.size() >= 8) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
      n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<size_t>(i)]);
    if (n <= kMaxSafetensorsHeaderBytes && n <= file->size() - 8 && 8 + n > prefix.size()) {
      if (HeaderBytesBudget().Acquire(8 + n))
        text_reservation = JsonReservation(&HeaderBytesBudget(), 8 + n);
      st = file->ReadAt(0, 8 + n, &prefix);
    }
  }
  if (!st.ok()) {
    add(ProblemKind::kTruncated, std::nullopt, "cannot be read: " + st.message());
    return;
  }
  SafetensorsHeader h = ParseSafetensorsFile(prefix, file->size(), &HeaderBudget());
  shard->header_len = h.header_len;
  shard->parsed = h.valid;
  for (auto& p : h.problems) {
    p.file = shard->file;
    problems->push_back(std::move(p));
  }
  for (auto& t : h.tensors) t.file = shard->file;
  shard->tensors = std::move(h.tensors);
  shard->metadata = std::move(h.metadata);
}

void CrossCheck(Checkpoint* ck) {
  std::unordered_map<std::string_view, const std::string*> holder;  // tensor -> shard file
  std::set<std::string> parsed;
  std::vector<CheckpointProblem> found;
  for (const auto& shard : ck->shards) {
    if (!shard.parsed) continue;
    parsed.insert(shard.file);
    for (const auto& t : shard.tensors) {
      auto [it, inserted] = holder.emplace(t.name, &shard.file);
      if (!inserted) {
        found.push_back({ProblemKind::kDuplicateTensor, shard.file, t.name,
                         fmt::format("tensor is also in {}", *it->second)});
      } else if (ck->index && !ck->index->weight_map.contains(t.name)) {
        found.push_back({ProblemKind::kIndexMismatch, shard.file, t.name,
                         fmt::format("holds a tensor that {} does not list", ck->index->file)});
      }
    }
  }
  if (ck->index) {
    for (const auto& [tensor, value] : ck->index->weight_map) {
      auto name = InsideName(value);
      if (!name || !parsed.contains(*name)) continue;  // reported already (outside / unreadable)
      auto it = holder.find(tensor);
      if (it == holder.end()) {
        found.push_back({ProblemKind::kIndexMismatch, ck->index->file, tensor,
                         fmt::format("lists the tensor in {} but no shard holds it", *name)});
      } else if (*it->second != *name) {
        found.push_back(
            {ProblemKind::kIndexMismatch, ck->index->file, tensor,
             fmt::format("lists the tensor in {} but it is in {}", *name, *it->second)});
      }
    }
  }
  for (auto& p : found) ck->problems.push_back(std::move(p));
}

// A model folder's .safetensors files and index files, each sorted, model.safetensors.index.json
// first among the indexes.
struct FolderListing {
  std::vector<std::string> shards;
  std::vector<std::string> indexes;
};

Result<FolderListing> ListFolder(const fs::path& root) {
  FolderListing out;
  std::error_code ec;
  for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.ends_with(".safetensors.index.json")) out.indexes.push_back(name);
    if (name.ends_with(".safetensors")) out.shards.push_back(name);
  }
  if (ec) return Status::FromErrno(ec.value(), root.string());
  std::sort(out.shards.begin(), out.shards.end());
  std::sort(out.indexes.begin(), out.indexes.end());
  auto preferred =
      std::find(out.indexes.begin(), out.indexes.end(), "model.safetensors.index.json");
  if (preferred != out.indexes.end()) std::iter_swap(out.indexes.begin(), preferred);
  return out;
}

// Reads the index `file`: on success it becomes ck->index and the shards its weight map names
// inside the folder go to `shard_files`. False when the index is unusable (a problem says why).
bool ReadIndex(const std::string& file, Checkpoint* ck, std::vector<std::string>* shard_files) {
  CheckpointIndex index;
  index.file = file;
  auto text = ReadSmallFile(ck->root / index.file, kMaxIndexBytes);
  Result<BoundedJson> parsed = Status::Internal("not read");
  if (text.ok()) parsed = ParseJsonBounded(*text, kIndexLimits);
  static const json kNull;
  const json& doc = parsed.ok() ? parsed->value : kNull;
  auto wm = doc.is_object() ? doc.find("weight_map") : doc.end();
  if (!text.ok() || !doc.is_object() || wm == doc.end() || !wm->is_object()) {
    std::string why = !text.ok()     ? "index cannot be read: " + text.status().message()
                      : !parsed.ok() ? "index is not usable JSON: " + parsed.status().message()
                                     : "index is not a JSON object with a weight_map object";
    ck->problems.push_back({ProblemKind::kHeaderInvalid, index.file, std::nullopt, why});
    return false;
  }
  std::set<std::string> shards, outside;
  for (const auto& [tensor, value] : wm->items()) {
    if (!value.is_string()) {
      ck->problems.push_back(
          {ProblemKind::kHeaderInvalid, index.file, tensor, "weight_map value is not a file name"});
      continue;
    }
    std::string v = value.get<std::string>();
    index.weight_map[tensor] = v;
    if (auto inside = InsideName(v)) {
      shards.insert(*inside);
    } else if (outside.insert(v).second) {
      ck->problems.push_back({ProblemKind::kPathOutsideModel, v, tensor,
                              fmt::format("{} names a file outside the model folder", index.file)});
    }
  }
  auto meta = doc.find("metadata");
  if (meta != doc.end() && meta->is_object()) {
    auto ts = meta->find("total_size");
    if (ts != meta->end() && ts->is_number_unsigned()) index.total_size = ts->get<uint64_t>();
  }
  shard_files->assign(shards.begin(), shards.end());
  ck->index = std::move(index);
  return true;
}

// The shard files to read: the one file named, else the index's (when usable), else the folder's.
Result<std::vector<std::string>> ShardFiles(const Resolved& resolved, Checkpoint* ck) {
  if (resolved.single_file) return std::vector<std::string>{*resolved.single_file};
  auto listing = ListFolder(ck->root);
  if (!listing.ok()) return listing.status();
  std::vector<std::string> shard_files;
  if (listing->indexes.empty() || !ReadIndex(listing->indexes[0], ck, &shard_files)) {
    shard_files = listing->shards;
  }
  if (shard_files.empty() && !ck->index) {
    return Status::NotFound(ck->root.string() + ": no .safetensors files and no index");
  }
  return shard_files;
}

// Headers are read in parallel: on network storage each is a latency-bound round trip. Problems
// keep the shards' order.
void LoadShards(const std::vector<std::string>& shard_files, const fs::path& confine,
                Checkpoint* ck) {
  ck->shards.resize(shard_files.size());
  std::vector<std::vector<CheckpointProblem>> shard_problems(shard_files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < shard_files.size();) {
      ck->shards[i].file = shard_files[i];
      LoadShard(ck->root, confine, &ck->shards[i], &shard_problems[i]);
    }
  };
  size_t threads = std::min<size_t>(
      {kMaxLoadThreads, shard_files.size(), std::max(1u, std::thread::hardware_concurrency())});
  RunOnThreads(static_cast<int>(threads), [&](int) { work(); });
  for (auto& list : shard_problems) {
    for (auto& p : list) ck->problems.push_back(std::move(p));
  }
}

void ReadConfig(Checkpoint* ck) {
  std::error_code ec;
  fs::path config_path = ck->root / "config.json";
  if (!fs::exists(config_path, ec)) return;
  auto text = ReadSmallFile(config_path, kMaxConfigBytes);
  auto parsed = text.ok() ? ParseJsonBounded(*text, kConfigLimits) : text.status();
  if (parsed.ok() && parsed->value.is_object()) {
    ck->has_config = true;
    ck->config = ParseConfig(parsed->value);
  }
}

}  // namespace

std::string_view ProblemKindName(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::kMissingShard:
      return "missing_shard";
    case ProblemKind::kTruncated:
      return "truncated";
    case ProblemKind::kHeaderInvalid:
      return "header_invalid";
    case ProblemKind::kUnknownDtype:
      return "unknown_dtype";
    case ProblemKind::kShapeMismatch:
      return "shape_mismatch";
    case ProblemKind::kOutOfBounds:
      return "out_of_bounds";
    case ProblemKind::kOverlap:
      return "overlap";
    case ProblemKind::kGap:
      return "gap";
    case ProblemKind::kIndexMismatch:
      return "index_mismatch";
    case ProblemKind::kDuplicateTensor:
      return "duplicate_tensor";
    case ProblemKind::kPathOutsideModel:
      return "path_outside_model";
    case ProblemKind::kLfsPointer:
      return "lfs_pointer";
    case ProblemKind::kEmptyFile:
      return "empty_file";
    case ProblemKind::kHashMismatch:
      return "hash_mismatch";
  }
  return "unknown";
}

uint64_t TensorInfo::elements() const {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) return UINT64_MAX;
  }
  return n;
}

uint64_t Checkpoint::tensor_count() const {
  uint64_t n = 0;
  for (const auto& s : shards) n += s.tensors.size();
  return n;
}

uint64_t Checkpoint::tensor_bytes() const {
  uint64_t n = 0;
  for (const auto& s : shards) {
    for (const auto& t : s.tensors) n += t.bytes();
  }
  return n;
}

uint64_t Checkpoint::file_bytes() const {
  uint64_t n = 0;
  for (const auto& s : shards) n += s.file_size;
  return n;
}

Result<Checkpoint> LoadCheckpoint(const fs::path& path) {
  auto resolved = Resolve(path);
  if (!resolved.ok()) return resolved.status();
  Checkpoint ck;
  ck.input = path;
  ck.root = resolved->root;
  auto shard_files = ShardFiles(*resolved, &ck);
  if (!shard_files.ok()) return shard_files.status();
  LoadShards(*shard_files, resolved->confine, &ck);
  CrossCheck(&ck);
  ReadConfig(&ck);
  return ck;
}

}  // namespace spinup
