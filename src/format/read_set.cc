#include "format/read_set.h"

#include "spinup/checkpoint.h"

namespace spinup {

Result<CheckpointReadSet> ResolveCheckpointReadSet(const std::string& path) {
  auto ck = LoadCheckpoint(path);
  CheckpointReadSet set;
  if (!ck.ok() || ck->shards.empty()) {
    // Not a safetensors checkpoint (or not one LoadCheckpoint understands): the plain listing
    // gives GGUF and .bin folders, and the same error text for a missing path.
    // The reader's listing words path problems the way the reader commands always have (a
    // FIFO, a device, permission denied, no shards).
    auto listed = ListCheckpointFiles(path);
    if (!listed.ok()) return listed.status();
    set.files = std::move(*listed);
    set.root = path;
    return set;
  }
  set.root = ck->root.string();
  for (const auto& shard : ck->shards) {
    // The reader opens the path as given; a cache snapshot's links resolve to blobs/. A shard
    // that is not there is a note; one that is there but unreadable (a FIFO, a device, no
    // permission) is an error, as it always was.
    auto f = StatRegularFile(shard.path.string());
    if (f.ok()) {
      set.files.push_back(std::move(*f));
    } else if (f.status().kind() == ErrorKind::kNotFound) {
      set.missing.push_back(shard.file);
    } else {
      return f.status();
    }
  }
  if (set.files.empty()) {
    return Status::NotFound(path + ": none of the " + std::to_string(set.missing.size()) +
                            " shards the index names is present");
  }
  return set;
}

}  // namespace spinup
