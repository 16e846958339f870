// StartupAnalyzer wires the one log path: bytes → LogStream → StartupTracker, with Samples fed
// beside, and the Judge on demand. `explain` feeds a file and judges once; `watch`/`run` feed a
// followed log and samples as they come and judge every interval. Sinks may observe each
// LogEvent through OnEvent.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "diagnose/judge.h"
#include "diagnose/tracker.h"
#include "logs/log_stream.h"
#include "logs/rules.h"

namespace spinup {

class StartupAnalyzer {
 public:
  // `rules` must outlive the analyzer and be compiled.
  StartupAnalyzer(const RuleSet& rules, LogStreamOptions options);

  // Optional observer of every LogEvent (after the tracker saw it), e.g. a JSON-lines sink.
  void OnEvent(std::function<void(const LogEvent&)> fn) { observer_ = std::move(fn); }

  void FeedLog(std::string_view bytes) { stream_.Feed(bytes); }
  void FinishLog() { stream_.Finish(); }
  void FeedSample(const Sample& sample) { tracker_.OnSample(sample); }

  Verdict Evaluate(const JudgeOptions& options) const;

  const TrackerState& state() const { return tracker_.state(); }
  const LogStream& stream() const { return stream_; }

 private:
  void SyncEngine();

  const RuleSet& rules_;
  LogStream stream_;
  StartupTracker tracker_;
  Judge judge_;
  std::string engine_seen_;
  std::function<void(const LogEvent&)> observer_;
};

}  // namespace spinup
