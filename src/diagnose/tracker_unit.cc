// StartupTracker's reading of service-manager events (systemd), and the clock shift.
#include "diagnose/tracker.h"

#include <algorithm>

#include "logs/systemd_message.h"

namespace spinup {

// The manager's facts count as rule hits too, so known causes can ask for them by id.
void StartupTracker::CountUnitHit(const UnitEvent& e, const std::string& text,
                                  std::optional<int64_t> t) {
  std::string_view id = UnitFactId(e);
  if (id.empty()) return;
  auto [it, fresh] = Current().hits.try_emplace(id);
  if (fresh) it->second.first_text = Cap(text, kMaxHitText);
  it->second.count++;
  it->second.quiet_only = false;
  it->second.last_text = Cap(text, kMaxHitText);
  it->second.last_ms = t;
}

namespace {

// TimeoutStartSec ran out: systemd's SIGTERM ended a start that took too long, and the stop the
// server then logged was that kill's, not a person's (a stop job's own timeout is a stop's).
void ForgetStopOfTimedOutStart(AttemptFacts& a) {
  a.stop_requested = false;
  a.stopped = false;
}

// Lines count once one carried a time: those before a journal paste's first entry (the command that
// printed it, a heading) are no run of the unit.
bool RanAsTheUnit(const AttemptFacts& a) {
  return (a.lines > 0 && a.first_ms) || !a.timeline.empty() || !a.errors.empty() || a.ready ||
         a.crashed;
}

// Lines printed only once the stop job began (`docker stop`'s echo of the container's name, the
// server's shutdown lines): the stop's output, no sign of a run the journal shows.
bool OnlyTheStopSpoke(const AttemptFacts& a) {
  return a.stop_job && a.stop_ms && a.first_ms && *a.first_ms >= *a.stop_ms && a.timeline.empty() &&
         a.errors.empty() && !a.ready && !a.crashed;
}

// Lines stamped after the unit's start that comes below them, with no banner, phase line or end
// of their own: `systemctl status`'s tail of the journal pasted above the journal, the same run's
// lines, not a run before it.
bool TailOfThisRun(const AttemptFacts& a, std::optional<int64_t> started) {
  return started && a.first_ms && *a.first_ms > *started && !a.banner && !a.ready && !a.crashed &&
         !a.stopped && a.errors.empty();
}

}  // namespace

// "Started X." after "Starting X..." ends that start job (Type=notify, a start-post step): the
// same start, come up. A simple service logs only "Started X." as it begins.
void StartupTracker::OnUnitStart(const UnitEvent& e, std::optional<int64_t> t) {
  const bool started = e.text.starts_with("Started ");
  if (!state_.attempts.empty()) Current().restart_scheduled = false;
  if (started && start_job_open_ && !state_.attempts.empty() && !Current().crashed &&
      !Current().stopped) {
    start_job_open_ = false;
    return;
  }
  if (state_.attempts.size() == 1 && TailOfThisRun(Current(), t)) {
    // `systemctl status`'s journal tail above `journalctl -u`: lines of the run that starts here.
    ForgetQuote(t, /*keep_hits=*/true);
  } else if (state_.attempts.size() == 1 && Current().stop_job &&
             (!RanAsTheUnit(Current()) || OnlyTheStopSpoke(Current()))) {
    // `systemctl restart`'s stop of a run the journal does not show: this start's stop it is not.
    ForgetQuote(t, /*keep_hits=*/false);
  } else if (state_.attempts.empty() || RanAsTheUnit(state_.attempts.back())) {
    // A start after a failed one with no restart scheduled by systemd in between: a person ran
    // `systemctl start` again (after editing the unit: "Reloading."), not the manager's loop.
    const bool after_failure = !state_.attempts.empty() && state_.attempts.back().crashed;
    NewAttempt(t);
    if (after_failure) Current().manual = true;
  }
  start_job_open_ = !started;
}

void StartupTracker::OnUnitEvent(const UnitEvent& e) {
  before_traceback_.reset();  // the manager's word about the attempt is not taken back with it
  Touch(e.time_ms);
  const auto t = e.time_ms ? e.time_ms : now_ms_;
  auto died = [&](std::string why) {
    AttemptFacts& a = Current();
    if (a.stop_requested) {
      a.stopped = true;  // asked to stop: how it exits is not a crash
      return;
    }
    if (!a.crashed) {
      a.crashed = true;
      state_.crashed_attempts++;
      a.crash_phase = a.phase;
    }
    NoteError(a, Cap(why, 400));
  };
  const std::string text = e.text.empty() ? e.unit : e.text;
  CountUnitHit(e, text, t);
  switch (e.kind) {
    case UnitEvent::Kind::kStarting:
      OnUnitStart(e, t);
      break;
    case UnitEvent::Kind::kProcessExited:
      if (!e.clean) {
        died("systemd: " + (e.text.empty() ? "main process exited, code=" + e.exit_code +
                                                 ", status=" + std::to_string(e.exit_status)
                                           : e.text));
      }
      break;
    case UnitEvent::Kind::kFailed:
      if (e.result == "start-limit-hit" && state_.attempts.size() > 1 &&
          !RanAsTheUnit(state_.attempts.back())) {
        // systemd refused the restart it had just scheduled: that start never ran.
        state_.attempts.pop_back();
        state_.total_attempts--;
        state_.restarts = std::max(state_.restarts - 1, 1);
        break;
      }
      // (WatchdogSec running out during the start is the same verdict: no sign of life in time.)
      if ((e.result == "timeout" || e.result == "watchdog") && !Current().stop_job) {
        ForgetStopOfTimedOutStart(Current());
        Current().start_timed_out = true;
      }
      died("systemd: " + (e.text.empty() ? "failed with result '" + e.result + "'" : e.text));
      // The start limit is hit only after repeated failed starts: restarted at least once.
      if (e.result == "start-limit-hit") state_.restarts = std::max(state_.restarts, 1);
      break;
    case UnitEvent::Kind::kOomKilled:
      NoteError(Current(), Cap("systemd: " + text, 400));
      Current().oom_killed = true;
      break;
    case UnitEvent::Kind::kStopping: {
      // A stop job (systemctl stop or restart): the start ends stopped, whether or not its exit is
      // logged (a clean one is not: "Deactivated successfully").
      AttemptFacts& a = Current();
      if (!a.stop_requested) a.stop_ms = t;
      a.stop_requested = true;
      a.stop_job = true;
      if (!a.crashed) a.stopped = true;
      break;
    }
    case UnitEvent::Kind::kLeftOverProcess:
      break;  // a fact for the causes (CountUnitHit), not a step of the start
    case UnitEvent::Kind::kRestartScheduled: {
      // The same counter again with nothing since: the line printed twice, one restart.
      if (e.restarts > 0 && e.restarts == state_.restarts && !state_.attempts.empty() &&
          !RanAsTheUnit(state_.attempts.back()))
        break;
      // A missing counter still counts one more restart.
      state_.restarts = std::max(state_.restarts + (e.restarts > 0 ? 0 : 1), e.restarts);
      // The attempt before a restart ended, whatever it had printed (often nothing decisive).
      if (state_.attempts.empty() || !state_.attempts.back().crashed) died("systemd: " + text);
      if (!state_.attempts.empty()) state_.attempts.back().stop_requested = false;
      NewAttempt(t);
      Current().restart_scheduled = true;
      break;
    }
  }
}

void StartupTracker::ShiftTimes(int64_t d) {
  auto mv = [d](std::optional<int64_t>& t) {
    if (t) *t += d;
  };
  before_traceback_.reset();
  mv(now_ms_);
  mv(stamped_ms_);
  mv(state_.first_ms);
  mv(state_.last_ms);
  for (auto& t : state_.last_signal_ms) mv(t);
  for (auto& a : state_.attempts) {
    for (auto* t :
         {&a.start_ms, &a.first_ms, &a.first_stamped_ms, &a.last_ms, &a.last_progress_ms,
          &a.last_heartbeat_ms, &a.stop_ms, &a.crash_ms, &a.first_line_ms, &a.engine_ready_ms}) {
      mv(*t);
    }
    for (auto& r : a.ranks) mv(r.since_ms);
    for (auto& sp : a.timeline) {
      mv(sp.start_ms);
      mv(sp.end_ms);
      mv(sp.end_earliest_ms);
    }
    for (auto& b : a.bars) {
      mv(b.first_ms);
      mv(b.last_advance_ms);
    }
    for (auto& [id, hit] : a.hits) mv(hit.last_ms);
  }
}

}  // namespace spinup
