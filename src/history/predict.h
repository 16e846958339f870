// Time-to-ready prediction and regression naming from a BudgetBook and past starts. Pure.
//
// Prediction: remaining = what is left of the current phase + the median time from that phase's
// end to ready in past starts. What is left of weight_load, while it runs, is the bytes left at
// the rate measured now (the verdict's read ETA) when known; before weight_load, its typical time
// is scaled by how much of the checkpoint is in the page cache now against then (docs/history.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/learner.h"
#include "history/record.h"
#include "spinup/startup.h"

namespace spinup {

// Where the start stands now; built from the live Verdict and the first sample by the caller.
struct PredictionInput {
  Phase phase = Phase::kLaunch;
  double phase_elapsed_s = 0;
  double since_start_s = 0;
  bool ready = false;
  std::optional<double> read_eta_s;         // the verdict's checkpoint-read ETA (weight_load)
  std::optional<double> resident_fraction;  // page-cache residency of the checkpoint now (0..1)
};

struct Prediction {
  std::optional<double> eta_s;         // seconds to ready from now
  std::optional<double> total_s;       // since_start + eta
  std::map<Phase, double> expected_s;  // each phase's expected duration (learned median, scaled)
  std::string basis;                   // "from 5 earlier starts" (+ the nearest-match note)
};

Prediction PredictReady(const BudgetBook& book, const PredictionInput& input);

// After a start ends: phases much longer than their history, and what changed since the last
// earlier start of the same model (engine version, flags, spinup version, checkpoint, host, page
// cache).
struct PhaseRegression {
  Phase phase = Phase::kLaunch;
  double seconds = 0;
  double typical_s = 0;
  std::string text;  // "weight_load took 9 min 2 s; usually 4 min 10 s (last 5 starts, ...)"
};
struct RegressionReport {
  std::vector<PhaseRegression> phases;
  std::vector<std::string> changes;  // "engine version 0.4.1 -> 0.4.2"
  bool any() const { return !phases.empty(); }
};

RegressionReport FindRegressions(const StartRecord& ended, const std::vector<StartRecord>& past,
                                 const LearnerOptions& options = {});

// What differs between two starts, as "field before -> after" lines.
std::vector<std::string> DescribeChanges(const StartRecord& before, const StartRecord& after);

}  // namespace spinup
