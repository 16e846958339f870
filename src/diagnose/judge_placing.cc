// Late steps of placing where a start is or died, after the timeline and the frames have spoken:
// evidence that moves the phase back (a death reported before peers went on, a JIT running before
// the next phase's first line). Steps of JudgedPhase (judge_steps.h).
#include "diagnose/judge_steps.h"

#include <algorithm>

#include "diagnose/rank_format.h"

namespace spinup::judge {

// The main process said a child died, and ranks went on (stamped later) into a later phase and
// failed there because their peer was gone: the start died where the child did.
Phase WhereTheChildDied(const Context& c, const AttemptFacts& a, Phase phase) {
  if (a.first_death_phase && a.crashed && !a.ready && a.crash_ms && a.last_progress_ms &&
      *a.last_progress_ms > *a.crash_ms && c.Order(*a.first_death_phase) < c.Order(phase)) {
    return *a.first_death_phase;
  }
  return phase;
}

// Distributed init ends in a barrier every rank of a group passes together: a rank whose last line
// is in it while a peer ended it is past it too, loading weights without a line of its own (newest
// vLLM logs the load's start once per node).
bool PastTheBarrier(const Context& c, const AttemptFacts& a, const PhaseSpan& rank_span) {
  if (rank_span.phase != Phase::kDistributedInit ||
      c.Order(Phase::kWeightLoad) <= c.Order(Phase::kDistributedInit)) {
    return false;
  }
  const std::string_view group = PeerGroup(rank_span.rank);
  return std::any_of(a.timeline.begin(), a.timeline.end(), [&](const PhaseSpan& s) {
    return s.rank != rank_span.rank && PeerGroup(s.rank) == group &&
           s.phase == Phase::kDistributedInit && s.ended && !s.implicit;
  });
}

// A JIT's bar or line after a phase past compile ended, and no line yet of the phase that follows
// (vLLM's DeepGEMM and FlashInfer kernel warm-up between the KV cache and the capture): the start
// is compiling, not in the phase only guessed from the end line. (After compile itself ended, a
// JIT inside vLLM's profile run is that run's: kv_cache.)
Phase CompilingBeforeTheNextPhase(const Context& c, const AttemptFacts& a, Phase phase) {
  if (a.crashed || a.error_after_progress || a.ready || !a.opened_after || !a.compile_hint_ms ||
      a.phase != phase || c.Order(*a.opened_after) <= c.Order(Phase::kCompile) ||
      c.Order(Phase::kCompile) >= c.Order(phase)) {
    return phase;
  }
  const std::optional<int64_t> since = PhaseSince(a, phase);
  return since && *a.compile_hint_ms >= *since ? Phase::kCompile : phase;
}

}  // namespace spinup::judge
