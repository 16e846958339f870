// Read plans: which bytes of which files to read, and where each range goes.
//
// A plan is the unit every reader backend consumes (include/spinup/reader.h). Ranges are the
// caller's units (a tensor, a whole shard); backends split them into blocks internally and report
// each range once, when all of its bytes have landed. Builders here do I/O only to stat files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct Checkpoint;  // spinup/checkpoint.h

struct PlanFile {
  std::string path;
  uint64_t size = 0;  // at the time the plan was built; a file that shrinks later is an error
};

struct ReadRange {
  uint32_t file = 0;          // index into ReadPlan::files
  uint64_t offset = 0;        // byte offset in the file
  uint64_t length = 0;        // may be 0 (an empty tensor): reported done without any I/O
  std::byte* dest = nullptr;  // where the bytes go; when null, dest_offset into ReadInto's buffer
  uint64_t dest_offset = 0;
  uint64_t tag = 0;  // the caller's own id (e.g. a tensor index), handed back on completion
};

struct ReadPlan {
  std::vector<PlanFile> files;
  std::vector<ReadRange> ranges;

  uint64_t TotalBytes() const;
  // Bytes a caller-owned buffer needs for the ranges that use dest_offset.
  uint64_t DestBytes() const;
};

// One explicit range request, for PlanFromRanges.
struct FileRange {
  std::string path;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t tag = 0;
};

// Every byte of each file, laid out back to back in the destination buffer (dest_offset), one
// range per file tagged with its index. Fails naming the file when it is missing or not regular.
Result<ReadPlan> PlanWholeFiles(const std::vector<std::string>& paths);

// The given ranges, packed back to back in the destination buffer in the order given. Ranges must
// lie inside their file as it is now (an error names the file and the range otherwise).
Result<ReadPlan> PlanFromRanges(const std::vector<FileRange>& ranges);

// Every tensor of every shard, in file order, packed back to back in the destination buffer;
// tags number the tensors 0.. in that order (shard by shard, by file offset). Fails naming the
// shard when one is missing or its header could not be parsed.
Result<ReadPlan> PlanFromCheckpoint(const Checkpoint& checkpoint);

// The same plan with every range split into pieces of at most block_bytes (block_bytes > 0),
// keeping tags and destinations. Backends do this themselves; it is exposed for callers that want
// to hand pieces to their own workers.
ReadPlan ChunkPlan(const ReadPlan& plan, uint64_t block_bytes);

// Splits range indices of `plan` into `workers` groups with near-equal byte totals (greedy,
// largest first: the heaviest group is at most the ideal share plus one range). Groups keep file
// order within themselves so each worker reads mostly sequentially.
std::vector<std::vector<size_t>> BalanceByBytes(const ReadPlan& plan, int workers);

}  // namespace spinup
