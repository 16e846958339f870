#include "history/fingerprint.h"

#include <xxhash.h>

#include <fmt/format.h>
#include <algorithm>
#include <string_view>

namespace spinup {

namespace {

class Hasher {
 public:
  Hasher() : state_(XXH3_createState()) { XXH3_64bits_reset(state_); }
  ~Hasher() { XXH3_freeState(state_); }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  // Length-prefixed, so ("ab","c") and ("a","bc") differ.
  void Add(std::string_view s) {
    Add(static_cast<uint64_t>(s.size()));
    XXH3_64bits_update(state_, s.data(), s.size());
  }
  void Add(uint64_t v) { XXH3_64bits_update(state_, &v, sizeof(v)); }
  uint64_t Digest() const { return XXH3_64bits_digest(state_); }

 private:
  XXH3_state_t* state_;
};

}  // namespace

CheckpointFingerprint FingerprintCheckpoint(const Checkpoint& c) {
  CheckpointFingerprint f;
  f.bytes = c.file_bytes();
  f.shards = static_cast<int>(c.shards.size());
  std::vector<const ShardInfo*> shards;
  for (const auto& s : c.shards) shards.push_back(&s);
  std::sort(shards.begin(), shards.end(),
            [](const ShardInfo* a, const ShardInfo* b) { return a->file < b->file; });
  Hasher h;
  for (const ShardInfo* s : shards) {
    h.Add(s->file);
    h.Add(s->file_size);
    h.Add(s->header_len);
    h.Add(static_cast<uint64_t>(s->parsed));
    for (const auto& [k, v] : s->metadata) {
      h.Add(k);
      h.Add(v);
    }
    for (const auto& t : s->tensors) {
      h.Add(t.name);
      h.Add(t.dtype);
      h.Add(static_cast<uint64_t>(t.shape.size()));
      for (uint64_t d : t.shape) h.Add(d);
      h.Add(t.data_begin);
      h.Add(t.data_end);
    }
  }
  f.header_hash = fmt::format("{:016x}", h.Digest());
  return f;
}

}  // namespace spinup
