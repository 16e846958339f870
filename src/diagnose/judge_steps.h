// The judge's steps, each a small function over the tracker's facts, so each is unit-tested on
// its own (judge_steps_test.cc). Judge::Evaluate runs them in order:
//   BuildTimeline → DecideState → Describe → AddEvidence → MatchCauses.
// Internal to src/diagnose.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "diagnose/judge.h"

namespace spinup::judge {

// Whether a list (a condition's states, phases, a rank list) holds x.
bool Contains(const auto& list, const auto& x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

// What every step reads: the facts, the options, the knowledge, and derived values computed once.
struct Context {
  const TrackerState& st;
  const JudgeOptions& opt;
  const RuleSet& rules;
  const AttemptFacts* attempt = nullptr;  // the judged attempt (the latest)
  std::optional<int64_t> now;             // the judging time (options, else the log's last time)
  // Starts that ended before the judged one: crashed attempts in the log, or the restarts the
  // service manager counted, whichever is more.
  int crashed_before = 0;
  // The judged attempt has shown nothing yet (no phase line, error, ready or crash).
  bool empty_attempt = true;
  // Between two turns of a crash loop: the new attempt has shown nothing yet.
  bool between_turns = false;
  // Live: the port listens and /health answered 200.
  bool health_ok = false;
  EngineRanks ranks;  // how the engine's ranks move together (its rules file's "ranks")

  Context(const TrackerState& s, const JudgeOptions& o, const RuleSet& r);
  PhaseBudget Budget(Phase p) const;
  // Position of `p` in the engine's phase order.
  int Order(Phase p) const;
  const JudgeThresholds& thresholds() const { return rules.thresholds(); }
};

// Seconds from a to b, clamped to [0, the span of what was observed]: a clock that steps back or
// a misread date never gives a negative or absurd duration.
double Span(const Context& c, int64_t a, int64_t b);

// A rank that coordinates workers (vLLM's engine cores and API server: with tensor parallelism the
// core logs its broadcast queue and waits; the engine's "ranks.coordinators").
bool Coordinator(const Context& c, std::string_view rank);

// The judged attempt's timeline, ranks, errors and the engine's own bar.
void BuildTimeline(const Context& c, Verdict& v);
// State, phase, phase_seconds, stalled_seconds and budget.
void DecideState(const Context& c, Verdict& v);
// Before any phase line (the judged attempt is empty): starting, stalled, crashed or unknown.
void DecideWithoutPhase(const Context& c, Verdict& v);
// The one-line headline.
void Describe(const Context& c, Verdict& v);
// Evidence lines and what the evidence cannot tell.
void AddEvidence(const Context& c, Verdict& v);
// Known causes that fit, from the knowledge base.
void MatchCauses(const Context& c, Verdict& v);
// Whether a named process/log signal holds (cpu_idle, futex_waits, restarts, multi_node, ...).
bool SignalHolds(const Context& c, const std::string& signal);

// How long the judged attempt went without progress before a bare kill ended it (SIGKILL, exit
// 137; no other error, no record of a memory kill), where that is longer than `phase`'s stall
// budget: something gave up on a hung start (docker's kill after `compose down`'s grace period, a
// watchdog, kill -9). Empty otherwise.
std::optional<double> KilledAfterStall(const Context& c);
// How long the judged start has sat still since the kernel's OOM killer took one of its processes,
// where that record is its only error and the start lived on (its lines went on after the kill,
// or the writer says it still sits there): the others wait for the lost rank, a stall.
std::optional<double> WaitingAfterOomKill(const Context& c);
// Whether a bare kill ended attempt `a` (SIGKILL, exit 137, the shell's "Killed", systemd's start
// timeout); `*kill_ms` gets its latest line's time, as the manager's lines carry no crash time.
bool BareKill(const AttemptFacts& a, std::optional<int64_t>* kill_ms);

// The judged attempt's SIGKILL (a rank "signaled to shutdown with signal 9", exit 137) came after
// an exception of its own: the teardown of a start that had already failed, not a memory kill.
// Relayed errors (a parent saying a child died) do not count.
bool KilledAfterError(const Context& c);
bool KilledAfterErrorIn(const AttemptFacts& a);

// Where peers hold a start that has not failed (judge_placing.cc): the earlier phase a peer of the
// ranks that opened `phase` has not ended; the phase of the slowest data-parallel engine. nullopt
// where none holds it.
std::optional<Phase> LaggingPeerPhase(const Context& c, const AttemptFacts& a, Phase phase);
std::optional<Phase> SlowestIndependentEngine(const Context& c, const AttemptFacts& a, Phase phase);
// Whether a numbered rank never printed a line while the ranks around it in its group all
// finished loading (TP5 silent among TP0-TP7's "Load weight end"), in a start that has neither
// failed nor come up: the silent one is still loading, and the others wait for it.
bool SilentRankInLoad(const Context& c, const AttemptFacts& a);
// Whether the failing rank of a failed start was behind a peer that got past `failing`.
bool BehindAPeer(const Context& c, const AttemptFacts& a, Phase failing);

// Late steps of placing a start (judge_placing.cc), each given the phase placed so far:
// where the main process said a child died, when ranks went on past it and failed on the lost peer;
Phase WhereTheChildDied(const Context& c, const AttemptFacts& a, Phase phase);
// compile, when a JIT's lines came after a phase ended and before any line of the next one.
Phase CompilingBeforeTheNextPhase(const Context& c, const AttemptFacts& a, Phase phase);
// compile, when a JIT build inside `phase` (AttemptFacts::jit_inside) was the last thing it did.
Phase BuildingInsideThePhase(const AttemptFacts& a, Phase phase);
// Whether a rank last seen in distributed init passed its group's barrier with a peer that ended
// it.
bool PastTheBarrier(const Context& c, const AttemptFacts& a, const PhaseSpan& rank_span);

// Since when the earliest rank in `phase` has been in it.
std::optional<int64_t> PhaseSince(const AttemptFacts& a, Phase phase);
// The writer of a pasted report says the start sat still longer than the phase's stall budget
// (adds that to the evidence). With `stated_length_only`, "forever" does not count.
bool ReportedStall(const Context& c, const PhaseBudget& budget, Verdict& v,
                   bool stated_length_only = false);
// A start the judged attempt's stop ended: stopped, stalled (it sat still longer than its phase
// ever needs before the stop), or crashed / crash_loop (the kubelet's probe kill).
State StoppedOrStalled(const Context& c, const AttemptFacts& a, const PhaseBudget& budget,
                       Verdict& v);
// The latest time any progress signal moved (log lines only where `count_log_lines`).
std::optional<int64_t> LastProgress(const Context& c, bool count_log_lines);

}  // namespace spinup::judge
