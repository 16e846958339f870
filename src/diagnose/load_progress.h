// Loading progress of the checkpoint measured from outside the server: bytes of its shards known
// to be read (file offsets of open shards from fdinfo, page-cache residency from mincore), the
// rate over recent samples, and the ETA. Works for read() loaders (offsets) and mmap loaders
// (residency) alike; the engine's own shard bar, when the log has one, is kept beside it.
// Residency counts from the first sample when no shard was open yet (a warm page cache is not
// progress of this start); attached mid-load, all of it counts.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "spinup/startup.h"

namespace spinup {

class LoadProgressEstimator {
 public:
  // Rate over this window of samples (smooths bursty reads).
  explicit LoadProgressEstimator(int64_t window_ms = 10'000) : window_ms_(window_ms) {}

  void OnSample(const Sample& sample);
  // Bytes/total/rate/ETA; empty optionals when nothing is known.
  Progress Current() const;
  // True when the bytes done grew in the last sample (a progress signal).
  bool grew() const { return grew_; }

 private:
  int64_t window_ms_;
  std::optional<uint64_t> total_;
  std::optional<uint64_t> done_;
  std::map<std::string, uint64_t> max_offset_;        // per shard: the furthest offset seen
  std::map<std::string, uint64_t> size_;              // per shard: its size
  std::set<std::string> open_before_;                 // shards open in the previous sample
  std::deque<std::pair<int64_t, uint64_t>> history_;  // (time, bytes done)
  bool grew_ = false;
  std::optional<uint64_t> resident_baseline_;
};

// Fills in what the judge's progress lacks from the measured one (the engine bar stays).
void MergeMeasuredProgress(const Progress& measured, Progress& verdict_progress);

}  // namespace spinup
