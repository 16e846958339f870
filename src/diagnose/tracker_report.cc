// What a report's writer states beside the log: how long the pod had run, how long it sat, what
// made it start, how long the command ran; and a supervisor's restart count pasted beside it.
#include <algorithm>
#include <cmath>

#include "diagnose/tracker.h"

namespace spinup {

void StartupTracker::NoteRunningFor(double seconds) {
  if (!state_.first_ms && seconds >= 0) running_for_s_ = seconds;  // read at the first stamp
  if (state_.first_ms && state_.attempts.size() <= 1 && state_.restarts == 0 && seconds >= 0 &&
      seconds < 366.0 * 86400) {
    Touch(*state_.first_ms + static_cast<int64_t>(seconds * 1000));
  }
}

void StartupTracker::NoteReportedWait(double seconds) {
  // A person's sentence about the wait says more than the command's whole run.
  if (!state_.reported_wait_s || seconds > *state_.reported_wait_s || state_.reported_wait_is_run)
    state_.reported_wait_s = seconds;
  state_.reported_wait_is_run = false;
  if (!std::isinf(seconds) && (!state_.stated_wait_s || seconds > *state_.stated_wait_s))
    state_.stated_wait_s = seconds;
  // The engine said it was ready and the log ends there; the writer waited longer than a server
  // takes to bind after it, and nothing of the server came: the HTTP start hung (as when the
  // log's own clock goes on, NoteServerNeverUp).
  if (!state_.attempts.empty()) {
    AttemptFacts& a = state_.attempts.back();
    if (server_start_wait_s_ > 0 && seconds > server_start_wait_s_ && a.ready &&
        a.engine_only_ready && a.serves_http && !a.http_up && !a.request_served &&
        !a.stop_requested) {
      UndoEngineReady(a);
    }
  }
}

// The writer says the log below is another try of theirs ("re-ran with NCCL_DEBUG=WARN:"): the next
// start is theirs, not a supervisor's turn. Before any start it says nothing of one.
void StartupTracker::NoteRetryByHand() {
  if (!state_.attempts.empty() && Current().lines > 0) retry_by_hand_ = true;
}

void StartupTracker::NoteWorksWith(std::string_view sentence) {
  constexpr size_t kMaxSentences = 8, kMaxSentenceBytes = 400;
  if (state_.works_with.size() < kMaxSentences) {
    state_.works_with.emplace_back(sentence.substr(0, kMaxSentenceBytes));
  }
}

void StartupTracker::NoteCommandTime(double seconds) {
  // Only the log's own stamps date the run: a replayed or live log's arrival times do not.
  const bool stamped = std::any_of(state_.attempts.begin(), state_.attempts.end(),
                                   [](const AttemptFacts& a) { return a.stamped_lines > 0; });
  if (state_.first_ms && stamped) {
    NoteRunningFor(seconds);
    // The command ended then: a stop with no time of its own (^C) came about then, not at the
    // line before it.
    const int64_t end = *state_.first_ms + static_cast<int64_t>(seconds * 1000);
    if (!state_.attempts.empty() && seconds < 366.0 * 86400) {
      AttemptFacts& a = state_.attempts.back();
      if (a.stop_time_carried && a.stop_ms && *a.stop_ms < end) a.stop_ms = end;
    }
  } else if (!state_.reported_wait_s && seconds >= 0) {
    state_.reported_wait_s = seconds;
    state_.reported_wait_is_run = true;
  }
}

// A supervisor's count of restarts (Kubernetes' RESTARTS, systemd's counter), or its back-off.
void StartupTracker::OnRestarts(AttemptFacts& a, const LogEvent& e) {
  state_.restarts =
      std::max<int>(state_.restarts, static_cast<int>(std::min<int64_t>(e.progress_n, 1 << 20)));
  if (e.rule_id.rfind("backoff.", 0) != 0) return;
  state_.backoff_failed = true;
  // A supervisor backing off below a run's lines (`kubectl get events`' "Back-off restarting
  // failed container", a pod in CrashLoopBackOff): nothing runs now, so the run the log shows has
  // ended, with or without a word.
  if ((a.banner || !a.timeline.empty()) && !a.ready && !a.crashed && !a.stopped)
    a.ended_by_record = true;
}

}  // namespace spinup
