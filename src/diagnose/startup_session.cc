#include "diagnose/startup_session.h"

#include <algorithm>
#include <cstdlib>

#include "logs/log_stream.h"
#include "logs/systemd_message.h"

namespace spinup {

struct StartupSession::Source {
  std::unique_ptr<LogStream> stream;
  std::string pending;  // text after the last line break, held until the line is complete
  bool stamp_on_arrival = false;
  bool ended = false;
  // The stream's engine epoch and the session's engine changes at the last sync: while both
  // hold, syncing again would change nothing (no string compare per event).
  uint64_t synced_stream_epoch = ~uint64_t{0};
  uint64_t synced_session_changes = 0;
};

namespace {

// A runaway line is handed over at this size; the stream caps it.
constexpr size_t kMaxPendingBytes = 1u << 20;

// What systemd said, as the log event it amounts to (for sinks and the event stream).
LogEvent UnitLogEvent(const UnitEvent& e) {
  LogEvent l;
  l.time_ms = e.time_ms;
  l.text = e.text;
  switch (e.kind) {
    case UnitEvent::Kind::kStarting:
      l.kind = LogEvent::Kind::kAttemptStart;
      l.rule_id = "systemd.starting";
      break;
    case UnitEvent::Kind::kRestartScheduled:
      l.kind = LogEvent::Kind::kAttemptStart;
      l.rule_id = "systemd.restart_scheduled";
      break;
    case UnitEvent::Kind::kProcessExited:
      l.kind = e.clean ? LogEvent::Kind::kInfo : LogEvent::Kind::kFatal;
      l.rule_id = unit_fact::kProcessExited;
      break;
    case UnitEvent::Kind::kFailed:
      l.kind = LogEvent::Kind::kFatal;
      l.rule_id = unit_fact::kFailed;
      break;
    case UnitEvent::Kind::kOomKilled:
      l.kind = LogEvent::Kind::kError;
      l.rule_id = unit_fact::kOomKilled;
      break;
    case UnitEvent::Kind::kStopping:
      l.kind = LogEvent::Kind::kInfo;
      l.rule_id = unit_fact::kStopping;
      break;
    case UnitEvent::Kind::kLeftOverProcess:
      l.kind = LogEvent::Kind::kInfo;
      l.rule_id = unit_fact::kLeftOverProcess;
      break;
  }
  return l;
}

}  // namespace

StartupSession::StartupSession(const RuleSet& rules, SessionOptions options)
    : rules_(rules), options_(std::move(options)), judge_(rules) {
  tracker_.SetEngineReadyServing(rules_.thresholds().engine_ready_serving_s);
  tracker_.SetServerStartWait(rules_.thresholds().server_start_wait_s);
  tracker_.SetModelSizes(rules_.knowledge().model_sizes);
  if (!options_.engine.empty()) SyncEngine(options_.engine);
}

StartupSession::~StartupSession() = default;

void StartupSession::StampOnArrival(int source) { SourceAt(source).stamp_on_arrival = true; }

void StartupSession::LearnZone(std::string_view tail, int64_t written_utc_ms) {
  constexpr int64_t kQuarterHourMs = 15 * 60 * 1000;
  constexpr size_t kTailBytes = 64 << 10;
  if (!options_.live) return;
  if (tail.size() > kTailBytes) {
    tail.remove_prefix(tail.size() - kTailBytes);
    const size_t nl = tail.find('\n');
    if (nl == std::string_view::npos) return;
    tail.remove_prefix(nl + 1);
  }
  LogStreamOptions o;
  o.engine = options_.engine;
  o.reference_year = options_.reference_year;
  LogStream scratch(rules_, o);
  scratch.Feed(tail);
  scratch.Finish();
  const std::optional<int64_t> stated = scratch.last_line_time_ms();
  if (!stated) return;
  const int64_t gap = *stated - written_utc_ms;
  const int64_t zone = (gap >= 0 ? gap + kQuarterHourMs / 2 : gap - kQuarterHourMs / 2) /
                       kQuarterHourMs * kQuarterHourMs;
  // A line is stamped just before it is written: a gap far from a zone is no zone (a buffered
  // writer, a file copied later); a zone beyond 14 h does not exist.
  if (std::llabs(gap - zone) > 2 * 60 * 1000 || std::llabs(zone) > 14 * 3600 * 1000LL) return;
  options_.local_utc_offset_s = zone / 1000;
}

void StartupSession::SyncEngine(const std::string& detected, const Source* from) {
  if (detected.empty() || detected == engine_) return;
  // The first source to recognise an engine owns it: a second one (the journal beside a file)
  // cannot flip it, but the owner's stream may correct itself (old SGLang prints its vLLM
  // import's lines first, then its own).
  if (!engine_.empty() && options_.engine.empty() && from != engine_source_) return;
  engine_source_ = from;
  engine_ = detected;
  ++engine_changes_;
  tracker_.SetEngine(engine_);
  tracker_.SetPhaseOrder(rules_.PhaseOrder(engine_));
  tracker_.SetIndependentRanks(rules_.knowledge().Ranks(engine_).independent);
  tracker_.SetRanksOwnMain(rules_.knowledge().Ranks(engine_).own_main);
}

void StartupSession::SyncEngineOf(Source& s) {
  const uint64_t epoch = s.stream->engine_epoch();
  if (epoch == s.synced_stream_epoch && engine_changes_ == s.synced_session_changes) return;
  SyncEngine(s.stream->engine(), &s);
  s.synced_stream_epoch = epoch;
  s.synced_session_changes = engine_changes_;
}

void StartupSession::Deliver(const LogEvent& event) {
  if (feeding_events_ != nullptr) feeding_events_->push_back(event);
}

// (A restarted start's bars count from zero again: "0/4 shards" in it is not the crashed start's
// frozen bar.)
void StartupSession::ForgetBarsOnNewAttempt() {
  const int attempts = tracker_.state().total_attempts;
  if (attempts == attempts_seen_) return;
  attempts_seen_ = attempts;
  for (auto& s : sources_) {
    if (s) s->stream->ForgetBars();
  }
}

StartupSession::Source& StartupSession::SourceAt(int source) {
  source = std::clamp(source, 0, 63);
  const auto i = static_cast<size_t>(source);
  if (i >= sources_.size()) sources_.resize(i + 1);
  auto& s = sources_[i];
  if (s) return *s;
  s = std::make_unique<Source>();
  LogStreamOptions o;
  o.engine = options_.engine;
  o.reference_year = options_.reference_year;
  s->stream = std::make_unique<LogStream>(rules_, o);
  LogStream* stream = s->stream.get();
  // Times: a line's own timestamp (local time → UTC live), else the arrival time, else (offline)
  // the latest time the tracker has seen.
  auto stamp = [this](std::optional<int64_t> t) -> std::optional<int64_t> {
    if (feeding_arrival_ || !t) return feeding_now_ms_;
    return *t - options_.local_utc_offset_s * 1000;
  };
  Source* src = s.get();
  stream->OnEvent([this, src, stamp](const LogEvent& event) {
    SyncEngineOf(*src);
    // A banner without a time waits for the next line's (the tracker tells a restart from an
    // earlier part pasted after): live as offline.
    const bool timeless_banner = !event.time_ms && event.kind == LogEvent::Kind::kAttemptStart;
    const std::optional<int64_t> t = timeless_banner ? std::nullopt : stamp(event.time_ms);
    if (t == event.time_ms) {  // the common case offline: no copy on the hot path
      tracker_.OnLogEvent(event);
      ForgetBarsOnNewAttempt();
      Deliver(event);
      return;
    }
    restamped_ = event;  // assignment reuses the buffers: no allocation per line
    restamped_.time_ms = t;
    restamped_.time_inferred = event.time_inferred || !event.time_ms;
    tracker_.OnLogEvent(restamped_);
    ForgetBarsOnNewAttempt();
    Deliver(restamped_);
  });
  stream->OnUnitEvent([this, src, stamp](const UnitEvent& event) {
    SyncEngineOf(*src);
    UnitEvent u = event;
    u.time_ms = stamp(event.time_ms);
    tracker_.OnUnitEvent(u);
    ForgetBarsOnNewAttempt();
    Deliver(UnitLogEvent(u));
  });
  stream->OnReportedWait([this](double seconds) { tracker_.NoteReportedWait(seconds); });
  stream->OnKubernetesAge([this](double seconds) { tracker_.NoteRunningFor(seconds); });
  stream->OnCommandTime([this](double seconds) { tracker_.NoteCommandTime(seconds); });
  stream->OnWorksWith([this](std::string_view sentence) { tracker_.NoteWorksWith(sentence); });
  stream->OnRetryByHand([this] { tracker_.NoteRetryByHand(); });
  stream->OnClockShift([this](int64_t shift_ms) {
    tracker_.ShiftTimes(shift_ms);
    // The events handed out so far are stamped as the tracker's now are: in the dated line's year.
    if (feeding_events_ == nullptr) return;
    for (LogEvent& e : *feeding_events_) {
      if (e.time_ms) *e.time_ms += shift_ms;
    }
  });
  stream->OnActivity([this, src, stamp](std::optional<int64_t> t, std::string_view) {
    SyncEngineOf(*src);
    tracker_.OnLogActivity(stamp(t), /*own_time=*/t.has_value() && !feeding_arrival_);
  });
  stream->OnClockReading([this, src, stamp](std::optional<int64_t> t, std::string_view) {
    SyncEngineOf(*src);
    tracker_.OnLogActivity(stamp(t), /*own_time=*/t.has_value() && !feeding_arrival_,
                           /*reading=*/true);
  });
  return *s;
}

void StartupSession::OnLogText(int source, std::string_view text, std::optional<int64_t> now_ms,
                               std::vector<LogEvent>* events) {
  Source& s = SourceAt(source);
  feeding_now_ms_ = now_ms;
  feeding_arrival_ = s.stamp_on_arrival && now_ms.has_value();
  feeding_events_ = events;
  // Whole lines only ('\n', or the '\r' of a progress-bar redraw); the rest waits for more text.
  // `pending` never holds a line break. The held line is completed and fed first; then the
  // whole lines go straight from `text`, not copied through `pending` (a file read in 1 MiB
  // chunks ends mid-line every time). LogStream::Feed takes chunks split anywhere.
  if (!s.pending.empty()) {
    const size_t first = text.find_first_of("\r\n");
    if (first != std::string_view::npos) {
      s.pending.append(text.substr(0, first + 1));
      s.stream->Feed(s.pending);
      s.pending.clear();
      text.remove_prefix(first + 1);
    }
  }
  if (s.pending.empty()) {
    const size_t cut = text.find_last_of("\r\n");
    if (cut != std::string_view::npos) {
      s.stream->Feed(text.substr(0, cut + 1));
      text.remove_prefix(cut + 1);
    }
  }
  s.pending.append(text);
  if (s.pending.size() > kMaxPendingBytes) {
    s.stream->Feed(s.pending);
    s.pending.clear();
  }
  feeding_events_ = nullptr;
}

void StartupSession::OnSourceEnd(int source, std::optional<int64_t> now_ms,
                                 std::vector<LogEvent>* events) {
  Source& s = SourceAt(source);
  feeding_now_ms_ = now_ms;
  feeding_arrival_ = s.stamp_on_arrival && now_ms.has_value();
  feeding_events_ = events;
  if (!s.pending.empty()) s.stream->Feed(s.pending);
  s.pending.clear();
  s.stream->Finish();
  if (!s.ended) ++sources_ended_;
  s.ended = true;
  feeding_events_ = nullptr;
}

void StartupSession::OnUnitEvent(const UnitEvent& event, std::optional<int64_t> now_ms,
                                 std::vector<LogEvent>* events) {
  UnitEvent e = event;
  if (!e.time_ms) e.time_ms = now_ms;  // journal times are UTC already: no zone shift
  tracker_.OnUnitEvent(e);
  if (events != nullptr) events->push_back(UnitLogEvent(e));
}

void StartupSession::OnSample(const Sample& sample) { tracker_.OnSample(sample); }

Verdict StartupSession::Evaluate(std::optional<int64_t> now_ms) const {
  JudgeOptions o;
  o.now_ms = now_ms;
  o.stall_after_s = options_.stall_after_s;
  o.checkpoint_bytes = options_.checkpoint_bytes;
  o.learned = options_.learned.empty() ? nullptr : &options_.learned;
  o.live = options_.live;
  int sources = 0;
  for (const auto& s : sources_) sources += s != nullptr;
  o.log_complete = !options_.live || (sources > 0 && sources_ended_ == sources);
  for (const auto& s : sources_) {
    if (!o.log_complete || s == nullptr || s->stream == nullptr) continue;
    if (const std::string_view frame = s->stream->open_traceback_frame(); !frame.empty()) {
      o.open_traceback_frame = std::string(frame);
      break;
    }
  }
  // A paste copied twice reads as two attempts until the copy's stamped lines all prove old.
  if (HasRepastedAttempt(tracker_.state())) {
    return judge_.Evaluate(WithoutRepastedAttempts(tracker_.state()), o);
  }
  return judge_.Evaluate(tracker_.state(), o);
}

Result<RuleSet> LoadRules(const std::vector<std::string>& extra_files) {
  auto rules = RuleSet::LoadEmbedded();
  if (!rules.ok() || extra_files.empty()) return rules;
  for (const auto& path : extra_files) {
    Status st = rules->AddPath(path);
    if (!st.ok()) return st;
  }
  Status st = rules->Compile();
  if (!st.ok()) return st;
  return rules;
}

}  // namespace spinup
