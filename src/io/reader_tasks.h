// What `spinup bench`, `spinup warm` and `spinup evict` do, as library calls returning plain
// structs (the commands only parse flags and render). Paths come from ListCheckpointFiles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinup/checkpoint_files.h"
#include "spinup/page_cache.h"
#include "spinup/reader.h"
#include "spinup/status.h"

namespace spinup {

std::vector<std::string> Paths(const std::vector<CheckpointFile>& files);

struct BenchResult {
  ReadReport read;
  bool cold = false;
  double resident_fraction_before = 0;  // after the --cold eviction, when asked for
};

// Reads every byte of the files (sink mode) with `options`; cold: evict them first.
Result<BenchResult> BenchRead(const std::vector<CheckpointFile>& files,
                              const ReaderOptions& options, bool cold,
                              ReadControl* control = nullptr);

struct WarmResult {
  uint64_t bytes = 0;                   // the checkpoint's size
  uint64_t already_resident_bytes = 0;  // in the page cache before (skipped)
  uint64_t read_bytes = 0;              // what was read (non-resident pages, merged)
  double seconds = 0;                   // residency scan + reads
  double bytes_per_s = 0;               // read_bytes / seconds
  double resident_fraction = 0;         // measured after the warm (RAM may not hold it all)
  ReadReport read;
};

// Brings the files into the page cache: buffered reads of the parts mincore says are missing.
// options.direct is ignored (a warm must go through the cache).
Result<WarmResult> WarmFiles(const std::vector<CheckpointFile>& files, const ReaderOptions& options,
                             ReadControl* control = nullptr);

// What `spinup inspect --measure-read` reads at most.
inline constexpr uint64_t kMeasureReadSampleBytes = 1ull << 30;

struct MeasuredRead {
  double bytes_per_s = 0;
  uint64_t sample_bytes = 0;
  ReadReport read;
};

// Reads a bounded sample (at most sample_bytes, in pieces spread evenly over all the files, so
// every region of the disk is represented) cold: the sample's pages are dropped from the page
// cache first and read with O_DIRECT where allowed. Memory stays bounded as for any read.
Result<MeasuredRead> MeasureReadRate(const std::vector<CheckpointFile>& files,
                                     uint64_t sample_bytes, const ReaderOptions& options);

struct EvictResult {
  Residency before;
  Residency after;
};

Result<EvictResult> EvictAndMeasure(const std::vector<CheckpointFile>& files);

}  // namespace spinup
