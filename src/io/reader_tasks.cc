#include "io/reader_tasks.h"

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
  auto read = ReadToSink(plan, opt, control);
  if (!read.ok()) return read.status();
  out.read = std::move(*read);
  out.read_bytes = out.read.bytes;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.bytes_per_s = out.seconds > 0 ? double(out.read_bytes) / out.seconds : 0;
  auto after = MeasureResidency(Paths(files));
  if (!after.ok()) return after.status();
  out.resident_fraction = after->fraction();
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
