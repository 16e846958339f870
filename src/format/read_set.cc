#include "format/read_set.h"

#include "spinup/checkpoint.h"

namespace spinup {

Result<CheckpointReadSet> ResolveCheckpointReadSet(const std::string& path) {
  auto ck = LoadCheckpoint(path);
  CheckpointReadSet set;
  if (!ck.ok() || ck->shards.empty()) {
    // Not a safetensors checkpoint (or not one LoadCheckpoint understands): the plain listing
    // gives GGUF and .bin folders, and the same error text for a missing path.
    auto listed = ListCheckpointFiles(path);
    if (!listed.ok()) return ck.ok() ? listed.status() : ck.status();
    set.files = std::move(*listed);
    set.root = path;
    return set;
  }
  set.root = ck->root.string();
  for (const auto& shard : ck->shards) {
    if (!shard.present) {
      set.missing.push_back(shard.file);
      continue;
    }
    // The reader opens the path as given; a cache snapshot's links resolve to blobs/.
    auto f = StatRegularFile(shard.path.string());
    if (!f.ok()) return f.status();
    set.files.push_back(std::move(*f));
  }
  if (set.files.empty()) {
    return Status::NotFound(path + ": none of the " + std::to_string(set.missing.size()) +
                            " shards the index names is present");
  }
  return set;
}

}  // namespace spinup
