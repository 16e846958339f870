#include "diagnose/load_progress.h"

#include <algorithm>
#include <set>

namespace spinup {

void LoadProgressEstimator::OnSample(const Sample& sample) {
  if (sample.checkpoint_bytes && *sample.checkpoint_bytes > 0) total_ = sample.checkpoint_bytes;
  std::set<std::string> open_now;
  for (const auto& proc : sample.processes) {
    for (const auto& f : proc.model_files) {
      if (max_offset_.size() > 100'000) break;
      uint64_t off = f.size > 0 ? std::min(f.offset, f.size) : f.offset;
      auto& best = max_offset_[f.path];
      best = std::max(best, off);
      if (f.size > 0) size_[f.path] = f.size;
      open_now.insert(f.path);
    }
  }
  // A shard that was open and no process holds any more was read to its end (loaders read whole
  // shards; closing one early is a crash, which the log tells): count all of it, since the last
  // reads often fall between two samples.
  for (const auto& path : open_before_) {
    if (open_now.count(path) == 0) {
      auto it = size_.find(path);
      if (it != size_.end()) max_offset_[path] = std::max(max_offset_[path], it->second);
    }
  }
  open_before_ = std::move(open_now);
  uint64_t by_offsets = 0;
  for (const auto& [path, off] : max_offset_) by_offsets += off;
  // What was cached before any shard was opened is not this load's work (a warm page cache from
  // the last start): count residency from there. Attached mid-load (a shard already open), all
  // of it counts.
  if (sample.checkpoint_resident_bytes && !resident_baseline_) {
    resident_baseline_ = max_offset_.empty() ? *sample.checkpoint_resident_bytes : 0;
  }
  uint64_t resident = sample.checkpoint_resident_bytes.value_or(0);
  resident = resident > resident_baseline_.value_or(0) ? resident - *resident_baseline_ : 0;
  std::optional<uint64_t> done;
  if (sample.checkpoint_resident_bytes || !max_offset_.empty()) {
    done = std::max(resident, by_offsets);
    if (total_) done = std::min(*done, *total_);
  }
  grew_ = done && (!done_ || *done > *done_);
  if (done) {
    // Never go backwards: eviction under memory pressure must not read as negative progress.
    done_ = done_ ? std::max(*done_, *done) : *done;
    history_.emplace_back(sample.time_ms, *done_);
    while (history_.size() > 2 && history_.front().first < sample.time_ms - window_ms_) {
      history_.pop_front();
    }
  }
}

Progress LoadProgressEstimator::Current() const {
  Progress p;
  p.bytes_done = done_;
  p.bytes_total = total_;
  if (history_.size() >= 2) {
    const auto& [t0, b0] = history_.front();
    const auto& [t1, b1] = history_.back();
    if (t1 > t0) {
      double rate = static_cast<double>(b1 - b0) * 1000.0 / static_cast<double>(t1 - t0);
      p.bytes_per_second = rate;
      if (total_ && done_ && rate > 0 && *total_ >= *done_) {
        p.eta_seconds = static_cast<double>(*total_ - *done_) / rate;
      }
    }
  }
  return p;
}

void MergeMeasuredProgress(const Progress& measured, Progress& out) {
  if (!out.bytes_done && measured.bytes_done) out.bytes_done = measured.bytes_done;
  if (!out.bytes_total && measured.bytes_total) out.bytes_total = measured.bytes_total;
  if (!out.bytes_per_second && measured.bytes_per_second) {
    out.bytes_per_second = measured.bytes_per_second;
  }
  if (!out.eta_seconds && measured.eta_seconds) out.eta_seconds = measured.eta_seconds;
}

}  // namespace spinup
