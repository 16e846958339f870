// Which files of a model directory are the checkpoint (the weights a server reads at start).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct CheckpointFile {
  std::string path;
  uint64_t size = 0;
};

// PATH may be one weight file or a model directory. In a directory the checkpoint is its
// *.safetensors shards when there are any (servers then ignore other formats); otherwise its
// *.gguf files; otherwise *.bin / *.pt / *.pth (except training_args.bin). Sorted by name, not
// recursive. Every file must be a regular file (symlinks followed, as in Hugging Face caches).
// Errors, each naming the path: missing, permission denied, not a regular file (FIFO, device),
// directory with no shards.
Result<std::vector<CheckpointFile>> ListCheckpointFiles(const std::string& path);

// Checks one path is a regular, readable file (stat before any open, so a FIFO never blocks).
Result<CheckpointFile> StatRegularFile(const std::string& path);

}  // namespace spinup
