#include "diagnose/judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/duration.h"
#include "diagnose/judge_steps.h"
#include "diagnose/rank_format.h"
#include "logs/prose.h"

namespace spinup {
namespace judge {
namespace {

// The attempt ended in its own error: a death, or a traceback after its last progress.
bool EndsInItsError(const AttemptFacts& a) {
  return a.crashed || (a.error_after_progress && !a.ready && a.waits_after_error < 2);
}

// `kubectl logs --previous` of a pod that is not in back-off (running again, `1/1 Running 1 (6m
// ago)`): the log's run is one of the restarts its counter shows, not one more.
bool PreviousOfARunningPod(const TrackerState& st, const AttemptFacts& a) {
  return a.ended_by_record && !st.backoff_failed && a.hits.count("generic.k8s_previous_log") > 0;
}

bool EmptyAttempt(const AttemptFacts* a) {
  return a == nullptr ||
         (a->timeline.empty() && a->errors.empty() && !a->ready && !a->crashed && !a->stopped);
}

// An attempt that only a supervisor spoke of ("exited: x (exit status 1; not expected)",
// "gave up: x entered FATAL state", systemd's unit lines): it says that a start died, not where.
bool SupervisorOnly(const AttemptFacts& a) {
  if (!a.timeline.empty() || a.frame_phase || a.hits.empty()) return false;
  return std::all_of(a.hits.begin(), a.hits.end(), [](const auto& h) {
    return h.first.rfind("supervisor.", 0) == 0 || h.first.rfind("systemd.", 0) == 0 ||
           h.first == "generic.container_exited";
  });
}

}  // namespace

Context::Context(const TrackerState& s, const JudgeOptions& o, const RuleSet& r)
    : st(s), opt(o), rules(r), attempt(s.current()) {
  now = opt.now_ms ? opt.now_ms : st.last_ms;
  health_ok = opt.live && st.port_listening && st.health_http_status == 200;
  ranks = r.knowledge().Ranks(st.engine);
  const AttemptFacts* a = attempt;
  // A crash a person answered by starting the server again by hand is no turn of a loop, nor is
  // a start that came up and died later, while serving.
  int not_turns = 0;
  for (size_t i = 0; i + 1 < st.attempts.size(); ++i) {
    const AttemptFacts& b = st.attempts[i];
    if (b.crashed && (st.attempts[i + 1].manual || b.died_after_ready)) not_turns++;
  }
  // Starts begun again with no word on why the last one ended are turns of a loop when there
  // are two, or one before a start the kubelet killed to restart it (it killed that one too).
  const bool killed_to_restart = a != nullptr && a->hits.count("generic.probe_kill") > 0;
  const int silent_turns =
      st.silent_ends >= 2 || (st.silent_ends == 1 && killed_to_restart) ? st.silent_ends : 0;
  crashed_before =
      a == nullptr
          ? 0
          : std::max(st.crashed_attempts - (a->crashed ? 1 : 0) - not_turns + silent_turns,
                     // A supervisor's back-off: its latest run failed as well (unless that is
                     // the attempt the log shows dying, or that a record says ended: the log of
                     // a pod in back-off is its latest run's).
                     std::max(0, st.restarts - (PreviousOfARunningPod(st, *a) ? 1 : 0)) +
                         (st.backoff_failed && !EndsInItsError(*a) && !a->ended_by_record ? 1 : 0));
  empty_attempt = EmptyAttempt(a);
  between_turns = a != nullptr && empty_attempt && crashed_before >= 2 && !health_ok;
}

int Context::Order(Phase p) const {
  const std::vector<Phase> order = rules.PhaseOrder(st.engine);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] == p) return static_cast<int>(i);
  }
  return static_cast<int>(p) - kPhaseCount;  // phases the engine's order omits sort first
}

double Span(const Context& c, int64_t a, int64_t b) {
  double s = (b - a) / 1000.0;
  if (!std::isfinite(s) || s < 0) return 0;
  // Nothing lasts longer than what was observed (first line to the judging time), whatever a
  // misread date says; judged at a later --now, the span runs to then.
  if (c.st.first_ms && c.now) {
    const double observed = (*c.now - *c.st.first_ms) / 1000.0;
    if (observed >= 0) s = std::min(s, observed);
  }
  return s;
}

std::optional<int64_t> LastProgress(const Context& c, bool count_log_lines) {
  std::optional<int64_t> last = c.attempt ? c.attempt->last_progress_ms : std::nullopt;
  for (int i = 0; i < kSignalCount; ++i) {
    if (static_cast<Signal>(i) == Signal::kLogLine && !count_log_lines) continue;
    auto s = c.st.last_signal_ms[static_cast<size_t>(i)];
    if (s && (!last || *s > *last)) last = s;
  }
  return last;
}

namespace {

State LiveOrOfflineProgress(const Context& c, const Verdict& v, const PhaseBudget& budget) {
  if (!c.opt.live) return State::kInProgress;
  return v.phase_seconds && *v.phase_seconds > budget.normal_s ? State::kSlow : State::kProgressing;
}

Phase JudgedPhase(const Context& c, const AttemptFacts& a) {
  Phase phase = a.phase.value_or(Phase::kLaunch);
  if (auto lag = LaggingPeerPhase(c, a, phase)) phase = *lag;
  if (c.Order(phase) > c.Order(Phase::kWeightLoad) && SilentRankInLoad(c, a))
    phase = Phase::kWeightLoad;
  if (auto slowest = SlowestIndependentEngine(c, a, phase)) phase = *slowest;
  // A failed start failed where its first failing rank was, not where a healthy rank got to.
  std::optional<Phase> failing = a.failing_rank_phase;
  if (failing && !BehindAPeer(c, a, *failing)) failing.reset();
  // The engine said it was ready before the death: every rank was past its own last phase line
  // (vLLM's workers log no ready of their own; the engine core's "init engine ... took" speaks for
  // them), so the start died where it was, not where a worker's lines stopped.
  if (failing && a.engine_ready_ms && a.crash_ms && *a.crash_ms >= *a.engine_ready_ms) {
    failing.reset();
  }
  if (!failing) failing = a.unplaced_frame ? a.unplaced_frame : a.unplaced_peer_phase;
  if (failing && !a.ready && (a.crashed || a.error_after_progress) &&
      c.Order(*failing) < c.Order(phase)) {
    phase = *failing;
  }
  // A phase only opened because the one before it ended is not evidence against frames that name
  // the ended phase: vLLM logs the KV-cache size, then allocates it.
  const bool guessed = a.implicit_after && a.phase && phase == *a.phase;
  const bool pull_back = guessed && a.implicit_frame == a.implicit_after;
  // A pinned end line is printed before the phase's last work: a crash with no frame since is
  // there.
  if (guessed && a.implicit_holds && !a.implicit_frame && !a.ready &&
      (a.crashed || a.error_after_progress)) {
    phase = *a.implicit_after;
  }
  // A peer's frames, in the traceback of its failure after the first rank's, do not move it: the
  // first failing rank's own do.
  const std::string& first_failed = a.failing_rank.empty() ? a.unplaced_rank : a.failing_rank;
  const bool peers_frame =
      !first_failed.empty() && !a.frame_rank.empty() && a.frame_rank != first_failed;
  const std::optional<Phase> frame = peers_frame ? a.failing_frame : a.frame_phase;
  if (frame && !a.ready &&
      (phase == Phase::kLaunch || c.Order(*frame) > c.Order(phase) || pull_back)) {
    phase = *frame;
  } else if (a.opened_after && a.opened_after_frame && a.phase && phase == *a.phase && !a.ready &&
             c.Order(*a.opened_after_frame) > c.Order(*a.opened_after)) {
    // The phase after an ended one is a guess until a line of its own: frames that name a later
    // phase than the ended one place the crash (a compile crash in the profile run after loading).
    phase = *a.opened_after_frame;
  }
  // An error's hint is a guess that a frame or a later error naming the phase it left takes back.
  if (a.error_hint && phase == a.error_hint->to && !a.ready &&
      (a.error_hint->contradicted || frame == a.error_hint->from))
    phase = a.error_hint->from;
  // A compiler's frame where a line began compile and none ended it: the profile run around it (its
  // frames, a worker's "hit an exception" in it) does not move the crash past compile.
  if (a.compile_open && frame == Phase::kCompile && !a.ready &&
      (a.crashed || a.error_after_progress))
    phase = Phase::kCompile;
  phase = WhereTheChildDied(c, a, phase);
  // An error that names where it was raised wins over both (a rule's "pin").
  // A ready line after that death does not move it (another instance answering on the port).
  if (a.pinned_phase && (!a.ready || (a.crashed && !a.pinned_when_ready)) &&
      (a.crashed || a.error_after_progress)) {
    phase = *a.pinned_phase;
  }
  // A start that died is never "crashed in ready": a ready-looking line after the death (an
  // engine's periodic stats while its server failed to bind) does not move where it died, and an
  // error naming where it was raised places a death after a served request (SGLang's warm-up
  // request, which a vision model posts to /v1/chat/completions, then "warmup error").
  if (!a.crashed && a.error_after_progress && a.main_error_kept && a.error_phase && !a.ready &&
      !a.pinned_phase) {
    phase = *a.error_phase;  // the main process failed there; its ranks' later lines do not move it
  } else if (a.crashed && phase == Phase::kReady && a.pinned_phase && a.pinned_when_ready) {
    phase = *a.pinned_phase;
  } else if (a.crashed && phase == Phase::kReady && a.crash_phase &&
             *a.crash_phase != Phase::kReady) {
    phase = *a.crash_phase;
  }
  return BuildingInsideThePhase(a, CompilingBeforeTheNextPhase(c, a, phase));
}

// The latest earlier attempt that `counts`, and where it stood: the phase a loop's starts die in.
template <typename Pred>
const AttemptFacts* LatestAttempt(const Context& c, const AttemptFacts* skip, Pred counts) {
  for (auto it = c.st.attempts.rbegin(); it != c.st.attempts.rend(); ++it) {
    if (&*it != skip && counts(*it) && !EmptyAttempt(&*it)) return &*it;
  }
  return nullptr;
}

template <typename Pred>
std::optional<Phase> LatestAttemptPhase(const Context& c, const AttemptFacts* skip, Pred counts) {
  if (const AttemptFacts* at = LatestAttempt(c, skip, counts)) return JudgedPhase(c, *at);
  return std::nullopt;
}

// The exception a turn died of (a supervisor's "exit code 137, sleeping 10s" after it differs
// from turn to turn), else its last error.
// The first error that names an exception: the root, kept in log order before what it brought
// down (a worker's "CUDA error: unknown error" before vLLM's "Engine core initialization failed",
// which every turn that died of anything ends in).
std::string_view RootError(const AttemptFacts& a) {
  const auto it = std::find_if(a.errors.begin(), a.errors.end(),
                               [](const std::string& e) { return NamesAnException(e); });
  return it != a.errors.end() ? std::string_view(*it) : std::string_view(a.errors.back());
}

// Where a crash loop's last turn died when its own lines say little.
void PlaceLoopTurn(const Context& c, const AttemptFacts& a, Verdict& v) {
  if (a.ended_by_record && a.errors.empty()) {
    // Its end only a record below it says (compose's "Restarting (137)" after the paste was cut):
    // it died after its last line, no earlier than where the turns before it died.
    auto spoke = [](const AttemptFacts& x) { return x.crashed && !x.errors.empty(); };
    if (auto p = LatestAttemptPhase(c, &a, spoke); p && c.Order(*p) > c.Order(v.phase)) {
      v.phase = *p;
    }
    return;
  }
  if (SupervisorOnly(a)) {
    // Its last turns only the supervisor reported: where the last start that spoke died.
    auto spoke = [](const AttemptFacts& x) { return x.crashed && !SupervisorOnly(x); };
    if (auto p = LatestAttemptPhase(c, &a, spoke)) v.phase = *p;
    return;
  }
  if (a.frame_phase || a.pinned_phase || a.errors.empty()) return;
  // An excerpt that keeps only its root error (`kubectl logs | grep`): where an earlier turn's
  // traceback ending in the same error says, or, for a turn with no phase line of its own, where
  // an earlier turn's phase lines had got when it died of that error.
  auto same = [&](const AttemptFacts& x) {
    return x.crashed && (x.frame_phase || x.pinned_phase || (x.phase_line && !a.phase_line)) &&
           !x.errors.empty() && RootError(x) == RootError(a);
  };
  if (auto p = LatestAttemptPhase(c, &a, same); p && c.Order(*p) > c.Order(v.phase)) v.phase = *p;
}

}  // namespace

std::optional<double> KilledAfterStall(const Context& c) {
  const AttemptFacts* a = c.attempt;
  // (The kill's one record, or only the manager's: its exit and its result, "Failed with result
  // 'timeout'".)
  if (a == nullptr) return std::nullopt;
  const bool managers_only =
      !a->errors.empty() && std::all_of(a->errors.begin(), a->errors.end(), [](const auto& e) {
        return std::string_view(e).starts_with("systemd: ");
      });
  if (!a->crashed || a->ready || c.crashed_before > 0 || a->oom_killed ||
      (a->errors.size() != 1 && !managers_only) || a->hits.count("oom_record.killed")) {
    return std::nullopt;
  }
  std::optional<int64_t> kill_ms;
  if (!BareKill(*a, &kill_ms)) return std::nullopt;
  const Phase phase = JudgedPhase(c, *a);
  std::optional<int64_t> last = a->last_progress_ms;
  if (const std::optional<int64_t> since = PhaseSince(*a, phase);
      since && (!last || *since > *last))
    last = since;
  std::optional<int64_t> end = a->crash_ms ? a->crash_ms : a->last_ms;
  if (kill_ms && (!end || *kill_ms > *end)) end = kill_ms;
  if (!last || !end || *end < *last) return std::nullopt;
  const double quiet = Span(c, *last, *end);
  if (quiet <= c.Budget(phase).stall_s) return std::nullopt;
  return quiet;
}

namespace {

// The kernel's record of an OOM kill.
bool KernelOomRecord(std::string_view line) {
  return line.find("invoked oom-killer") != line.npos ||
         line.find("of memory: Killed process") != line.npos ||
         line.find("oom_reaper: reaped") != line.npos || line.find("oom-kill:") != line.npos;
}

}  // namespace

std::optional<double> WaitingAfterOomKill(const Context& c) {
  const AttemptFacts* a = c.attempt;
  if (a == nullptr || !a->crashed || a->ready || a->stopped || a->errors.empty() || !a->crash_ms ||
      !c.now || !std::all_of(a->errors.begin(), a->errors.end(), KernelOomRecord)) {
    return std::nullopt;
  }
  // The engine's own lines went on after the kill, or the writer says it still sits there.
  const bool went_on = a->last_progress_ms && *a->last_progress_ms > *a->crash_ms;
  const PhaseBudget budget = c.Budget(JudgedPhase(c, *a));
  const bool still_there = c.st.reported_wait_s && *c.st.reported_wait_s > budget.stall_s;
  if (!went_on && !still_there) return std::nullopt;
  const int64_t since = went_on ? *a->last_progress_ms : *a->crash_ms;
  if (*c.now < since) return std::nullopt;
  // The log's own clock ends at its last line; the writer's wait is how long it sat after that.
  const double told = still_there && !std::isinf(*c.st.reported_wait_s) ? *c.st.reported_wait_s : 0;
  const double quiet = std::max(Span(c, since, *c.now), told);
  if (quiet <= budget.stall_s) return std::nullopt;
  return quiet;
}

// A start that died of a kill and was a stall: killed after it sat still (a watchdog, kill -9), or
// one of its processes killed by the kernel while the rest waited. The quiet time and its story.
std::optional<std::pair<double, std::string>> StallAroundAKill(const Context& c,
                                                               const PhaseBudget& budget) {
  if (const std::optional<double> quiet = KilledAfterStall(c)) {
    return std::make_pair(
        *quiet, fmt::format("killed after {} without progress (a stall: this phase shows progress "
                            "at least every {})",
                            FormatDuration(*quiet), FormatDuration(budget.stall_s)));
  }
  if (const std::optional<double> quiet = WaitingAfterOomKill(c)) {
    return std::make_pair(
        *quiet, fmt::format("the kernel's OOM killer took one of its processes, and it sat {} "
                            "without progress after that: the others wait for the lost one",
                            FormatDuration(*quiet)));
  }
  return std::nullopt;
}

// A stopped start after two or more that crashed is a loop someone stopped: the loop is the story,
// and where its starts died.
State StoppedLoopOrStalled(const Context& c, const AttemptFacts& a, const PhaseBudget& budget,
                           Verdict& v) {
  const State state = StoppedOrStalled(c, a, budget, v);
  if (state != State::kStopped || c.crashed_before < 2) return state;
  auto crashed = [](const AttemptFacts& x) { return x.crashed; };
  const std::optional<Phase> crash_phase = LatestAttemptPhase(c, &a, crashed);
  // One that got past where the last crash happened no longer failed that way: a plain stop.
  if (crash_phase && c.Order(v.phase) > c.Order(*crash_phase)) return state;
  v.evidence.push_back("the start after the crashed ones was stopped by hand");
  if (crash_phase) v.phase = *crash_phase;
  return State::kCrashLoop;
}

// Every span of the attempt is its ready one, and no server said it was up: no line of a start,
// only requests answered.
bool OnlyServedRequests(const AttemptFacts& a) {
  return a.request_served && !a.http_up &&
         std::all_of(a.timeline.begin(), a.timeline.end(),
                     [](const PhaseSpan& s) { return s.phase == Phase::kReady; });
}

// The attempt's only facts are a supervisor's record of how a run ended (`docker ps -a`'s "Exited
// (137) 5 hours ago"): no line shows a start, nor where it was.
// (Other tools' rows beside it, nvidia-smi's, are no start either.)
bool OnlyARecord(const AttemptFacts& a) {
  if (!a.timeline.empty() || a.errors.empty()) return false;
  auto is_record = [](std::string_view id) {
    return id.starts_with("record.") || id.starts_with("oom_record.") || id.starts_with("backoff.");
  };
  return std::all_of(a.errors.begin(), a.errors.end(), [&](const std::string& line) {
    return std::any_of(a.hits.begin(), a.hits.end(), [&](const auto& h) {
      return is_record(h.first) && (h.second.first_text == line || h.second.last_text == line);
    });
  });
}

// What the same log shows a ready server did next: the start is still judged ready.
void NoteAfterReady(const AttemptFacts& a, Verdict& v) {
  if (a.died_after_ready) {
    v.after_ready = "died";
    v.evidence.push_back("it was up, then died while serving");
  } else if (a.stopped) {
    v.after_ready = "stopped";
    v.evidence.push_back("it was up, then stopped (a stop was asked for)");
  }
}

namespace {

// A loop whose new attempt has said nothing yet, or whose log ends while it is still starting: the
// loop is stuck where its attempts die, not where the next one got to. (That attempt's own lines
// may say little: then where a turn with the same error stood.)
void PlaceLoopBetweenTurns(const Context& c, const AttemptFacts& a, Verdict& v) {
  if (c.st.silent_ends >= 2) {
    v.evidence.push_back(fmt::format(
        "{} starts were begun again with no line saying why they ended (killed, or died "
        "without a word: look for OOM kills in dmesg or the container's exit code)",
        c.st.silent_ends));
  }
  auto ended = [](const AttemptFacts& x) { return x.crashed || x.ended_silently; };
  if (const AttemptFacts* last = LatestAttempt(c, &a, ended)) {
    v.phase = JudgedPhase(c, *last);
    if (last->crashed) PlaceLoopTurn(c, *last, v);
  }
}

}  // namespace

void DecideState(const Context& c, Verdict& v) {
  const AttemptFacts& a = *c.attempt;
  v.phase = JudgedPhase(c, a);
  const PhaseBudget budget = c.Budget(v.phase);
  v.budget_seconds = budget.normal_s;
  const std::optional<int64_t> since = PhaseSince(a, v.phase);
  if (since && c.now) v.phase_seconds = Span(c, *since, *c.now);

  // Time since the last progress of any kind the judge can see (heartbeat lines are not).
  std::optional<int64_t> last = c.opt.live ? LastProgress(c, false) : a.last_progress_ms;
  if (since && (!last || *since > *last)) last = since;
  if (last && c.now) v.stalled_seconds = Span(c, *last, *c.now);

  // A log that ends in a traceback after its last progress line ended in a crash, even where the
  // final "died" line was not pasted; live, so does one that has said nothing since its error for
  // longer than a dying server takes to print its last words.
  const auto& log_line = c.st.last_signal_ms[static_cast<size_t>(Signal::kLogLine)];
  const bool quiet_after_error =
      log_line && c.now && Span(c, *log_line, *c.now) > c.thresholds().error_quiet_s;
  // (An error line that ended nothing by itself, an NCCL WARN, before the writer's stated hang
  // of a given length is where it hangs. "Pending forever" may be a state before the log.)
  const std::optional<double> told = c.st.reported_wait_s;
  const bool hang_told = told && !std::isinf(*told) && *told > budget.stall_s;
  const bool died = a.crashed || a.failed_before_ctrl_c ||
                    (a.ended_by_record && !a.ready && !a.stopped) ||
                    (a.error_after_progress && !a.ready && a.waits_after_error < 2 && !hang_told &&
                     (c.opt.log_complete || quiet_after_error));
  const auto kill_stall = died ? StallAroundAKill(c, budget) : std::nullopt;
  if (a.stopped && !a.ready && !a.crashed && !a.failed_before_ctrl_c) {
    v.state = StoppedLoopOrStalled(c, a, budget, v);
  } else if (kill_stall) {
    v.state = State::kStalled;
    v.stalled_seconds = kill_stall->first;
    v.evidence.push_back(kill_stall->second);
  } else if (died && !a.died_after_ready) {
    v.state = c.crashed_before + 1 >= 2 ? State::kCrashLoop : State::kCrashed;
    if (a.ended_by_record) {
      v.evidence.push_back(
          "a record above the log (`kubectl logs --previous`, `docker ps`) says its container "
          "ended");
    } else if (!a.crashed) {
      v.evidence.push_back("the log ends in an error after the last progress line");
    }
    if (v.state == State::kCrashLoop) PlaceLoopTurn(c, a, v);
  } else if (a.ready || c.health_ok) {
    // The start succeeded; a death while serving is the server's, reported beside it.
    v.state = State::kReady;
    v.phase = Phase::kReady;
    NoteAfterReady(a, v);
  } else if (c.crashed_before >= 2 && (!c.opt.live || c.opt.log_complete || c.between_turns)) {
    v.state = State::kCrashLoop;
    PlaceLoopBetweenTurns(c, a, v);
  } else if (v.stalled_seconds && *v.stalled_seconds > budget.stall_s) {
    v.state = State::kStalled;
  } else if (c.opt.log_complete && a.http_after_engine_ready && !a.server_awaits_startup &&
             v.phase == Phase::kHttpStart) {
    // The engine was ready and its HTTP server starting, a step of milliseconds, when the log
    // ended: the start got there (live, only once every log source has ended). Not once the
    // server process said it waits on its startup hook: the next line, at once, says it is done.
    // Nor where the writer says it sat there far longer ("been like this ~25 min, curl hangs").
    if (ReportedStall(c, budget, v)) {
      v.state = State::kStalled;
      return;
    }
    v.state = State::kReady;
    v.phase = Phase::kReady;
    v.evidence.push_back(
        "the engine said it was ready; the log ends as its HTTP server starts, before the "
        "server's own line");
  } else {
    v.state = ReportedStall(c, budget, v) ? State::kStalled : LiveOrOfflineProgress(c, v, budget);
  }
}

void DecideWithoutPhase(const Context& c, Verdict& v) {
  v.phase = Phase::kLaunch;
  const PhaseBudget budget = c.Budget(Phase::kLaunch);
  v.budget_seconds = budget.normal_s;
  const bool sampled = c.opt.live && c.st.process.sampled;
  if (!sampled) {
    // Offline: an engine that printed anything has started; only a log with no engine line at all
    // is unknown.
    // (collect_env's import line in a bug report's environment is no engine's start.)
    const bool collector_only = c.attempt != nullptr && c.attempt->errors.empty() &&
                                c.attempt->hits.count("generic.collect_env") != 0;
    v.state = !c.st.engine.empty() && !collector_only ? State::kInProgress : State::kUnknown;
    if (c.opt.live && !c.st.engine.empty() && !collector_only) v.state = State::kStarting;
    // The writer says it sat there past any launch's time: it hung before its first phase line.
    const bool judged_at_end = !c.opt.live || c.opt.log_complete;
    if ((v.state == State::kInProgress || v.state == State::kStarting) && judged_at_end &&
        ReportedStall(c, budget, v)) {
      v.state = State::kStalled;  // (its length stays what the log's own times show: none)
    }
    return;
  }
  v.state = State::kStarting;
  std::optional<int64_t> last = LastProgress(c, true);
  if (!last) last = c.st.first_ms;
  if (last && c.now) v.stalled_seconds = Span(c, *last, *c.now);
  if (c.st.first_ms && c.now) v.phase_seconds = Span(c, *c.st.first_ms, *c.now);
  if (c.health_ok) {
    v.state = State::kReady;
    v.phase = Phase::kReady;
  } else if (c.st.exit_status && *c.st.exit_status != 0) {
    v.state = State::kCrashed;
    if (c.attempt) v.errors = c.attempt->errors;
  } else if (v.stalled_seconds && *v.stalled_seconds > budget.stall_s) {
    // No phase line, and no progress signal of any kind (output, CPU, reads, GPU memory,
    // compilers) for longer than a launch may take: as stuck as a start can look.
    v.state = State::kStalled;
  }
}

}  // namespace judge

Verdict Judge::Evaluate(const TrackerState& st, const JudgeOptions& options) const {
  const judge::Context c(st, options, rules_);
  Verdict v;
  v.engine = st.engine;
  v.attempts = st.total_attempts;
  // Each start that crashed before the judged one was followed by a restart: the headline counts
  // them (a supervisor's back-off says its latest run failed too), and so do the attempts shown.
  v.restarts = std::max({st.restarts, st.total_attempts - 1, c.crashed_before, 0});
  v.progress = st.load;
  if (c.empty_attempt && !c.between_turns) {
    judge::DecideWithoutPhase(c, v);
  } else {
    judge::BuildTimeline(c, v);
    judge::DecideState(c, v);
  }
  // A stop (a scheduler's time limit) in a log no engine wrote to says nothing of a start.
  if (v.state == State::kStopped && st.engine.empty()) v.state = State::kUnknown;
  // Nor does a request line in such a log (a proxy's or a gateway's access log): nothing shows
  // which server answered, nor that a start happened.
  if (v.state == State::kReady && st.engine.empty() && c.attempt != nullptr &&
      judge::OnlyServedRequests(*c.attempt)) {
    v.state = State::kUnknown;
  }
  // Nor a supervisor's record of an end alone: the start it ended is not in the log.
  // (A record of restarts, kubectl's "Restart Count: 5", still says the start loops.)
  if (v.state == State::kCrashed && st.engine.empty() && st.attempts.size() == 1 &&
      c.attempt != nullptr && judge::OnlyARecord(*c.attempt)) {
    v.state = State::kUnknown;
  }
  judge::Describe(c, v);
  judge::AddEvidence(c, v);
  // A stopped start names only what slowed it (MatchCauses); the starts that crashed before it
  // still have theirs (a loop someone stopped with Ctrl+C).
  judge::MatchCauses(c, v);
  return v;
}

}  // namespace spinup
