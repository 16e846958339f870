// The budget learner: pure functions over a list of past starts (no SQL, no clock, no I/O).
//
// With at least `min_starts` comparable starts (same host, checkpoint fingerprint, engine version
// and startup flags; a field unknown for the start being judged matches anything), each phase's
// thresholds come from its history instead of the fixed budget table:
//   slow_s  = max(slow_margin x p90, p90 + slow_floor_s)        the phase is slow past this
//   stall_s = stall_multiple x longest + stall_floor_s          no progress this long: stalled
// Too few exact matches: the nearest starts of the same model (path or fingerprint) are used and
// the book says so (nearest_match, match_note). Fewer than min_starts at all: an empty book, and
// the fixed budgets stay. The rule is documented in docs/history.md.
//
// This is the interface the judge consumes (the lead wires it in): BudgetBook::For(phase).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/record.h"
#include "spinup/startup.h"

namespace spinup {

// What makes two starts comparable. Empty strings / nullopt match anything (at launch the
// engine and its version are not known yet).
struct StartKey {
  std::string host;
  std::string model;
  std::optional<CheckpointFingerprint> fingerprint;
  std::string engine;
  std::string engine_version;
  StartupFlags flags;
};
StartKey KeyOf(const StartRecord& record);

struct LearnerOptions {
  int min_starts = 3;
  int window = 10;  // the most recent comparable starts used
  double slow_percentile = 0.9;
  double slow_margin = 1.2;
  double slow_floor_s = 2;
  double stall_multiple = 2;
  double stall_floor_s = 30;
  // Regressions (after a start): longer than max(slow_s, regression_ratio x median) and at least
  // regression_floor_s over the median.
  double regression_ratio = 1.5;
  double regression_floor_s = 5;
};

struct LearnedBudget {
  Phase phase = Phase::kLaunch;
  double slow_s = 0;     // slower than this is "slow"
  double stall_s = 0;    // this long without progress is "stalled"
  double typical_s = 0;  // median
  double longest_s = 0;
  int starts = 0;  // how many starts the figures come from
  // "weight_load usually 4 min 10 s (last 5 starts, at most 4 min 40 s)"; NowEvidence adds "now".
  std::string evidence;
};

// "...; now 9 min 2 s"
std::string NowEvidence(const LearnedBudget& budget, double now_s);

class BudgetBook {
 public:
  // The learned budget of a phase, or nullopt (too few starts saw it): use the fixed budget.
  std::optional<LearnedBudget> For(Phase phase) const;
  bool empty() const { return budgets_.empty(); }
  const std::map<Phase, LearnedBudget>& budgets() const { return budgets_; }
  // True when the starts are not exact matches; match_note says how they differ.
  bool nearest_match() const { return nearest_; }
  const std::string& match_note() const { return note_; }
  int starts() const { return static_cast<int>(ids_.size()); }
  const std::vector<int64_t>& start_ids() const { return ids_; }

  // For prediction: median seconds from a phase's end to ready, the median time to ready, and
  // the weight_load context of those starts (median residency fraction at launch, read rate).
  std::optional<double> AfterPhase(Phase phase) const;
  std::optional<double> typical_ready_s() const { return ready_s_; }
  std::optional<double> typical_resident_fraction() const { return resident_fraction_; }

 private:
  friend BudgetBook LearnBudgets(const std::vector<StartRecord>&, const StartKey&,
                                 const LearnerOptions&);
  std::map<Phase, LearnedBudget> budgets_;
  std::map<Phase, double> after_;
  std::optional<double> ready_s_;
  std::optional<double> resident_fraction_;
  bool nearest_ = false;
  std::string note_;
  std::vector<int64_t> ids_;
};

// The starts of `past` comparable to `key` (exact, or nearest; see above), newest first.
struct ComparableStarts {
  std::vector<const StartRecord*> starts;
  bool nearest = false;
  std::string note;  // "nearest match: 4 starts with a different engine version, flags"
};
ComparableStarts SelectComparable(const std::vector<StartRecord>& past, const StartKey& key,
                                  const LearnerOptions& options = {});

BudgetBook LearnBudgets(const std::vector<StartRecord>& past, const StartKey& key,
                        const LearnerOptions& options = {});

// The q-quantile (0..1, linear interpolation) of `values`; nullopt when empty.
std::optional<double> Quantile(std::vector<double> values, double q);

}  // namespace spinup
