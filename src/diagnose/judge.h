// The Judge holds every opinion: it reads a tracker's facts, the phase budgets and the
// known-cause knowledge base (both data, from the RuleSet) and returns a Verdict. The same judge
// serves `explain` (offline: the log is all there is; --now is the clock) and `watch`/`run`
// (live: samples add process signals and the clock is real).
#pragma once

#include <cstdint>
#include <optional>

#include "diagnose/tracker.h"
#include "logs/rules.h"
#include "spinup/startup.h"

namespace spinup {

struct JudgeOptions {
  // The time the startup is judged at. Offline: --now (nullopt: the log's last line). Live: the
  // clock.
  std::optional<int64_t> now_ms;
  // Overrides every phase's stall_s (e.g. `watch --stall-after`).
  std::optional<double> stall_after_s;
  // Checkpoint size, for the weight-load budget; the tracker's sampled size is used when unset.
  std::optional<uint64_t> checkpoint_bytes;
  // Live: states are starting/progressing/slow/stalled/...; offline: in_progress/stalled/....
  bool live = false;
};

class Judge {
 public:
  // `rules` must outlive the judge.
  explicit Judge(const RuleSet& rules) : rules_(rules) {}
  Verdict Evaluate(const TrackerState& state, const JudgeOptions& options) const;

 private:
  const RuleSet& rules_;
};

// "9 min 52 s", "1 h 09 min", "4.6 s".
std::string FormatDuration(double seconds);
// "TP0–TP3" for a contiguous run of similarly named ranks, else a comma list (capped).
std::string FormatRanks(const std::vector<std::string>& ranks);

}  // namespace spinup
