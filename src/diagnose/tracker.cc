#include "diagnose/tracker.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <utility>

#include "base/assign.h"
#include "diagnose/model_size.h"
#include "diagnose/tracker_spans.h"

namespace spinup {
namespace {

// A line more than this behind the latest one begins another paste: a tool's output from months
// later above the log (collect_env's "Automatically detected platform"), not a clock that stepped
// back. The log's latest time is then this one's, so nothing lasts from the other paste's clock.
constexpr int64_t kPasteStepBackMs = 6 * 3600 * 1000LL;
// Supervisors start a failed server again within minutes (systemd's RestartSec, the kubelet's
// back-off of at most 5 minutes, Docker's restart delay): a start begun longer than this after the
// last one died, with no restart counted, was begun by a person after changing something.
constexpr int64_t kRetryByHandGapMs = 15 * 60 * 1000LL;

// Takes `t` as the latest time: later than `latest`, or far enough behind it to begin a paste.
void TakeLatest(std::optional<int64_t>& latest, int64_t t) {
  if (!latest || t > *latest || *latest - t > kPasteStepBackMs) latest = t;
}

// Takes `t` as the first time: none yet, or the first one was another paste's, long after it.
void TakeFirst(std::optional<int64_t>& first, int64_t t) {
  if (!first || *first - t > kPasteStepBackMs) first = t;
}

constexpr std::array<std::string_view, kSignalCount> kSignalNames = {
    "log_line", "log_progress", "read_bytes",       "residency",
    "cpu",      "gpu_memory",   "compiler_children"};

}  // namespace

using tracker_internal::OpenSpan;
using tracker_internal::PushSpan;

std::string_view SignalName(Signal s) { return kSignalNames[static_cast<size_t>(s)]; }

StartupTracker::StartupTracker() {
  for (int i = 0; i < kPhaseCount; ++i) order_.push_back(static_cast<Phase>(i));
  IndexOrder();
}

// Order() by table: it is asked on most phase events (Hint, RestartedWithoutBanner). A phase the
// order lists twice keeps its first place, as the search did.
void StartupTracker::IndexOrder() {
  for (int i = 0; i < kPhaseCount; ++i) order_index_[static_cast<size_t>(i)] = i - kPhaseCount;
  for (size_t i = order_.size(); i-- > 0;) {
    const auto p = static_cast<size_t>(order_[i]);
    if (p < order_index_.size()) order_index_[p] = static_cast<int>(i);
  }
}

void StartupTracker::SetEngine(std::string_view engine) { state_.engine = std::string(engine); }

void StartupTracker::SetPhaseOrder(std::vector<Phase> order) {
  if (!order.empty()) order_ = std::move(order);
  IndexOrder();
}

int StartupTracker::Order(Phase p) const {
  const auto i = static_cast<size_t>(p);
  if (i < order_index_.size()) return order_index_[i];
  // Phases the engine's order omits sort by the enum, between their neighbours.
  return static_cast<int>(p) - kPhaseCount;
}

std::optional<Phase> StartupTracker::Next(Phase p) const {
  for (size_t i = 0; i + 1 < order_.size(); ++i) {
    if (order_[i] == p) return order_[i + 1];
  }
  return std::nullopt;
}

AttemptFacts& StartupTracker::Current() {
  if (state_.attempts.empty()) NewAttempt(now_ms_);
  return state_.attempts.back();
}

void StartupTracker::NewAttempt(std::optional<int64_t> t) {
  if (!state_.attempts.empty()) {
    // An attempt that ended in an error after its last progress and was then started again died
    // there, whether or not its final "died" line was pasted.
    AttemptFacts& prev = state_.attempts.back();
    std::sort(prev.stamps.begin(), prev.stamps.end());  // the next attempt looks its lines up
    if (prev.error_after_progress && !prev.crashed && !prev.ready && !prev.stopped) {
      prev.crashed = true;
      prev.crash_phase = prev.phase;
      state_.crashed_attempts++;
    } else if (!prev.crashed && !prev.ready && !prev.stopped && prev.errors.empty() &&
               std::any_of(prev.timeline.begin(), prev.timeline.end(),
                           [](const PhaseSpan& s) { return s.phase != Phase::kLaunch; })) {
      prev.ended_silently = true;
      state_.silent_ends++;
    }
  }
  AttemptFacts a;
  if (state_.attempts.size() >= kMaxAttempts) {
    // Keep the first attempt and the latest ones; the middle of a long crash loop adds nothing.
    // The new attempt takes the dropped one's hit table, emptied, its buffers kept.
    a.hits = std::move(state_.attempts[1].hits);
    a.hits.Clear();
    state_.attempts.erase(state_.attempts.begin() + 1);
  }
  a.index = ++state_.total_attempts;
  a.start_ms = t;
  // (The writer's word is spent on this start, whatever else makes it one by hand.)
  const bool said_by_hand = std::exchange(retry_by_hand_, false);
  if (!state_.attempts.empty()) {
    const AttemptFacts& prev = state_.attempts.back();
    a.manual = said_by_hand || (prev.crashed && state_.restarts == 0 && t && prev.last_ms &&
                                *t - *prev.last_ms > kRetryByHandGapMs);
  }
  state_.attempts.push_back(std::move(a));
}

TrackedRank& StartupTracker::Rank(AttemptFacts& a, const std::string& rank) {
  for (auto& r : a.ranks) {
    if (r.rank == rank) return r;
  }
  if (a.ranks.size() >= kMaxRanks) return a.ranks.back();  // bounded: fold extras into the last
  TrackedRank r;
  r.rank = rank;
  r.since_ms = a.start_ms ? a.start_ms : a.first_ms;
  a.ranks.push_back(std::move(r));
  return a.ranks.back();
}

bool StartupTracker::UndatedAt(std::optional<int64_t> t) const {
  if (event_ == nullptr || event_->time_ms || event_->rank != stamped_rank_ || !t ||
      t != UntimedAt())
    return false;
  const auto k = event_->kind;
  return k == LogEvent::Kind::kPhaseBegin || k == LogEvent::Kind::kPhaseEnd ||
         k == LogEvent::Kind::kInfo || k == LogEvent::Kind::kProgress;
}

void StartupTracker::Touch(std::optional<int64_t> t) {
  if (!t) return;
  TakeLatest(now_ms_, *t);
  const bool first = !state_.first_ms;
  if (first || *t < *state_.first_ms) state_.first_ms = t;
  TakeLatest(state_.last_ms, *t);
  if (first && running_for_s_) NoteRunningFor(*std::exchange(running_for_s_, std::nullopt));
}

void StartupTracker::Mark(Signal s, std::optional<int64_t> t) {
  if (!t) return;
  auto& slot = state_.last_signal_ms[static_cast<size_t>(s)];
  if (!slot || *t > *slot) slot = t;
}

void StartupTracker::Hint(AttemptFacts& a, const std::string& rank, Phase phase,
                          std::optional<int64_t> t, bool from_error) {
  if (a.ready) return;
  // A rank seen for the first time with a hint of an earlier phase than the attempt's (a late
  // main-process line) still only tells us where that rank is.
  PhaseSpan* open = OpenSpan(a, rank);
  // A line of the phase a rank was only guessed to be in (opened because the one before ended)
  // shows it there: the span becomes its own (vLLM's "Available KV cache memory" after compile).
  const bool own_line = !from_error && open && open->implicit && open->phase == phase &&
                        event_ != nullptr && event_->text != implicit_text_;
  for (const auto& r : a.ranks) {
    if (r.rank == rank && Order(phase) <= Order(r.phase) && !own_line) {
      if (from_error && a.error_hint && a.error_hint->to == r.phase && a.error_hint->from == phase)
        a.error_hint->contradicted = true;
      // Another line of a phase only hints have shown: it ran until here at least.
      if (open && open->hinted && open->phase == phase && t) open->last_hint_ms = t;
      return;
    }
  }
  const bool placed = open != nullptr;
  const bool continues = open != nullptr && open->phase == phase;
  if (from_error && placed && !continues && !a.error_hint) a.error_hint = {open->phase, phase};
  BeginPhase(a, rank, phase, t, /*explicit_begin=*/false);
  PhaseSpan* now_open = OpenSpan(a, rank);  // (`open` may have moved)
  if (now_open == nullptr || now_open->phase != phase) return;
  if (from_error && !placed) now_open->implicit = true;
  if (!continues) now_open->hinted = true;
  if (now_open->hinted) now_open->last_hint_ms = t;
}

void StartupTracker::ForgetUnplaced(AttemptFacts& a) {
  a.unplaced_rank.clear();
  a.unplaced_frame.reset();
  a.unplaced_peer_phase.reset();
}

void StartupTracker::NoteFailingRank(AttemptFacts& a, const std::string& rank) {
  if (a.failing_rank_phase) return;
  // Only a named rank inside a phase it began itself and has not ended: an engine core that merely
  // relays "failed to start" has no phase of its own beyond launch, and a rank whose later phase
  // is shown only by rank 0's progress bar has ended its last one.
  // A rank that failed first, between its phases, failed first: a peer's later failure (a NCCL
  // error because the first died) names no failing rank.
  if (rank.empty() || (!a.unplaced_rank.empty() && a.unplaced_rank != rank)) return;
  const PhaseSpan* open = OpenSpan(a, rank);
  if (open == nullptr || open->implicit || open->ended || open->phase == Phase::kLaunch) {
    if (a.unplaced_rank.empty()) a.unplaced_rank = rank;
    return;
  }
  a.failing_rank = rank;
  a.failing_rank_phase = open->phase;
}

// Ends `open` at `end`. An implicit span (opened only because the phase before it ended) that
// lasted no time says nothing: it is dropped.
void StartupTracker::CloseSpan(AttemptFacts& a, PhaseSpan* open, std::optional<int64_t> end) {
  open->end_ms = end;
  open->ended = true;
  open->end_undated = UndatedAt(end);
  NoteUndated(end);
  if (open->implicit && open->start_ms && end && *end <= *open->start_ms) {
    a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
  }
}

void StartupTracker::BeginPhase(AttemptFacts& a, const std::string& rank, Phase phase,
                                std::optional<int64_t> t, bool explicit_begin) {
  TrackedRank& r = Rank(a, rank);
  PhaseSpan* open = OpenSpan(a, rank);
  // A hint on the very line that ended the previous phase only says which phase follows it
  // (vLLM's "Model loading took ..." is followed by the profile run, not by torch.compile, which
  // logs its own begin): the new phase is still implicit, with no line of its own.
  const bool follows = !explicit_begin && open && open->implicit && open->phase != phase &&
                       event_ != nullptr && event_->text == implicit_text_;
  auto set_attempt_phase = [&](Phase p) {
    // Any rank's line of the guessed phase (the capture's bar, printed with no rank) shows it
    // running: the ended phase's last work is over.
    if (a.phase && p == *a.phase && !follows && event_ != nullptr && event_->text != implicit_text_)
      a.implicit_holds = false;
    if (explicit_begin || !a.phase || Order(p) > Order(*a.phase)) {
      a.phase = p;
      if (follows) return;
      a.implicit_after.reset();
      a.implicit_frame.reset();
      a.opened_after.reset();
      a.opened_after_frame.reset();
    }
  };
  double carried = 0;  // the download's seconds in the load's own figure
  if (explicit_begin && rank == a.failing_rank) a.failing_rank_phase.reset();
  if (explicit_begin && rank == a.unplaced_rank) ForgetUnplaced(a);
  if (open) {
    if (open->phase == phase) {
      // A repeated begin (draft model, second print): the phase simply continues; an implicit
      // span becomes explicit from here.
      if (open->implicit) {
        open->implicit = false;
        if (a.phase == phase) {  // a line of the phase itself
          a.implicit_after.reset();
          a.implicit_frame.reset();
          a.opened_after.reset();
          a.opened_after_frame.reset();
        }
        if (t && (!open->start_ms || *open->start_ms > *t)) open->start_ms = t;
      }
      // A step of it with a time of its own is progress ("Downloaded object" for each file).
      if (explicit_begin && t && event_ && event_->time_ms && !event_->time_inferred) {
        a.last_progress_ms = t;
      }
      r.phase = phase;
      r.phase_done = false;
      set_attempt_phase(phase);
      return;
    }
    if (open->within_load && phase == Phase::kWeightLoad) carried = DownloadSeconds(*open, t);
    CloseSpan(a, open, t);
  } else if (a.timeline.empty() && a.banner && phase != Phase::kLaunch && a.start_ms && t &&
             *t > *a.start_ms) {
    // The start's banner opened its launch: the time until its first phase line (imports,
    // config, a Ray cluster waiting for its workers) was the launch's, not nobody's.
    PhaseSpan launch;
    launch.rank = rank;
    launch.phase = Phase::kLaunch;
    launch.start_ms = a.start_ms;
    launch.end_ms = t;
    launch.ended = true;
    launch.start_undated = UndatedAt(a.start_ms);
    launch.end_undated = UndatedAt(t);
    PushSpan(a, std::move(launch));
  }
  PhaseSpan span;
  span.rank = rank;
  span.phase = phase;
  span.start_ms = t;
  span.implicit = follows;
  span.carved_s = carried;
  span.start_undated = UndatedAt(t);
  NoteUndated(t);
  PushSpan(a, std::move(span));
  r.phase = phase;
  r.since_ms = t;
  r.phase_done = false;
  set_attempt_phase(phase);
  a.last_progress_ms = t ? t : a.last_progress_ms;
}

// The end of a phase whose begin we did not see (an excerpt, or a rank that prints only the end).
void StartupTracker::EndUnseenPhase(AttemptFacts& a, const std::string& rank, Phase phase,
                                    PhaseSpan* open, std::optional<int64_t> t,
                                    std::optional<double> elapsed) {
  std::optional<int64_t> start;
  if (!elapsed) {
    // The phase's own bar may say how long it ran ("[1:09:28<00:00").
    for (const auto& b : a.bars) {
      if (b.phase == phase && b.elapsed_s && (!elapsed || *b.elapsed_s > *elapsed)) {
        elapsed = b.elapsed_s;
      }
    }
  }
  if (elapsed && t) start = *t - static_cast<int64_t>(*elapsed * 1000);
  // A phase only lines inside it showed (vLLM 0.4's "Found nccl from library") ran until its last
  // such line, as far as the log says; the phase right after it, whose end this is, ran from there
  // (vLLM 0.4 logs no line when it starts loading a local checkpoint). Not a phase further on: a
  // process waiting on others went through the phases between.
  if (!start && open && open->hinted && open->last_hint_ms && Next(open->phase) == phase && t &&
      *open->last_hint_ms <= *t) {
    start = open->last_hint_ms;
  }
  if (open) {
    // The open span ends where this one is known to have begun, else at this line (the ended
    // phase's start is then unknown: an excerpt).
    CloseSpan(a, open, start ? start : t);
  }
  PhaseSpan span;
  span.rank = rank;
  span.phase = phase;
  span.start_ms = start;
  span.end_ms = t;
  span.reported_seconds = elapsed;
  span.ended = true;
  PushSpan(a, std::move(span));
}

void StartupTracker::EndPhase(AttemptFacts& a, const std::string& rank, Phase phase,
                              std::optional<int64_t> t, std::optional<double> elapsed) {
  if (rank == a.failing_rank) a.failing_rank_phase.reset();
  if (rank == a.unplaced_rank) {
    ForgetUnplaced(a);
  } else if (!a.unplaced_rank.empty() && !a.unplaced_peer_phase) {
    a.unplaced_peer_phase = phase;
  }
  TrackedRank& r = Rank(a, rank);
  PhaseSpan* open = OpenSpan(a, rank);
  if (open && open->within_load && phase == Phase::kWeightLoad) {
    BeginPhase(a, rank, phase, DownloadEnd(a, *open, t), /*explicit_begin=*/true);
    open = OpenSpan(a, rank);
  }
  if (open && open->phase == phase) {
    open->end_ms = t;
    open->ended = true;
    open->implicit = false;
    open->end_undated = UndatedAt(t);
    NoteUndated(t);
    open->reported_seconds = elapsed;
    if (elapsed && open->carved_s > 0)
      open->reported_seconds = std::max(0.0, *elapsed - open->carved_s);
    if (elapsed && t && !open->start_ms) {
      open->start_ms = *t - static_cast<int64_t>(*elapsed * 1000);
    }
  } else {
    // A rank already past the phase just repeats what it said.
    if (Order(r.phase) > Order(phase) && r.since_ms) return;
    EndUnseenPhase(a, rank, phase, open, t, elapsed);
  }
  // What follows an ended phase, until its own begin line (SGLang JIT after the memory pool).
  r.phase = phase;
  r.since_ms = t;
  r.phase_done = true;
  a.last_progress_ms = t ? t : a.last_progress_ms;
  if (auto next = Next(phase); next && *next != Phase::kReady) {
    PhaseSpan span;
    span.rank = rank;
    span.phase = *next;
    span.start_ms = t;
    span.implicit = true;
    span.start_undated = UndatedAt(t);
    PushSpan(a, std::move(span));
    implicit_text_ = event_ != nullptr ? event_->text : std::string();
    r.phase = *next;
    r.phase_done = false;
    if (!a.phase || Order(*next) >= Order(*a.phase) || *a.phase == phase) {
      a.phase = *next;
      // An end line that reports how long the phase took says its work is over; one that does not
      // may precede the phase's last work (vLLM logs the KV-cache size, then allocates it).
      if (elapsed) {
        a.implicit_after.reset();
      } else {
        a.implicit_after = phase;
      }
      a.implicit_holds = !elapsed && event_ != nullptr && event_->pinned;
      a.implicit_frame.reset();
      a.opened_after = phase;
      a.opened_after_frame.reset();
    }
  } else if (!a.phase || Order(phase) > Order(*a.phase)) {
    a.phase = phase;
  }
}

// Lines without a time, read offline, are dated at the latest time seen; those that began or ended
// a span may have come any time before the next stamped line. Where the last stamped line was the
// same process's, it said what ran then, and nothing says it stopped sooner: the spans they began
// start, and those they ended end, at the next stamp. (Triton's stamped
// "TRITONBACKEND_ModelInitialize", then TensorRT-LLM's unstamped engine and KV-cache lines, then
// minutes later "successfully loaded": the minutes went to loading the engine, not to sizing the KV
// cache.)
void StartupTracker::NoteUndated(std::optional<int64_t> t) {
  if (UndatedAt(t)) undated_at_ = t;
}

void StartupTracker::DateUndated(std::optional<int64_t> t) {
  if (!undated_at_ || !t || *t <= *undated_at_ || state_.attempts.empty()) return;
  // A ready dated back to the start's last progress: what came before it ended by then (uvicorn's
  // unstamped lines, then the first stamped line minutes later, a request's error).
  int64_t to = *t;
  for (const PhaseSpan& s : Current().timeline) {
    if (s.phase == Phase::kReady && s.start_ms && *s.start_ms >= *undated_at_) {
      to = std::min(to, *s.start_ms);
    }
  }
  for (PhaseSpan& s : Current().timeline) {
    if (s.start_undated && s.start_ms == undated_at_) s.start_ms = to;
    if (s.end_undated && s.end_ms == undated_at_) {
      s.end_earliest_ms = s.end_ms;
      // A download ran at least as long as its longest file's bar says it did, whenever that bar
      // was printed (untimed bars first seen at 100%: "[03:48<00:00").
      if (s.phase == Phase::kDownload && s.start_ms) {
        for (const BarState& b : Current().bars) {
          if (b.phase != Phase::kDownload || !b.elapsed_s) continue;
          const int64_t by_bar = *s.start_ms + static_cast<int64_t>(*b.elapsed_s * 1000);
          if (by_bar > *s.end_earliest_ms) s.end_earliest_ms = std::min(by_bar, to);
        }
      }
      s.end_ms = to;
    }
    s.start_undated = s.end_undated = false;
  }
  undated_at_.reset();
}

void StartupTracker::OnLogActivity(std::optional<int64_t> time_ms, bool own_time, bool reading) {
  if (replay_until_ms_ && (!time_ms || *time_ms <= *replay_until_ms_)) return;  // see Replayed
  DateUndated(time_ms);
  Touch(time_ms);
  auto t = time_ms ? time_ms : UntimedAt();
  Mark(Signal::kLogLine, t);
  state_.lines++;
  AttemptFacts& a = Current();
  if (reading && !a.first_ms) {
    now_from_reading_ = !stamped_ms_;
    return;
  }
  a.lines++;
  if (time_ms && own_time) {
    TakeFirst(a.first_stamped_ms, *time_ms);
    stamped_ms_ = time_ms;  // a line no rule names still dates the untimed lines after it
    if (!reading) TakeLatest(latest_stamped_ms_, *time_ms);
    SettleStopTime(a, *time_ms);
    NoteServerNeverUp(a, time_ms);
  }
  if (t) {
    TakeFirst(a.first_ms, *t);
    TakeLatest(a.last_ms, *t);
  }
}

void StartupTracker::NoteError(AttemptFacts& a, std::string_view line) {
  if (!a.errors.empty() && a.errors.back() == line) return;
  if (a.errors.size() >= kMaxErrors) a.errors.erase(a.errors.begin() + 4);  // keep first 4
  a.errors.emplace_back(line);
}

void StartupTracker::NoteStampedLine(const LogEvent& e) {
  DateUndated(e.time_ms);
  if (stamped_rank_ != e.rank) stamped_rank_ = e.rank;
  stamped_ms_ = e.time_ms;
  TakeLatest(latest_stamped_ms_, *e.time_ms);
}

void StartupTracker::OnLogEvent(const LogEvent& e) {
  if (foreign_line_) {
    // The rest of a client's exception line (its "...Error:" is an exception to every rule).
    if (e.line_no == *foreign_line_ && e.kind != LogEvent::Kind::kForeign) return;
    foreign_line_.reset();
  }
  if (Replayed(e) || ViewerInterrupted(e)) return;
  if (!e.time_inferred && e.time_ms) NoteStampedLine(e);
  Touch(e.time_ms);
  in_report_ = e.in_report;
  fences_ = e.fences;
  event_quoted_ = e.quoted;
  if (e.rule_id == "generic.k8s_previous_log") {
    previous_log_ = true;
    Current().ended_by_record = true;
    stamped_at_previous_log_ = Current().stamped_lines;
  }
  if (e.rule_id == "generic.collect_env") ForgetCollectorImport();
  const auto t = e.time_ms ? e.time_ms : UntimedAt();
  Mark(Signal::kLogLine, t);
  state_.lines++;
  // A banner printed twice in a row is read as one: the copy is a plain line.
  const bool banner = e.kind == LogEvent::Kind::kAttemptStart && !RepeatedBanner(e);
  if (pending_prompt_) ResolvePendingPrompt(e);
  if (pending_banner_ && (banner || e.kind != LogEvent::Kind::kAttemptStart) && !EvidenceOnly(e))
    ResolvePendingBanner(e);
  if (banner) {
    StartAttempt(e, t);
    // A prompt waiting for its start's first line belongs to no attempt yet.
    if (pending_prompt_ && IsCommandLine(e.rule_id)) return;
  }
  if (RestartedWithoutBanner(e, t)) RestartWithoutBanner(e, t);
  AttemptFacts& a = Current();
  ++(e.quoted ? a.quoted_events : a.own_events);
  if (e.rule_id == "generic.faulthandler_stack") {
    innermost_first_ = true;
    innermost_placed_ = false;
  } else if (e.kind != LogEvent::Kind::kFrame && e.kind != LogEvent::Kind::kInfo) {
    innermost_first_ = false;  // the dump is over
  }
  if (!FollowTraceback(a, e)) return;
  NoteFirstLine(a, e);
  if (OpensEntryTraceback(e)) a.entry_tracebacks++;
  a.lines++;
  if (t) {
    TakeFirst(a.first_ms, *t);
    TakeLatest(a.last_ms, *t);
    TakeFirst(a.start_ms, *t);
  }
  // A kill after a stop was asked for is the stop's (docker's SIGKILL after its grace period, a
  // launcher killing its own tree): no record of a memory kill.
  if (!e.rule_id.empty() && !(a.stop_requested && e.rule_id.starts_with("oom_record.")))
    CountHit(a, e, t);
  NoteStamp(a, e);
  ApplyLogEvent(a, e, t);
  NoteJitInside(a, e, t);
  // A worker node's own "done" line (SGLang's scheduler ready): it starts no server of its own,
  // or one that logs nothing (its dummy health check); nor does an engine inside a script.
  state_.in_process = state_.in_process || e.in_process;
  const bool no_server = a.node_rank >= 1 || state_.in_process;
  if (e.node_ready && no_server && !a.ready && !a.crashed && !a.stopped) OnReady(a, e, t);
  if (e.phase && *e.phase == Phase::kHttpStart && e.kind == LogEvent::Kind::kPhaseEnd) {
    a.http_up = true;
    // A node other than the head of a multi-node start (SGLang's node_rank=1) sends no warm-up
    // request and serves no client: its server up is that node's start done.
    if (a.node_rank >= 1 && !a.ready && !a.crashed && !a.stopped) OnReady(a, e, t);
  }
  // The rank's last line (Rank() keeps the names unique: the first one found is the only one).
  for (auto& r : a.ranks) {
    if (r.rank == e.rank) {
      AssignBytes(r.last_text, std::string_view(e.text).substr(0, kMaxHitText));
      break;
    }
  }
}

RuleHit* StartupTracker::FindHit(AttemptFacts& a, const std::string& id, std::string_view text) {
  if (a.hits.size() >= 4096) {
    auto it = a.hits.find(id);
    return it == a.hits.end() ? nullptr : &it->second;
  }
  auto [it, fresh] = a.hits.try_emplace(id);
  if (fresh) AssignBytes(it->second.first_text, text.substr(0, kMaxHitText));
  return &it->second;
}

void StartupTracker::CountHit(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  RuleHit* hit = FindHit(a, e.rule_id, e.text);
  if (hit == nullptr) return;
  hit->count++;
  hit->quiet_only = hit->quiet_only && e.quiet_level;
  AssignBytes(hit->last_text, std::string_view(e.text).substr(0, kMaxHitText));
  hit->last_ms = t;
  if (e.rule_id == "generic.nccl_watchdog") NoteWatchdogRank(a, e.text);
  if (e.rule_id == "trtllm.prefetch") {  // the loader states the checkpoint's size
    if (const std::optional<uint64_t> bytes = CheckpointBytesStated(e.text))
      NoteCheckpointEstimate(*bytes);
  }
}

}  // namespace spinup
