// StartupSession is the one place where a startup's log text, the service manager's word about the
// unit, and process samples become facts (StartupTracker) and facts become a verdict (Judge).
// `explain` is a session over one file judged at the log's own clock (or --now); `watch` and `run`
// feed the same session live and judge it every interval. Everything about the middle of the
// pipeline (engine detection, the engine's phase order, time stamping, budgets, exit codes) is
// decided here once, so the offline and live answers cannot drift apart.
//
// A session never reads the clock, the environment or a file: callers pass time in.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/judge.h"
#include "diagnose/tracker.h"
#include "logs/rules.h"
#include "spinup/startup.h"

namespace spinup {

struct SessionOptions {
  std::string engine;  // forced engine; "" = detect from the log
  // Year for timestamps without one until a dated line anchors them (--year, --now's year, the
  // clock's year).
  int reference_year = 1970;
  // Seconds east of UTC of the zone the engine prints its local times in. Live sessions compare
  // log times with the UTC clock; offline sessions keep the log's own clock (0).
  int64_t local_utc_offset_s = 0;
  // Live: process samples may come and states are progressing/slow; offline: in_progress.
  bool live = false;
  std::optional<double> stall_after_s;       // --stall-after: overrides every phase's stall budget
  std::optional<uint64_t> checkpoint_bytes;  // scales the weight-load budget when known
  LearnedBudgets learned;  // from this host's history (src/history); empty: the fixed budgets
};

class StartupSession {
 public:
  // `rules` must be compiled and outlive the session.
  StartupSession(const RuleSet& rules, SessionOptions options);
  ~StartupSession();
  StartupSession(const StartupSession&) = delete;
  StartupSession& operator=(const StartupSession&) = delete;

  // Lines of `source` carry no trustworthy time of their own (a child's pipe: every line is live)
  // and are stamped with the time they are fed at.
  void StampOnArrival(int source);

  // Raw text of one source, split anywhere; each source keeps its own partial line. `now_ms` is
  // the time the text arrived (nullopt offline: lines without a timestamp take the latest time
  // seen). Events produced are appended to `events` when it is given (for sinks).
  void OnLogText(int source, std::string_view text, std::optional<int64_t> now_ms,
                 std::vector<LogEvent>* events = nullptr);
  // The source ended: its unfinished last line is complete.
  void OnSourceEnd(int source, std::optional<int64_t> now_ms,
                   std::vector<LogEvent>* events = nullptr);
  // What systemd logged about the unit (journal entries, or its lines pasted into a log). Appends
  // the log event it amounts to, for sinks.
  void OnUnitEvent(const UnitEvent& event, std::optional<int64_t> now_ms,
                   std::vector<LogEvent>* events = nullptr);
  void OnSample(const Sample& sample);
  // Live, before a followed file's first text is fed: `tail` ends that file, whose end was written
  // at `written_utc_ms`. The last line's own time against that write time is the zone the engine
  // prints local time in (a container logs UTC on a host that is not); it replaces the host's
  // zone for every source. Nothing changes when the last line states no time or the gap is no
  // whole number of quarter hours within 14 h.
  void LearnZone(std::string_view tail, int64_t written_utc_ms);

  // The verdict at `now_ms` (nullopt: the latest time seen in the log).
  Verdict Evaluate(std::optional<int64_t> now_ms = std::nullopt) const;

  const TrackerState& state() const { return tracker_.state(); }
  const std::string& engine() const { return engine_; }

 private:
  struct Source;
  Source& SourceAt(int source);
  // `from`: the source that recognised it (none: the caller's --engine).
  void SyncEngine(const std::string& detected, const Source* from = nullptr);
  void SyncEngineOf(Source& s);  // SyncEngine with the source's engine, when it may have changed
  void Deliver(const LogEvent& event);
  void ForgetBarsOnNewAttempt();

  const RuleSet& rules_;
  SessionOptions options_;
  StartupTracker tracker_;
  Judge judge_;
  std::vector<std::unique_ptr<Source>> sources_;
  int sources_ended_ = 0;
  std::string engine_;
  uint64_t engine_changes_ = 0;            // how often engine_ was set: SyncEngineOf's memo
  const Source* engine_source_ = nullptr;  // the source whose engine engine_ is
  // While one source's text is fed: what the stream callbacks need.
  std::optional<int64_t> feeding_now_ms_;
  bool feeding_arrival_ = false;
  std::vector<LogEvent>* feeding_events_ = nullptr;
  LogEvent restamped_;     // an event whose time the session changed (live, or a zone shift)
  int attempts_seen_ = 0;  // the tracker's attempt count when the streams last forgot their bars
};

// Rules compiled into the binary plus `extra_files` (--rules, rules.d), loaded and compiled once.
Result<RuleSet> LoadRules(const std::vector<std::string>& extra_files);

}  // namespace spinup
