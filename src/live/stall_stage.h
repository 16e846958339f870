// Evidence at a stall: when the verdict's state first becomes STALLED (once per attempt), gathers
// each rank's stacks, which rank is behind, and the GPUs of that moment's sample
// (src/proc/stall_gather.h), on a thread of its own, bounded by GatherOptions::total_limit.
// Attaches the result to every verdict while the start stays stalled, and to the final one.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "live/verdict_stage.h"
#include "proc/stall_gather.h"

namespace spinup {

class StallStage final : public VerdictStage {
 public:
  using Gather =
      std::function<StallEvidence(const std::vector<proc::GatherTarget>&,
                                  const std::vector<RankPhase>&, const proc::GatherOptions&)>;
  // `gather` defaults to proc::GatherStallEvidence (tests pass their own).
  explicit StallStage(proc::GatherOptions options, Gather gather = {});
  ~StallStage() override;
  void OnSample(const Sample& sample) override;
  void Apply(Verdict& verdict, int64_t now_ms) override;
  void Settle() override { Join(); }
  // Waits for a gathering under way (it is bounded) so the final verdict carries it.
  void Finish(Verdict& verdict, int64_t now_ms) override;

 private:
  void Join();

  proc::GatherOptions options_;
  Gather gather_;
  std::optional<Sample> last_sample_;
  int attempt_ = -1;
  bool triggered_ = false;
  std::atomic<bool> cancel_{false};
  std::thread thread_;
  std::mutex mu_;
  std::optional<StallEvidence> evidence_;
};

// Pure: the evidence's sentence first in the verdict's evidence, the rest in stall_evidence.
void AttachStallEvidence(Verdict& v, const StallEvidence& e);

}  // namespace spinup
