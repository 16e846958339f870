// A checkpoint's fingerprint from the checkpoint loader's tensor table (headers only, no tensor
// data): shard file bytes, shard count, and an XXH3-64 over each shard's file name, size, header
// length, metadata and tensors (name, dtype, shape, offsets) in shard order. A re-downloaded but
// identical checkpoint keeps its fingerprint; a new revision, quantization or re-shard changes it.
#pragma once

#include "history/record.h"
#include "spinup/checkpoint.h"

namespace spinup {

CheckpointFingerprint FingerprintCheckpoint(const Checkpoint& checkpoint);

}  // namespace spinup
