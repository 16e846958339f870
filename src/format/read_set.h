// Which files `warm`, `bench` and `evict` read: the same checkpoint `inspect` sees (a model
// folder, one .safetensors file, or a Hugging Face cache folder models--org--name via refs/main),
// following the index, so a stale or extra *.safetensors beside the model is not read. Folders
// without safetensors (GGUF, PyTorch .bin) fall back to the listing in checkpoint_files.h.
#pragma once

#include <string>
#include <vector>

#include "spinup/checkpoint_files.h"
#include "spinup/status.h"

namespace spinup {

struct CheckpointReadSet {
  std::vector<CheckpointFile> files;  // present shards, in the index's (or name) order
  std::vector<std::string> missing;   // shards the index names that are not there
  std::string root;                   // the folder read (the snapshot, for an HF cache folder)
};

Result<CheckpointReadSet> ResolveCheckpointReadSet(const std::string& path);

}  // namespace spinup
