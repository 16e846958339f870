#include "io/reader_tasks.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

namespace spinup {

std::vector<std::string> Paths(const std::vector<CheckpointFile>& files) {
  std::vector<std::string> out;
  out.reserve(files.size());
  for (const auto& f : files) out.push_back(f.path);
  return out;
}

Result<BenchResult> BenchRead(const std::vector<CheckpointFile>& files,
                              const ReaderOptions& options, bool cold, ReadControl* control) {
  BenchResult out;
  out.cold = cold;
  const auto paths = Paths(files);
  if (cold) {
    if (Status s = EvictFiles(paths); !s.ok()) return s;
    auto residency = MeasureResidency(paths);
    if (!residency.ok()) return residency.status();
    out.resident_fraction_before = residency->fraction();
  }
  auto plan = PlanWholeFiles(paths);
  if (!plan.ok()) return plan.status();
  auto read = ReadToSink(*plan, options, control);
  if (!read.ok()) return read.status();
  out.read = std::move(*read);
  return out;
}

Result<WarmResult> WarmFiles(const std::vector<CheckpointFile>& files, const ReaderOptions& options,
                             ReadControl* control) {
  const auto t0 = std::chrono::steady_clock::now();
  WarmResult out;
  ReadPlan plan;
  // Resident islands shorter than this inside a missing stretch are read again: one large read
  // costs less than many small ones.
  constexpr uint64_t kMergeGap = 1 << 20;
  for (const auto& f : files) {
    auto missing = NonResidentRanges(f.path, kMergeGap);
    if (!missing.ok()) return missing.status();
    const auto index = static_cast<uint32_t>(plan.files.size());
    plan.files.push_back({f.path, f.size});
    out.bytes += f.size;
    uint64_t missing_bytes = 0;
    for (const auto& r : *missing) {
      ReadRange range;
      range.file = index;
      range.offset = r.offset;
      range.length = r.length;
      range.tag = index;
      plan.ranges.push_back(range);
      missing_bytes += r.length;
    }
    out.already_resident_bytes += f.size > missing_bytes ? f.size - missing_bytes : 0;
  }
  ReaderOptions opt = options;
  opt.direct = false;
  // Filling the cache needs no copy to user space: populate unless the caller chose a backend.
  if (opt.backend == ReadBackend::kAuto) opt.backend = ReadBackend::kPopulate;
  auto read = ReadToSink(plan, opt, control);
  if (!read.ok()) return read.status();
  out.read = std::move(*read);
  out.read_bytes = out.read.bytes;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.bytes_per_s = out.seconds > 0 ? double(out.read_bytes) / out.seconds : 0;
  if (out.read_bytes == 0) {  // nothing read: residency is what the scan just saw
    out.resident_fraction = out.bytes == 0 ? 1.0 : double(out.already_resident_bytes) / out.bytes;
    return out;
  }
  auto after = MeasureResidency(Paths(files));
  if (!after.ok()) return after.status();
  out.resident_fraction = after->fraction();
  return out;
}

Result<MeasuredRead> MeasureReadRate(const std::vector<CheckpointFile>& files,
                                     uint64_t sample_bytes, const ReaderOptions& options) {
  uint64_t total = 0;
  for (const auto& f : files) total += f.size;
  // Pieces of 32 MiB (or the whole checkpoint when smaller), spaced evenly.
  constexpr uint64_t kPiece = 32ull << 20;
  sample_bytes = std::max<uint64_t>(sample_bytes, kPiece);
  std::vector<FileRange> ranges;
  if (total <= sample_bytes) {
    for (const auto& f : files) {
      if (f.size > 0) ranges.push_back({f.path, 0, f.size, 0});
    }
  } else {
    const uint64_t pieces = sample_bytes / kPiece;
    const uint64_t stride = total / pieces;
    size_t fi = 0;
    uint64_t file_start = 0;  // global offset of files[fi]
    for (uint64_t p = 0; p < pieces; ++p) {
      const uint64_t global = p * stride;
      while (fi < files.size() && global >= file_start + files[fi].size) {
        file_start += files[fi].size;
        ++fi;
      }
      if (fi == files.size()) break;
      const uint64_t off = global - file_start;
      const uint64_t len = std::min(kPiece, files[fi].size - off);
      ranges.push_back({files[fi].path, off, len, p});
    }
  }
  auto plan = PlanFromRanges(ranges);
  if (!plan.ok()) return plan.status();
  for (const auto& r : plan->ranges) {
    // Drop just the sample's pages, so the read is cold without emptying the whole cache.
    int fd = ::open(plan->files[r.file].path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return Status::FromErrno(errno, plan->files[r.file].path);
    ::posix_fadvise(fd, static_cast<off_t>(r.offset), static_cast<off_t>(r.length),
                    POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  ReaderOptions opt = options;
  opt.direct = true;
  auto read = ReadToSink(*plan, opt);
  if (!read.ok()) return read.status();
  MeasuredRead out;
  out.sample_bytes = read->bytes;
  out.bytes_per_s = read->seconds > 0 ? double(read->bytes) / read->seconds : 0;
  out.read = std::move(*read);
  return out;
}

Result<EvictResult> EvictAndMeasure(const std::vector<CheckpointFile>& files) {
  const auto paths = Paths(files);
  EvictResult out;
  auto before = MeasureResidency(paths);
  if (!before.ok()) return before.status();
  out.before = std::move(*before);
  if (Status s = EvictFiles(paths); !s.ok()) return s;
  auto after = MeasureResidency(paths);
  if (!after.ok()) return after.status();
  out.after = std::move(*after);
  return out;
}

}  // namespace spinup
