#include "live/watcher.h"

#include <algorithm>
#include <cstdint>

namespace spinup {

namespace {

bool Decisive(const LogEvent& e) {
  switch (e.kind) {
    case LogEvent::Kind::kReady:
    case LogEvent::Kind::kRequestServed:
    case LogEvent::Kind::kFatal:
    case LogEvent::Kind::kAttemptStart:
      return true;
    default:
      return false;
  }
}

bool Terminal(State s) {
  return s == State::kReady || s == State::kCrashed || s == State::kCrashLoop;
}

}  // namespace

Watcher::Watcher(WatchOptions options, Clock& clock, StartupModel& model, SampleSource* sampler,
                 std::vector<Sink*> sinks)
    : options_(options),
      clock_(clock),
      model_(model),
      sampler_(sampler),
      sinks_(std::move(sinks)),
      started_ms_(clock.NowMs()) {
  last_verdict_.state = State::kStarting;
}

int Watcher::AddSource(std::unique_ptr<LogSource> source) {
  sources_.push_back(std::move(source));
  ended_.push_back(false);
  return static_cast<int>(sources_.size()) - 1;
}

std::vector<int> Watcher::PollFds() const {
  std::vector<int> fds;
  for (const auto& s : sources_) {
    if (int fd = s->PollFd(); fd >= 0) fds.push_back(fd);
  }
  return fds;
}

bool Watcher::all_sources_done() const {
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (!ended_[i]) return false;
  }
  return true;
}

bool Watcher::Pump() {
  bool decisive = false;
  std::vector<LogEvent> events;
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (ended_[i]) continue;
    auto& src = *sources_[i];
    // A few rounds per source so that a burst is not split across intervals, but bounded so
    // one chatty source cannot starve the sampling.
    for (int round = 0; round < 8; ++round) {
      std::string text = src.Read();
      if (!zone_asked_ && !text.empty()) {
        // Once, before any line is fed: the zone applies to every time stated from here on.
        zone_asked_ = true;
        if (auto written = src.LastWriteMs()) model_.LearnZone(text, *written);
      }
      auto unit_events = src.TakeUnitEvents();
      if (text.empty() && unit_events.empty()) break;
      // The manager's facts go in between the lines they came between (a restart splits two
      // attempts' lines).
      std::string_view rest(text);
      size_t fed = 0;
      for (const auto& placed : unit_events) {
        size_t at = std::clamp(placed.offset, fed, text.size());
        if (at > fed)
          model_.OnLogText(static_cast<int>(i), rest.substr(0, at - fed), clock_.NowMs(), events);
        rest.remove_prefix(at - fed);
        fed = at;
        model_.OnUnitEvent(placed.event, clock_.NowMs(), events);
        decisive = true;
      }
      if (!rest.empty()) model_.OnLogText(static_cast<int>(i), rest, clock_.NowMs(), events);
    }
    if (src.Done()) {
      model_.OnSourceEnd(static_cast<int>(i), clock_.NowMs(), events);
      ended_[i] = true;
    }
  }
  for (const auto& e : events) {
    decisive = decisive || Decisive(e);
    for (Sink* s : sinks_) s->OnLogEvent(e);
  }
  return decisive;
}

std::optional<WatchEnd> Watcher::Tick() {
  int64_t now = clock_.NowMs();
  if (sampler_ != nullptr) {
    Sample sample = sampler_->Take(now);
    model_.OnSample(sample);
    for (VerdictStage* st : stages_) st->OnSample(sample);
    for (Sink* s : sinks_) s->OnSample(sample);
  }
  return Judge(now);
}

std::optional<WatchEnd> Watcher::Evaluate() { return Judge(clock_.NowMs()); }

int64_t Watcher::deadline_ms() const {
  if (!options_.timeout_s) return INT64_MAX;
  return started_ms_ + static_cast<int64_t>(*options_.timeout_s * 1000);
}

std::optional<WatchEnd> Watcher::Judge(int64_t now) {
  Verdict v = model_.Evaluate(now);
  last_judged_ = v;
  for (VerdictStage* st : stages_) st->Apply(v, now);
  last_verdict_ = v;
  for (Sink* s : sinks_) s->OnVerdict(v);

  if (options_.once) return WatchEnd{ExitCodeForState(v.state), "once"};
  switch (options_.until) {
    case Until::kReady:
      if (v.state == State::kReady) return WatchEnd{0, "ready"};
      break;
    case Until::kVerdict:
      if (Terminal(v.state) || v.state == State::kStalled) {
        return WatchEnd{ExitCodeForState(v.state), std::string(StateName(v.state))};
      }
      break;
    case Until::kDefault:
      if (options_.server_lifetime) break;
      if (v.state == State::kReady ||
          (options_.stop_on_crash_by_default &&
           (v.state == State::kCrashed || v.state == State::kCrashLoop))) {
        return WatchEnd{ExitCodeForState(v.state), std::string(StateName(v.state))};
      }
      break;
  }
  if (now >= deadline_ms()) {
    return WatchEnd{4, "timeout"};
  }
  return std::nullopt;
}

void Watcher::Finish(const WatchEnd& /*end*/) {
  // The stages see the judge's last verdict again (not their own output of it).
  if (!stages_.empty()) {
    Verdict v = last_judged_;
    for (VerdictStage* st : stages_) st->Finish(v, clock_.NowMs());
    last_verdict_ = v;
  }
  for (Sink* s : sinks_) s->Finish(last_verdict_);
}

}  // namespace spinup
