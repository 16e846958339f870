// The Judge holds every opinion: it reads a tracker's facts, the phase budgets, thresholds and the
// known-cause knowledge base (all data, from the RuleSet) and returns a Verdict. The same judge
// serves `explain` (offline: the log is all there is; --now is the clock) and `watch`/`run`
// (live: samples add process signals and the clock is real), always through StartupSession.
// The steps are in judge_steps.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "diagnose/tracker.h"
#include "logs/rules.h"
#include "spinup/startup.h"

namespace spinup {

// A phase's thresholds learned from this host's earlier starts (src/history turns its records
// into these at the CLI edge; the judge never sees the store).
struct LearnedPhaseBudget {
  double slow_s = 0;     // slower than this is slow (replaces the fixed normal_s)
  double stall_s = 0;    // this long without progress is stalled (replaces the fixed stall_s)
  std::string evidence;  // "weight_load usually 4 min 10 s (last 5 starts, at most 4 min 40 s)"
};
using LearnedBudgets = std::map<Phase, LearnedPhaseBudget>;

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
  // Learned budgets win over the fixed table for the phases they cover (may be null).
  const LearnedBudgets* learned = nullptr;
  // The log ended inside a traceback before its exception: that traceback's last frame line
  // (the headline says where the excerpt stops when it can quote only the header).
  std::string open_traceback_frame;
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
