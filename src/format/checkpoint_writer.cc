#include "format/checkpoint_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <set>

#include "base/readonly_file.h"
#include "base/sha256.h"
#include "format/safetensors.h"

namespace spinup::gen {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

// splitmix64: fast, seedable, good enough for bytes nobody interprets.
struct Rng {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

Status WriteAll(int fd, const void* data, size_t len, const fs::path& path) {
  const char* p = static_cast<const char*>(data);
  while (len > 0) {
    ssize_t n = ::write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, path.string() + ": write");
    }
    p += n;
    len -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status WriteText(const fs::path& path, std::string_view text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, path.string());
  Status st = WriteAll(fd, text.data(), text.size(), path);
  ::close(fd);
  return st;
}

std::string ShardFile(const CheckpointSpec& spec, size_t i) { return spec.shards[i].file; }

}  // namespace

uint64_t TensorBytes(std::string_view dtype, const std::vector<uint64_t>& shape) {
  uint64_t n = SafetensorsDtypeBits(dtype);
  for (uint64_t d : shape) n *= d;
  return n / 8;
}

ShardSpec LayOut(std::string file, const std::vector<TensorSpec>& tensors) {
  ShardSpec s;
  s.file = std::move(file);
  uint64_t off = 0;
  for (const auto& t : tensors) {
    uint64_t b = TensorBytes(t.dtype, t.shape);
    s.tensors.push_back(RawTensor{t.name, t.dtype, t.shape, off, off + b});
    off += b;
  }
  s.data_len = off;
  return s;
}

std::string ShardName(size_t i, size_t n) {
  if (n == 1) return "model.safetensors";
  return fmt::format("model-{:05d}-of-{:05d}.safetensors", i + 1, n);
}

std::vector<ShardSpec> SplitIntoShards(const std::vector<TensorSpec>& tensors, size_t n) {
  if (n == 0) n = 1;
  uint64_t total = 0;
  for (const auto& t : tensors) total += TensorBytes(t.dtype, t.shape);
  std::vector<std::vector<TensorSpec>> groups(n);
  uint64_t before = 0;
  size_t g = 0;
  const size_t count = tensors.size();
  for (size_t k = 0; k < count; ++k) {
    const auto& t = tensors[k];
    size_t by_bytes =
        total ? static_cast<size_t>(std::min<uint64_t>(n - 1, before * n / total)) : 0;
    // Never skip a shard (no empty ones in the middle), and leave a tensor for each shard after.
    size_t want = std::min(by_bytes, g + 1);
    if (count >= n && count - k < n) want = std::max(want, n - (count - k));
    g = std::min(std::max(g, want), n - 1);
    groups[g].push_back(t);
    before += TensorBytes(t.dtype, t.shape);
  }
  std::vector<ShardSpec> shards;
  for (size_t i = 0; i < n; ++i) shards.push_back(LayOut(ShardName(i, n), groups[i]));
  return shards;
}

std::string HeaderJson(const std::vector<RawTensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  // Built by hand rather than through ordered_json, whose key lookup is linear: a 1,000-tensor
  // shard would cost a million string compares.
  auto quote = [](const std::string& v) { return nlohmann::json(v).dump(); };
  std::string s = "{";
  if (!metadata.empty()) {
    s += "\"__metadata__\":{";
    bool first = true;
    for (const auto& [k, v] : metadata) {
      s += fmt::format("{}{}:{}", first ? "" : ",", quote(k), quote(v));
      first = false;
    }
    s += "}";
  }
  for (const auto& t : tensors) {
    if (s.size() > 1) s += ",";
    s += fmt::format("{}:{{\"dtype\":{},\"shape\":[{}],\"data_offsets\":[{},{}]}}", quote(t.name),
                     quote(t.dtype), fmt::join(t.shape, ","), t.begin, t.end);
  }
  s += "}";
  // Pad so the data region starts 8-byte aligned, as the safetensors writer does.
  while ((s.size() + 8) % 8 != 0) s.push_back(' ');
  return s;
}

Status WriteSafetensorsFile(const fs::path& path, std::string_view header_json, uint64_t data_len,
                            Fill fill, uint64_t seed) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, path.string());
  unsigned char prefix[8];
  uint64_t n = header_json.size();
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<unsigned char>(n >> (8 * i));
  Status st = WriteAll(fd, prefix, 8, path);
  if (st.ok()) st = WriteAll(fd, header_json.data(), header_json.size(), path);
  if (st.ok()) {
    if (fill == Fill::kSparse) {
      // A hole: the apparent size is right, no blocks are used.
      if (::ftruncate(fd, static_cast<off_t>(8 + n + data_len)) != 0) {
        st = Status::FromErrno(errno, path.string() + ": ftruncate");
      }
    } else {
      Rng rng{seed * 0x2545f4914f6cdd1dULL + 1};
      std::vector<uint64_t> buf(1 << 17);  // 1 MiB
      uint64_t left = data_len;
      while (st.ok() && left > 0) {
        for (auto& w : buf) w = rng.Next();
        size_t chunk = static_cast<size_t>(std::min<uint64_t>(left, buf.size() * 8));
        st = WriteAll(fd, buf.data(), chunk, path);
        left -= chunk;
      }
    }
  }
  ::close(fd);
  return st;
}

Status WriteCheckpoint(const fs::path& dir, const CheckpointSpec& spec) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::FromErrno(ec.value(), dir.string());
  std::map<std::string, std::string> weight_map;
  uint64_t total = 0;
  for (size_t i = 0; i < spec.shards.size(); ++i) {
    const ShardSpec& s = spec.shards[i];
    fs::path path = dir / s.file;
    fs::create_directories(path.parent_path(), ec);
    Status st = WriteSafetensorsFile(path, HeaderJson(s.tensors, {{"format", "pt"}}), s.data_len,
                                     spec.fill, spec.seed + i);
    if (!st.ok()) return st;
    for (const auto& t : s.tensors) {
      if (weight_map.emplace(t.name, s.file).second)
        total += t.end >= t.begin ? t.end - t.begin : 0;
    }
  }
  if (spec.write_index) {
    for (const auto& [k, v] : spec.extra_index_entries) weight_map[k] = v;
    nlohmann::json idx;  // sorted keys; ordered_json would be quadratic here
    idx["metadata"] = {{"total_size", total}};
    idx["weight_map"] = weight_map;
    Status st = WriteText(dir / "model.safetensors.index.json", idx.dump(2) + "\n");
    if (!st.ok()) return st;
  }
  if (!spec.config_json.empty()) {
    Status st = WriteText(dir / "config.json", spec.config_json);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

std::vector<TensorSpec> DenseTensors(const DenseOptions& o) {
  const std::string& dt = o.dtype;
  std::vector<TensorSpec> t;
  t.push_back({"model.embed_tokens.weight", dt, {o.vocab, o.hidden}});
  for (int l = 0; l < o.layers; ++l) {
    std::string p = fmt::format("model.layers.{}.", l);
    t.push_back({p + "input_layernorm.weight", dt, {o.hidden}});
    for (const char* proj : {"q_proj", "k_proj", "v_proj", "o_proj"}) {
      t.push_back({p + "self_attn." + proj + ".weight", dt, {o.hidden, o.hidden}});
    }
    t.push_back({p + "mlp.gate_proj.weight", dt, {o.intermediate, o.hidden}});
    t.push_back({p + "mlp.up_proj.weight", dt, {o.intermediate, o.hidden}});
    t.push_back({p + "mlp.down_proj.weight", dt, {o.hidden, o.intermediate}});
    t.push_back({p + "post_attention_layernorm.weight", dt, {o.hidden}});
  }
  t.push_back({"model.norm.weight", dt, {o.hidden}});
  t.push_back({"lm_head.weight", dt, {o.vocab, o.hidden}});
  return t;
}

namespace {
std::string TorchDtype(const std::string& dt) {
  if (dt == "BF16") return "bfloat16";
  if (dt == "F16") return "float16";
  if (dt == "F32") return "float32";
  return dt;
}
}  // namespace

CheckpointSpec DenseSpec(const DenseOptions& o) {
  CheckpointSpec spec;
  spec.shards = SplitIntoShards(DenseTensors(o), o.shards);
  spec.write_index = o.shards > 1;
  ordered_json c;
  c["architectures"] = {"LlamaForCausalLM"};
  c["model_type"] = "llama";
  c["num_hidden_layers"] = o.layers;
  c["hidden_size"] = o.hidden;
  c["intermediate_size"] = o.intermediate;
  c["vocab_size"] = o.vocab;
  c["torch_dtype"] = TorchDtype(o.dtype);
  spec.config_json = c.dump(2) + "\n";
  spec.fill = Fill::kRandom;
  spec.seed = o.seed;
  return spec;
}

std::vector<TensorSpec> SparseTensors(const SparseOptions& o) {
  const std::string dt = "BF16";
  std::vector<TensorSpec> t;
  t.reserve(static_cast<size_t>(o.layers) * (3 * o.experts + 7) + 3);
  t.push_back({"model.embed_tokens.weight", dt, {o.vocab, o.hidden}});
  for (int l = 0; l < o.layers; ++l) {
    std::string p = fmt::format("model.layers.{}.", l);
    t.push_back({p + "input_layernorm.weight", dt, {o.hidden}});
    t.push_back({p + "self_attn.q_proj.weight", dt, {o.hidden, o.hidden}});
    t.push_back({p + "self_attn.k_proj.weight", dt, {o.kv_dim, o.hidden}});
    t.push_back({p + "self_attn.v_proj.weight", dt, {o.kv_dim, o.hidden}});
    t.push_back({p + "self_attn.o_proj.weight", dt, {o.hidden, o.hidden}});
    t.push_back({p + "mlp.gate.weight", dt, {o.experts, o.hidden}});
    for (uint64_t e = 0; e < o.experts; ++e) {
      std::string ep = fmt::format("{}mlp.experts.{}.", p, e);
      t.push_back({ep + "gate_proj.weight", dt, {o.moe_intermediate, o.hidden}});
      t.push_back({ep + "up_proj.weight", dt, {o.moe_intermediate, o.hidden}});
      t.push_back({ep + "down_proj.weight", dt, {o.hidden, o.moe_intermediate}});
    }
    t.push_back({p + "post_attention_layernorm.weight", dt, {o.hidden}});
  }
  t.push_back({"model.norm.weight", dt, {o.hidden}});
  t.push_back({"lm_head.weight", dt, {o.vocab, o.hidden}});
  return t;
}

CheckpointSpec SparseSpec(const SparseOptions& o) {
  CheckpointSpec spec;
  spec.shards = SplitIntoShards(SparseTensors(o), o.shards);
  spec.write_index = true;
  ordered_json c;
  c["architectures"] = {"Qwen3MoeForCausalLM"};
  c["model_type"] = "qwen3_moe";
  c["num_hidden_layers"] = o.layers;
  c["num_experts"] = o.experts;
  c["num_experts_per_tok"] = o.experts_per_token;
  c["hidden_size"] = o.hidden;
  c["moe_intermediate_size"] = o.moe_intermediate;
  c["vocab_size"] = o.vocab;
  c["torch_dtype"] = "bfloat16";
  spec.config_json = c.dump(2) + "\n";
  spec.fill = Fill::kSparse;
  return spec;
}

std::vector<Damage> AllDamages() {
  return {Damage::kTruncated,
          Damage::kMissingShard,
          Damage::kHeaderTooLong,
          Damage::kHeaderNotJson,
          Damage::kOverlap,
          Damage::kShapeMismatch,
          Damage::kGap,
          Damage::kIndexOutside,
          Damage::kIndexUnknownTensor,
          Damage::kLfsPointer,
          Damage::kEmptyFile,
          Damage::kUnknownDtype,
          Damage::kDuplicateTensor,
          Damage::kOutOfBounds};
}

std::string_view DamageName(Damage d) {
  switch (d) {
    case Damage::kTruncated:
      return "truncated";
    case Damage::kMissingShard:
      return "missing-shard";
    case Damage::kHeaderTooLong:
      return "header-too-long";
    case Damage::kHeaderNotJson:
      return "header-not-json";
    case Damage::kOverlap:
      return "overlap";
    case Damage::kShapeMismatch:
      return "shape-mismatch";
    case Damage::kGap:
      return "gap";
    case Damage::kIndexOutside:
      return "index-outside";
    case Damage::kIndexUnknownTensor:
      return "index-unknown-tensor";
    case Damage::kLfsPointer:
      return "lfs-pointer";
    case Damage::kEmptyFile:
      return "empty-file";
    case Damage::kUnknownDtype:
      return "unknown-dtype";
    case Damage::kDuplicateTensor:
      return "duplicate-tensor";
    case Damage::kOutOfBounds:
      return "out-of-bounds";
  }
  return "?";
}

std::optional<Damage> DamageFromName(std::string_view name) {
  for (Damage d : AllDamages()) {
    if (DamageName(d) == name) return d;
  }
  return std::nullopt;
}

namespace {

// The damage that is a wrong header or index: made in the spec, before anything is written.
// `info` starts as an unnamed kind in the second shard.
void DamageSpec(Damage damage, CheckpointSpec& spec, DamageInfo& info) {
  ShardSpec& s2 = spec.shards[1];
  switch (damage) {
    case Damage::kOverlap: {
      RawTensor& last = s2.tensors.back();
      last.begin -= 16;
      last.end -= 16;
      s2.data_len -= 16;
      info.kind = "overlap";
      break;
    }
    case Damage::kGap: {
      RawTensor& last = s2.tensors.back();
      last.begin += 64;
      last.end += 64;
      s2.data_len += 64;
      info.kind = "gap";
      break;
    }
    case Damage::kShapeMismatch:
      s2.tensors.front().shape[0] += 1;
      info.kind = "shape_mismatch";
      break;
    case Damage::kUnknownDtype:
      s2.tensors.front().dtype = "F7";
      info.kind = "unknown_dtype";
      break;
    case Damage::kOutOfBounds:
      std::swap(s2.tensors.front().begin, s2.tensors.front().end);
      info.kind = "out_of_bounds";
      break;
    case Damage::kDuplicateTensor: {
      ShardSpec& s3 = spec.shards[2];
      const RawTensor& dup = spec.shards[0].tensors.front();
      uint64_t b = dup.end - dup.begin;
      s3.tensors.push_back(RawTensor{dup.name, dup.dtype, dup.shape, s3.data_len, s3.data_len + b});
      s3.data_len += b;
      info = {"duplicate_tensor", ShardFile(spec, 2)};
      break;
    }
    case Damage::kIndexOutside:
      spec.extra_index_entries["extra.weight"] = "../outside.safetensors";
      info = {"path_outside_model", "../outside.safetensors"};
      break;
    case Damage::kIndexUnknownTensor:
      spec.extra_index_entries["ghost.weight"] = ShardFile(spec, 0);
      info = {"index_mismatch", "model.safetensors.index.json"};
      break;
    default:
      break;
  }
}

// Overwrites the header of the shard at `path` (of `size` bytes) in place: a length prefix past
// the file's end, or (`too_long` false) JSON replaced by text of the same length.
Status PatchHeader(const fs::path& path, bool too_long, uint64_t size) {
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path.string());
  unsigned char prefix[8];
  if (::pread(fd, prefix, 8, 0) != 8) {
    ::close(fd);
    return Status::Io(path.string() + ": short read");
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | prefix[i];
  std::string patch;
  off_t at = 0;
  if (too_long) {
    uint64_t bogus = size + 1000;
    for (int i = 0; i < 8; ++i) patch.push_back(static_cast<char>(bogus >> (8 * i)));
  } else {
    patch = "this header is not JSON";
    patch.resize(n, ' ');
    at = 8;
  }
  bool ok = ::pwrite(fd, patch.data(), patch.size(), at) == static_cast<ssize_t>(patch.size());
  ::close(fd);
  if (!ok) return Status::Io(path.string() + ": short write");
  return Status::Ok();
}

// The damage done to the written files: the second shard cut, emptied, replaced or patched; the
// third removed.
Status DamageFiles(const fs::path& dir, Damage damage, const CheckpointSpec& spec,
                   DamageInfo& info) {
  fs::path p2 = dir / ShardFile(spec, 1);
  std::error_code ec;
  uint64_t size2 = fs::file_size(p2, ec);
  switch (damage) {
    case Damage::kTruncated:
      if (::truncate(p2.c_str(), static_cast<off_t>(size2 - 10)) != 0) {
        return Status::FromErrno(errno, p2.string());
      }
      info.kind = "truncated";
      break;
    case Damage::kEmptyFile:
      if (::truncate(p2.c_str(), 0) != 0) return Status::FromErrno(errno, p2.string());
      info.kind = "empty_file";
      break;
    case Damage::kMissingShard:
      fs::remove(dir / ShardFile(spec, 2), ec);
      info = {"missing_shard", ShardFile(spec, 2)};
      break;
    case Damage::kLfsPointer: {
      Status st = WriteText(p2, fmt::format("version https://git-lfs.github.com/spec/v1\noid "
                                            "sha256:{}\nsize {}\n",
                                            std::string(64, 'a'), size2));
      if (!st.ok()) return st;
      info.kind = "lfs_pointer";
      break;
    }
    case Damage::kHeaderTooLong:
    case Damage::kHeaderNotJson: {
      Status st = PatchHeader(p2, damage == Damage::kHeaderTooLong, size2);
      if (!st.ok()) return st;
      info.kind = "header_invalid";
      break;
    }
    default:
      break;
  }
  return Status::Ok();
}

}  // namespace

Result<DamageInfo> WriteDamaged(const fs::path& dir, Damage damage, uint64_t seed) {
  DenseOptions o;
  o.shards = 3;
  o.seed = seed;
  CheckpointSpec spec = DenseSpec(o);
  if (spec.shards[1].tensors.size() < 2) {
    return Status::Internal("damage base needs two tensors in shard 2");
  }
  DamageInfo info{"", ShardFile(spec, 1)};
  DamageSpec(damage, spec, info);
  Status st = WriteCheckpoint(dir, spec);
  if (!st.ok()) return st;
  st = DamageFiles(dir, damage, spec, info);
  if (!st.ok()) return st;
  return info;
}

Result<fs::path> WriteHfCache(const fs::path& cache_dir, std::string_view repo_id,
                              const CheckpointSpec& spec, bool corrupt) {
  std::string folder = "models--" + std::string(repo_id);
  for (size_t pos; (pos = folder.find('/')) != std::string::npos;) folder.replace(pos, 1, "--");
  fs::path repo = cache_dir / folder;
  fs::path staging = repo / "staging";
  Status st = WriteCheckpoint(staging, spec);
  if (!st.ok()) return st;
  std::error_code ec;
  fs::create_directories(repo / "blobs", ec);
  fs::create_directories(repo / "refs", ec);
  std::string commit = fmt::format("{:040x}", spec.seed * 0x9e3779b97f4a7c15ULL);
  fs::path snap = repo / "snapshots" / commit;
  fs::create_directories(snap, ec);
  if (ec) return Status::FromErrno(ec.value(), snap.string());
  std::vector<unsigned char> buf;
  std::optional<fs::path> first_shard_blob;
  std::vector<fs::path> files;
  for (auto it = fs::directory_iterator(staging, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto file = ReadOnlyFile::Open(f);
    if (!file.ok()) return file.status();
    auto digest = Sha256Fd(file->fd(), buf);
    if (!digest.ok()) return digest.status();
    fs::path blob = repo / "blobs" / *digest;
    fs::rename(f, blob, ec);
    if (ec) return Status::FromErrno(ec.value(), blob.string());
    fs::create_symlink(fs::path("../../blobs") / *digest, snap / f.filename(), ec);
    if (ec) return Status::FromErrno(ec.value(), (snap / f.filename()).string());
    if (!first_shard_blob && !spec.shards.empty() && f.filename() == spec.shards[0].file) {
      first_shard_blob = blob;
    }
  }
  fs::remove_all(staging, ec);
  st = WriteText(repo / "refs" / "main", commit);
  if (!st.ok()) return st;
  if (corrupt && first_shard_blob) {
    // Flip the last byte: the blob's name no longer matches its content.
    int fd = ::open(first_shard_blob->c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return Status::FromErrno(errno, first_shard_blob->string());
    off_t size = ::lseek(fd, 0, SEEK_END);
    unsigned char b = 0;
    bool ok = size > 0 && ::pread(fd, &b, 1, size - 1) == 1;
    b ^= 0xff;
    ok = ok && ::pwrite(fd, &b, 1, size - 1) == 1;
    ::close(fd);
    if (!ok) return Status::Io(first_shard_blob->string() + ": cannot corrupt");
  }
  return repo;
}

}  // namespace spinup::gen
