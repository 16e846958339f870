// Placing where a start is or died beyond its own last phase line: the rank that holds its peers,
// the slowest engine, a failing rank behind a peer, and late steps after the timeline and the
// frames have spoken (a death reported before peers went on, a JIT running before the next phase's
// first line). Steps of JudgedPhase (judge_steps.h).
#include "diagnose/judge_steps.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <utility>
#include <vector>

#include "diagnose/rank_format.h"

namespace spinup::judge {

bool Coordinator(const Context& c, std::string_view rank) {
  return std::any_of(c.ranks.coordinators.begin(), c.ranks.coordinators.end(),
                     [&](const std::string& name) { return rank.find(name) != rank.npos; });
}

namespace {

// Phases whose work every tensor-parallel rank does together (from the engine's
// "ranks.lockstep_from"): a rank seen doing one with a line of its own shows its peers had got
// there too. Ranks that each run an engine of their own (the engine's "ranks.independent":
// data-parallel groups, EngineCore_DP0 and EngineCore_DP1) never are.
bool Lockstep(const Context& c, std::string_view group, Phase p) {
  if (!c.ranks.lockstep_from || Coordinator(c, group)) return false;
  if (IndependentGroup(group, c.ranks.independent)) return false;
  return c.Order(p) >= c.Order(*c.ranks.lockstep_from);
}

// SGLang's data-parallel attention numbers its tensor-parallel ranks across the data-parallel
// groups (DP0 TP0 ... DP5 TP5): they are one tensor-parallel group, in step. Without it each
// data-parallel replica counts its ranks from TP0 again (DP1 TP0), and the groups are apart.
bool TensorRanksSpanDataParallel(const AttemptFacts& a) {
  std::vector<std::pair<int, int>> dp_of_tp;
  bool beyond_first = false;
  for (const TrackedRank& r : a.ranks) {
    const int dp = RankIndex(r.rank, "DP");
    const int tp = RankIndex(r.rank, "TP");
    if (dp < 0 || tp < 0) continue;
    const auto seen = std::find_if(dp_of_tp.begin(), dp_of_tp.end(),
                                   [&](const std::pair<int, int>& p) { return p.first == tp; });
    if (seen == dp_of_tp.end()) {
      dp_of_tp.emplace_back(tp, dp);
    } else if (seen->second != dp) {
      return false;
    }
    beyond_first = beyond_first || dp > 0;
  }
  return beyond_first && dp_of_tp.size() >= 2;
}

// The group of ranks that move in step with `rank` (PeerGroup), across data-parallel groups where
// the tensor-parallel ranks span them, and across pipeline stages (SGLang's "PP1 TP0"): the server
// starts once every stage is done, so a stage still capturing holds the others.
std::string_view StepGroup(std::string_view rank, bool spans_dp) {
  std::string_view group = PeerGroup(rank);
  if ((spans_dp && group.starts_with("DP")) || group.starts_with("PP")) {
    const size_t cut = group.find('_');
    if (cut != group.npos) group.remove_prefix(cut + 1);
  }
  return group;
}

// A rank in a phase only its own end line of the one before opened, which two or more peers of
// its group have ended with lines of their own: every rank logs that phase's end, and this one
// has not (SGLang's DP5 with no "Memory pool end" where its peers printed theirs). One peer's end
// says little: newest vLLM logs a step's end once per node.
bool LeftBehind(const AttemptFacts& a, const PhaseSpan& peer, bool spans_dp) {
  const std::string_view group = StepGroup(peer.rank, spans_dp);
  int ended = 0;
  for (const PhaseSpan& s : a.timeline) {
    if (s.rank != peer.rank && s.phase == peer.phase && s.ended &&
        StepGroup(s.rank, spans_dp) == group) {
      ++ended;
    }
  }
  return ended >= 2;
}

}  // namespace

// Tensor-parallel ranks move in step, and a launcher takes the next step only once every rank is
// done (TGI starts its webserver after all shards are ready): a start that has not failed, whose
// phase was only opened because some ranks ended the one before it (no line of its own), is still
// waiting in the earlier phase a peer of theirs began and has not ended. A start that died there
// with no rank named by its failure died in it (TGI's launcher: one shard ready, "Shard 1 failed"),
// and so did one whose ranks' watchdog gave up waiting for that peer.
std::optional<Phase> LaggingPeerPhase(const Context& c, const AttemptFacts& a, Phase phase) {
  if (a.ready) return std::nullopt;
  const bool failed = a.crashed || a.error_after_progress;
  // (A collective's watchdog that timed out names the rank that waited, not the one it waited for.)
  const bool waited = a.hits.count("generic.nccl_watchdog") != 0;
  if (failed && !waited && (a.failing_rank_phase || !a.unplaced_rank.empty())) return std::nullopt;
  // The last span of each rank is the one it is in.
  std::vector<const PhaseSpan*> open;
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    // The phase has a line of a process that takes it only once every rank is done (the main
    // process, a coordinator); a rank's own line (SGLang's TP0 "max_total_num_tokens=") says only
    // that this rank is done.
    const std::string_view line_group = PeerGroup(it->rank);
    if (it->phase == phase && !it->implicit &&
        (line_group.empty() || line_group == "main" || Coordinator(c, it->rank))) {
      return std::nullopt;
    }
    const bool seen = std::any_of(open.begin(), open.end(),
                                  [&](const PhaseSpan* s) { return s->rank == it->rank; });
    if (!seen) open.push_back(&*it);
  }
  std::optional<Phase> lag;
  const bool spans_dp = TensorRanksSpanDataParallel(a);
  for (const PhaseSpan* lead : open) {
    const std::string_view group = StepGroup(lead->rank, spans_dp);
    if (lead->phase != phase || !lead->implicit || group.empty() || group == "main") continue;
    // A lead that began a lockstep phase with a line of its own did that phase's collective work
    // with its peers: they were past their earlier phase, whose end newest vLLM logs once per node
    // (info_once, scope "local"), so a peer's silence there is not waiting.
    int lead_began = -1;
    for (const PhaseSpan& s : a.timeline) {
      if (s.rank == lead->rank && !s.implicit && Lockstep(c, group, s.phase))
        lead_began = std::max(lead_began, c.Order(s.phase));
    }
    for (const PhaseSpan* peer : open) {
      if (peer->ended || (peer->implicit && !LeftBehind(a, *peer, spans_dp)) ||
          StepGroup(peer->rank, spans_dp) != group || c.Order(peer->phase) >= c.Order(phase) ||
          c.Order(peer->phase) < lead_began || (lag && c.Order(*lag) <= c.Order(peer->phase))) {
        continue;
      }
      lag = PastTheBarrier(c, a, *peer) ? Phase::kWeightLoad : peer->phase;
    }
  }
  return lag;
}

bool SilentRankInLoad(const Context& c, const AttemptFacts& a) {
  if (a.ready || a.crashed || a.error_after_progress || a.stopped || a.ended_by_record) {
    return false;
  }
  std::string_view group;
  uint64_t seen = 0;
  for (const TrackedRank& r : a.ranks) {
    const std::string_view g = PeerGroup(r.rank);
    const std::string_view number = std::string_view(r.rank).substr(g.size());
    int index = -1;
    const auto [end, err] = std::from_chars(number.data(), number.data() + number.size(), index);
    if (g.empty() || g == "main" || err != std::errc() || end != number.data() + number.size() ||
        index < 0 || index >= 64) {
      continue;
    }
    if (!group.empty() && g != group) return false;  // one group of numbered ranks only
    group = g;
    const bool loaded = (r.phase == Phase::kWeightLoad && r.phase_done) ||
                        c.Order(r.phase) > c.Order(Phase::kWeightLoad);
    if (!loaded) return false;
    seen |= uint64_t{1} << index;
  }
  // (Rank 0 unseen is vLLM's driver worker, whose lines carry no rank.)
  if (std::popcount(seen) < 3 || (seen & 1) == 0) return false;
  const int top = 63 - std::countl_zero(seen);
  const uint64_t all_below = top == 63 ? ~uint64_t{0} : (uint64_t{1} << (top + 1)) - 1;
  return std::popcount(all_below & ~seen) == 1;
}

// Engines that each start on their own (data-parallel engine cores) and all must be up: a start
// that has neither failed nor come up is where the slowest of them is, not where the fastest got.
std::optional<Phase> SlowestIndependentEngine(const Context& c, const AttemptFacts& a,
                                              Phase phase) {
  if (a.ready || a.crashed || a.error_after_progress || c.ranks.independent.empty()) {
    return std::nullopt;
  }
  // SGLang's replicas ("DP2 TP0") each run an engine of their own too, unless their
  // tensor-parallel ranks span the data-parallel groups (DP attention).
  const bool replicas = std::find(c.ranks.independent.begin(), c.ranks.independent.end(), "DP") !=
                            c.ranks.independent.end() &&
                        !TensorRanksSpanDataParallel(a);
  // Which engine a rank belongs to: an engine core of its own, or its replica, whose furthest
  // rank says where it is (its other ranks may say nothing after their first lines).
  auto engine_of = [&](std::string_view rank) -> int {
    if (IndependentGroup(PeerGroup(rank), c.ranks.independent)) return -2;  // the rank itself
    return replicas ? RankIndex(rank, "DP") : -1;
  };
  std::vector<std::pair<std::string, Phase>> engines;  // engine → where it got
  std::vector<std::string_view> seen;
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    if (std::find(seen.begin(), seen.end(), it->rank) != seen.end()) continue;
    seen.push_back(it->rank);  // the rank's last span is the one it is in
    const int engine = engine_of(it->rank);
    if (engine == -1) continue;
    const std::string key = engine == -2 ? it->rank : "DP" + std::to_string(engine);
    auto at = std::find_if(engines.begin(), engines.end(), [&](auto& e) { return e.first == key; });
    if (at == engines.end()) at = engines.insert(engines.end(), {key, Phase::kLaunch});
    // (An engine core still in launch coordinates workers that do the work: their lines place it.)
    if (it->ended || it->phase == Phase::kLaunch) continue;
    if (c.Order(it->phase) > c.Order(at->second)) at->second = it->phase;
  }
  std::optional<Phase> slowest;
  for (const auto& [key, got] : engines) {
    if (got != Phase::kLaunch && c.Order(got) < c.Order(slowest.value_or(phase))) slowest = got;
  }
  return engines.size() >= 2 ? slowest : std::nullopt;
}

// Whether a rank that got past `failing` says the failing rank was behind: a coordinator is
// behind its workers without having failed there (vLLM's engine core relays a worker's death from
// its broadcast queue, distributed_init); a tensor-parallel peer seen in a lockstep phase says the
// failing rank was past `failing` too (newest vLLM logs a step's end once per node, so the failing
// rank's own end lines may never have been printed).
bool BehindAPeer(const Context& c, const AttemptFacts& a, Phase failing) {
  const std::string_view group = PeerGroup(a.failing_rank);
  const bool coordinator = Coordinator(c, a.failing_rank);
  bool behind = false;
  for (const PhaseSpan& s : a.timeline) {
    if (s.rank == a.failing_rank || c.Order(s.phase) <= c.Order(failing)) continue;
    const bool peer = PeerGroup(s.rank) == group;
    if (coordinator && !peer) continue;
    // (A peer that began it after the failing rank had died did so alone: it says nothing of it.)
    const bool after_death = s.start_ms && a.crash_ms && *s.start_ms > *a.crash_ms;
    // Distributed init ends in a barrier every rank passes together: a peer past it says the
    // failing rank got past it too (TensorRT-LLM's ranks print their MPI line, then little else).
    const bool past_barrier = failing == Phase::kDistributedInit;
    if (peer && !s.implicit && !after_death && (past_barrier || Lockstep(c, group, s.phase)))
      return false;
    behind = true;
  }
  return behind;
}

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

// A build that failed while the start was in compile itself (SGLang's, opened when its memory
// pool ended) failed there, whichever phase the frames above the build name (the capture that
// asked for the kernel).
// A build inside the phase that the phase never moved on from, with a line of the build itself (a
// kernel loaded from the cache builds nothing): the start hangs building, or died of the build
// (its frames a compiler's, ninja's "build stopped"), not of the phase around it.
Phase BuildingInsideThePhase(const AttemptFacts& a, Phase phase) {
  if (a.ready || a.pinned_phase) return phase;
  const bool died = a.crashed || a.error_after_progress;
  const bool build_failed = a.hits.count("generic.jit_build_failed") != 0;
  if (died && build_failed && a.phase == Phase::kCompile) return Phase::kCompile;
  const auto& jit = a.jit_inside;
  if (!jit || !jit->open || !jit->building || phase != jit->outer || a.phase != jit->outer) {
    return phase;
  }
  const bool of_the_build = a.frame_phase == Phase::kCompile || build_failed;
  return !died || of_the_build ? Phase::kCompile : phase;
}

}  // namespace spinup::judge
