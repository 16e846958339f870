// Page-cache residency and eviction of files, without root: residency with mincore over a
// read-only shared mapping (windowed, so huge files never need one huge mapping), eviction with
// posix_fadvise(POSIX_FADV_DONTNEED). `spinup warm`, `spinup evict` and the live watcher (loading
// progress of mmap loaders) use these.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct FileResidency {
  std::string path;
  uint64_t size = 0;
  uint64_t resident_bytes = 0;  // pages in the page cache, the last one clipped to the file size
  double fraction() const { return size == 0 ? 1.0 : double(resident_bytes) / double(size); }
};

struct Residency {
  std::vector<FileResidency> files;
  uint64_t total_bytes = 0;
  uint64_t resident_bytes = 0;
  double fraction() const {
    return total_bytes == 0 ? 1.0 : double(resident_bytes) / double(total_bytes);
  }
};

// A half-open byte range [offset, offset + length) of one file.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

Result<FileResidency> MeasureFileResidency(const std::string& path);
// Per file and in total; fails on the first file that cannot be opened or mapped.
Result<Residency> MeasureResidency(const std::vector<std::string>& paths);

// The parts of a file not in the page cache, as page-aligned ranges clipped to the file size,
// merged when they are closer than `merge_gap` bytes (so a warm reads few large ranges).
Result<std::vector<ByteRange>> NonResidentRanges(const std::string& path, uint64_t merge_gap = 0);

// Asks the kernel to drop the file's clean pages from the page cache. Dirty pages (not yet
// written back) stay; the kernel may also ignore the advice (e.g. on tmpfs).
Status EvictFile(const std::string& path);
Status EvictFiles(const std::vector<std::string>& paths);

}  // namespace spinup
