// The watch loop's brain, shared by `spinup watch` and `spinup run`: log text from any number of
// sources and one process sample per interval go into ONE startup model (log rules + tracker +
// judge), and every event, sample and verdict goes to the sinks. The loops that wait on file
// descriptors live in watch_loop.h (watch) and run_loop.h (run); this class never blocks, never
// reads the clock itself, and never reads the environment, so tests drive it step by step.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "live/clock.h"
#include "live/log_sources.h"
#include "live/verdict_stage.h"
#include "spinup/sink.h"
#include "spinup/startup.h"

namespace spinup {

// The log understanding, the tracker and the judge behind one seam (see startup_model.h for the
// implementation over the rule engine; tests use fakes).
class StartupModel {
 public:
  virtual ~StartupModel() = default;
  // Raw text from one source (partial lines allowed; each source has its own line state).
  // Appends the events the text produced.
  virtual void OnLogText(int source, std::string_view text, int64_t now_ms,
                         std::vector<LogEvent>& events) = 0;
  // A source ended: its unfinished last line is complete.
  virtual void OnSourceEnd(int source, int64_t now_ms, std::vector<LogEvent>& events) = 0;
  // The service manager's word about the watched unit (from the journal), in log order. May
  // append events for the sinks (a restart, an exit).
  virtual void OnUnitEvent(const UnitEvent& /*event*/, int64_t /*now_ms*/,
                           std::vector<LogEvent>& /*events*/) {}
  virtual void OnSample(const Sample& sample) = 0;
  virtual Verdict Evaluate(int64_t now_ms) = 0;
  // Before the first text of a followed file: that text's end was written at `written_utc_ms`
  // (the log's time zone can be learned from it; see StartupSession::LearnZone).
  virtual void LearnZone(std::string_view /*text*/, int64_t /*written_utc_ms*/) {}
};

// One sample of everything outside the server (processes, GPU, checkpoint residency, port).
class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual Sample Take(int64_t now_ms) = 0;
  // True once nothing is left to sample (the watched process tree is gone).
  virtual bool Gone() const { return false; }
};

enum class Until {
  kDefault,  // watch: ready, crashed or crash_loop; run: the server's exit
  kReady,    // only ready
  kVerdict,  // the first ready, crashed, crash_loop or stalled
};

struct WatchOptions {
  double interval_s = 1.0;
  bool once = false;
  std::optional<double> timeout_s;
  Until until = Until::kDefault;
  bool stop_on_crash_by_default = true;  // false under --unit: systemd may restart the server
  // `run`: with Until::kDefault the watch lasts as long as the server (set by RunServer).
  bool server_lifetime = false;
};

// Why a watch ended and with which code.
struct WatchEnd {
  int exit_code = 0;
  std::string reason;  // "ready", "crashed", "stalled", "timeout", "once", "sources ended"
};

class Watcher {
 public:
  Watcher(WatchOptions options, Clock& clock, StartupModel& model, SampleSource* sampler,
          std::vector<Sink*> sinks);

  // Returns the source's index.
  int AddSource(std::unique_ptr<LogSource> source);
  // Live-only additions to every verdict (first request, stall evidence, warm), run in the order
  // added after each judgement; not owned.
  void AddStage(VerdictStage* stage) { stages_.push_back(stage); }
  // File descriptors worth waiting on (pipes); the rest are polled on every Pump().
  std::vector<int> PollFds() const;
  // Reads every source once; returns true when a decisive event (ready, fatal, error, new attempt)
  // arrived, after which the caller should Evaluate() at once.
  bool Pump();
  // Takes a sample, re-evaluates and renders it. Returns the end of the watch, if reached.
  std::optional<WatchEnd> Tick();
  // Re-evaluates without a new sample (after decisive events).
  std::optional<WatchEnd> Evaluate();
  // Lets the stages finish work that needs the server alive (stall evidence), bounded.
  void Settle() {
    for (VerdictStage* st : stages_) st->Settle();
  }
  // Ends the watch: Finish() on every sink with the last verdict.
  void Finish(const WatchEnd& end);

  bool all_sources_done() const;
  bool sampler_gone() const { return sampler_ != nullptr && sampler_->Gone(); }
  bool has_sampler() const { return sampler_ != nullptr; }
  const Verdict& last_verdict() const { return last_verdict_; }
  int64_t started_ms() const { return started_ms_; }
  double interval_s() const { return options_.interval_s; }
  // When --timeout ends the watch, on the watch's clock; INT64_MAX without one. The loops wake
  // for it, so a timeout shorter than the interval is honoured on time.
  int64_t deadline_ms() const;
  const WatchOptions& options() const { return options_; }

 private:
  std::optional<WatchEnd> Judge(int64_t now_ms);

  WatchOptions options_;
  Clock& clock_;
  StartupModel& model_;
  SampleSource* sampler_;
  std::vector<Sink*> sinks_;
  std::vector<VerdictStage*> stages_;
  std::vector<std::unique_ptr<LogSource>> sources_;
  std::vector<bool> ended_;
  bool zone_asked_ = false;  // LearnZone is asked once, by the first source that has text
  Verdict last_judged_;      // before the stages
  Verdict last_verdict_;
  int64_t started_ms_;
};

}  // namespace spinup
