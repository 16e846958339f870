// How a start that was stopped, or that its writer says sat still, is judged: stopped, stalled or
// (the kubelet's probe kill) failed. A step of DecideState (judge_steps.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/duration.h"
#include "diagnose/judge_steps.h"
#include "logs/prose.h"
#include "logs/systemd_message.h"

namespace spinup::judge {
namespace {

// The paste holds the kubelet's record of killing the container on its own account: a failed
// probe ("Container vllm failed liveness probe, will be restarted") or an eviction for the node's
// shortage ("The node was low on resource: memory"). A stop in it was that kill, not a person's.
const RuleHit* KubeletRecord(const Context& c, std::initializer_list<std::string_view> rules) {
  for (const AttemptFacts& x : c.st.attempts) {
    for (std::string_view id : rules) {
      if (auto hit = x.hits.find(std::string(id)); hit != x.hits.end()) return &hit->second;
    }
  }
  return nullptr;
}

}  // namespace

bool KilledAfterError(const Context& c) {
  return c.attempt != nullptr && KilledAfterErrorIn(*c.attempt);
}

bool KilledAfterErrorIn(const AttemptFacts& attempt) {
  const AttemptFacts* a = &attempt;
  if (a->oom_killed || a->errors.size() < 2) return false;
  // (The shell's "Killed": SGLang kills its own process tree once a rank raised.)
  static constexpr std::string_view kKills[] = {"oom_record.sigkill", "systemd.sigkill",
                                                "generic.shell_killed"};
  size_t first_kill = a->errors.size();
  for (std::string_view id : kKills) {
    auto hit = a->hits.find(id);
    if (hit == a->hits.end() || hit->second.first_text.empty()) continue;
    for (size_t i = 0; i < first_kill; ++i) {
      if (a->errors[i].find(hit->second.first_text) != std::string::npos) first_kill = i;
    }
  }
  if (first_kill == a->errors.size()) return false;
  // An exception of its own ("torch.distributed.DistBackendError: NCCL error ..."), not a
  // traceback's header or a launcher's "Shard complete standard error output:".
  return std::any_of(a->errors.begin(), a->errors.begin() + static_cast<std::ptrdiff_t>(first_kill),
                     [&](const std::string& e) {
                       return NamesAnException(e) && std::find(a->relayed.begin(), a->relayed.end(),
                                                               e) == a->relayed.end();
                     });
}

// Ranks in the judged phase and since when the earliest of them has been in it.
std::optional<int64_t> PhaseSince(const AttemptFacts& a, Phase phase) {
  std::optional<int64_t> since;
  for (const auto& r : a.ranks) {
    if (r.phase == phase && r.since_ms && (!since || *r.since_ms < *since)) since = r.since_ms;
  }
  // A build inside a later phase (AttemptFacts::jit_inside) is no rank's phase of its own.
  if (!since && phase == Phase::kCompile && a.jit_inside) since = a.jit_inside->from_ms;
  return since;
}

bool BareKill(const AttemptFacts& a, std::optional<int64_t>* kill_ms) {
  static constexpr std::string_view kKills[] = {"oom_record.sigkill", "oom_record.k8s_exit_code",
                                                "systemd.sigkill", "generic.shell_killed"};
  bool killed = false;
  auto note_kill = [&](std::string_view id) {
    const auto it = a.hits.find(id);
    if (it == a.hits.end()) return;
    killed = true;
    if (it->second.last_ms && (!*kill_ms || *it->second.last_ms > **kill_ms))
      *kill_ms = it->second.last_ms;
  };
  for (std::string_view id : kKills) note_kill(id);
  // systemd's TimeoutStartSec running out is such a kill: the manager gave up on the start.
  if (a.start_timed_out) note_kill(unit_fact::kFailed);
  return killed;
}

// A bar of the phase still short of its total whose own elapsed time is about the stated wait
// ("it's been 40 minutes, is this stuck?" under a bar at [39:53<35:43]): the writer counted the
// whole run, which moved all along, not a silence.
bool BarCoversTheWait(const Context& c, Phase phase, double wait) {
  if (c.attempt == nullptr || std::isinf(wait)) return false;
  return std::any_of(c.attempt->bars.begin(), c.attempt->bars.end(), [&](const BarState& b) {
    return b.phase == phase && b.elapsed_s && b.n < b.total && *b.elapsed_s >= 0.75 * wait;
  });
}

// The log's own steps cover the wait the writer states, up to its end: "sitting in Init:0/1 for ~9
// minutes" of a copy that logged a file every 47 s until a minute before the pasted `date` is the
// time the log shows, not a silence after it.
bool StepsCoverTheWait(const Context& c, const PhaseBudget& budget, double wait) {
  const AttemptFacts* a = c.attempt;
  if (a == nullptr || std::isinf(wait) || !a->last_progress_ms || !c.now) return false;
  // (From its first line with a time of its own: a banner with none took the time of the run
  // pasted above it.)
  std::optional<int64_t> start = a->start_ms ? a->start_ms : a->first_ms;
  if (a->first_stamped_ms && (!start || *a->first_stamped_ms > *start)) start = a->first_stamped_ms;
  return start && Span(c, *start, *a->last_progress_ms) >= 0.75 * wait &&
         Span(c, *a->last_progress_ms, *c.now) <= budget.stall_s;
}

// A log pasted into a report that ends mid-start, where the writer says it sat there longer than
// the phase's stall budget ("it hangs here forever", "after 20 minutes nothing"): stalled. The
// stall's length stays what the log's own times show. Before a stop, only a stated length counts:
// "it took forever, so I hit Ctrl-C" is impatience, "waited 45 min, then Ctrl-C" a stall.
bool ReportedStall(const Context& c, const PhaseBudget& budget, Verdict& v,
                   bool stated_length_only) {
  // ("Hangs forever ... waited ~50 min, then Ctrl-C": the stated length counts before a stop.)
  const std::optional<double> wait =
      stated_length_only && c.st.stated_wait_s ? c.st.stated_wait_s : c.st.reported_wait_s;
  if (!wait || *wait <= budget.stall_s || (stated_length_only && std::isinf(*wait)) ||
      BarCoversTheWait(c, v.phase, *wait) || StepsCoverTheWait(c, budget, *wait)) {
    return false;
  }
  v.evidence.push_back(
      std::isinf(*wait) ? std::string("the report says it hangs there forever")
      : c.st.reported_wait_is_run
          ? fmt::format("`time` says the command ran {} and the start never got past {}",
                        FormatDuration(*wait), PhaseName(v.phase))
          : fmt::format("the report says it sat there {} without progress", FormatDuration(*wait)));
  return true;
}

// A start stopped after it had gone longer without progress than its phase ever needs was stuck
// when someone gave up on it: stalled (the stop is evidence). The kubelet's SIGTERM after a failed
// probe ended a start that was not done: a failed start, which the kubelet restarts. Stopped
// otherwise.
State StoppedOrStalled(const Context& c, const AttemptFacts& a, const PhaseBudget& budget,
                       Verdict& v) {
  if (KubeletRecord(c, {"generic.probe_kill", "generic.k8s_probe_kills"})) {
    v.evidence.push_back("ended by the kubelet after a failed liveness or startup probe");
    return c.crashed_before >= 1 || c.st.restarts > 0 ? State::kCrashLoop : State::kCrashed;
  }
  if (const RuleHit* eviction = KubeletRecord(c, {"generic.k8s_evicted"})) {
    // Its record is the error to quote: it names the resource ("low on resource: memory").
    for (const std::string* line : {&eviction->first_text, &eviction->last_text}) {
      if (line->empty() || std::find(v.errors.begin(), v.errors.end(), *line) != v.errors.end()) {
        continue;
      }
      v.errors.insert(v.errors.begin(), *line);
    }
    v.evidence.push_back(
        "ended by the kubelet, which evicted the pod: the node ran short of a resource");
    return c.crashed_before >= 1 ? State::kCrashLoop : State::kCrashed;
  }
  std::optional<int64_t> last = a.last_progress_ms;
  if (const std::optional<int64_t> since = PhaseSince(a, v.phase);
      since && (!last || *since > *last))
    last = since;
  // A stop with no time of its own ("^C" takes the line before's) came no earlier than the
  // attempt's last line: the quiet up to that line is the least it sat still. Otherwise the
  // writer's stated wait says how long it sat there before someone gave up.
  const std::optional<int64_t> stop = a.stop_ms ? a.stop_ms : a.last_ms;
  if (!stop || !last || *stop < *last) {
    return ReportedStall(c, budget, v, true) ? State::kStalled : State::kStopped;
  }
  const double quiet = Span(c, *last, *stop);
  if (quiet <= budget.stall_s) {
    return ReportedStall(c, budget, v, true) ? State::kStalled : State::kStopped;
  }
  v.stalled_seconds = quiet;
  v.evidence.push_back(
      fmt::format("stopped after {} without progress (a stall: this phase shows progress at "
                  "least every {})",
                  FormatDuration(quiet), FormatDuration(budget.stall_s)));
  return State::kStalled;
}

}  // namespace spinup::judge
