// Small stand-ins for the live loop's collaborators, for tests of the loop itself: a startup
// model that understands three keywords, a scripted sampler, and a sink that records calls.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "live/watcher.h"

namespace spinup::testing {

// "READY" → ready, "FATAL" → crashed, any other line → progress; stalled after `stall_ms`
// without a line or a sample whose cpu grew.
class KeywordModel : public StartupModel {
 public:
  explicit KeywordModel(int64_t stall_ms = 1000) : stall_ms_(stall_ms) {}
  void OnLogText(int source, std::string_view text, int64_t now_ms,
                 std::vector<LogEvent>& events) override {
    auto& partial = partial_[source];
    partial.append(text);
    size_t nl;
    while ((nl = partial.find('\n')) != std::string::npos) {
      std::string line = partial.substr(0, nl);
      partial.erase(0, nl + 1);
      Line(line, now_ms, events);
    }
  }
  void OnSourceEnd(int source, int64_t now_ms, std::vector<LogEvent>& events) override {
    if (!partial_[source].empty()) Line(partial_[source], now_ms, events);
    partial_[source].clear();
  }
  void OnSample(const Sample& s) override {
    double cpu = 0;
    for (const auto& p : s.processes) cpu += p.cpu_seconds;
    if (cpu > last_cpu_) last_progress_ms_ = s.time_ms;
    last_cpu_ = cpu;
    if (s.exit_status && *s.exit_status != 0) crashed_ = true;
  }
  Verdict Evaluate(int64_t now_ms) override {
    ++evaluations;
    Verdict v;
    v.phase = Phase::kWeightLoad;
    if (ready_) {
      v.state = State::kReady;
      v.phase = Phase::kReady;
    } else if (crashed_) {
      v.state = State::kCrashed;
    } else if (last_progress_ms_ == 0) {
      v.state = State::kStarting;
      last_progress_ms_ = now_ms;
    } else if (now_ms - last_progress_ms_ > stall_ms_) {
      v.state = State::kStalled;
      v.evidence.push_back("no new log line");
    } else {
      v.state = State::kProgressing;
    }
    v.headline = std::string(StateName(v.state));
    return v;
  }
  std::vector<std::string> lines;
  int evaluations = 0;

 private:
  void Line(const std::string& line, int64_t now_ms, std::vector<LogEvent>& events) {
    lines.push_back(line);
    last_progress_ms_ = now_ms;
    LogEvent e;
    e.text = line;
    if (line.find("READY") != std::string::npos) {
      ready_ = true;
      e.kind = LogEvent::Kind::kReady;
    } else if (line.find("FATAL") != std::string::npos) {
      crashed_ = true;
      e.kind = LogEvent::Kind::kFatal;
    } else {
      e.kind = LogEvent::Kind::kPhaseBegin;
      e.phase = Phase::kWeightLoad;
    }
    events.push_back(e);
  }
  int64_t stall_ms_;
  int64_t last_progress_ms_ = 0;
  double last_cpu_ = 0;
  bool ready_ = false;
  bool crashed_ = false;
  std::map<int, std::string> partial_;
};

class RecordingSink : public Sink {
 public:
  void OnLogEvent(const LogEvent& e) override { events.push_back(e); }
  void OnSample(const Sample& s) override { samples.push_back(s); }
  void OnVerdict(const Verdict& v) override { verdicts.push_back(v); }
  void Finish(const Verdict& v) override {
    finished = true;
    final_verdict = v;
  }
  std::vector<LogEvent> events;
  std::vector<Sample> samples;
  std::vector<Verdict> verdicts;
  bool finished = false;
  Verdict final_verdict;
};

// A log source fed by the test.
class ScriptedSource : public LogSource {
 public:
  std::string Read() override { return std::exchange(pending, std::string()); }
  bool Done() const override { return done; }
  std::string Name() const override { return "scripted"; }
  std::string pending;
  bool done = false;
};

}  // namespace spinup::testing
