// The Judge holds every opinion: it reads a tracker's facts, the phase budgets, thresholds and the
// known-cause knowledge base (all data, from the RuleSet) and returns a Verdict. The same judge
// serves `explain` (offline: the log is all there is; --now is the clock) and `watch`/`run`
// (live: samples add process signals and the clock is real), always through StartupSession.
// The steps are in judge_steps.h.
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
  // The log will say no more (offline always; live once every log source has ended): a log
  // that ends in an error after its last progress line then ended in a crash.
  bool log_complete = true;
};

class Judge {
 public:
  // `rules` must outlive the judge.
  explicit Judge(const RuleSet& rules) : rules_(rules) {}
  Verdict Evaluate(const TrackerState& state, const JudgeOptions& options) const;

 private:
  const RuleSet& rules_;
};

}  // namespace spinup
