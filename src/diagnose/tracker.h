// StartupTracker folds LogEvents (from LogStream) and Samples (from the /proc + GPU sampler)
// into facts: per attempt, per rank the current phase and since when, the phase timeline,
// progress bars, decisive errors, which rules matched, and the time of the last progress of each
// kind of signal. It holds no opinions (no budgets, no verdicts: that is the Judge) and bounded
// memory (every list is capped). Feed it in time order from one thread.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "diagnose/attempt_facts.h"
#include "diagnose/knowledge.h"
#include "diagnose/load_progress.h"
#include "diagnose/rule_hits.h"
#include "spinup/startup.h"

namespace spinup {

// The rules of a shell prompt that runs the server ("manual.shell_prompt" in rules/generic.json):
// where a person started it, an engine of its own in the tracker's eyes.
inline constexpr std::string_view kPromptEngine = "manual";
bool IsShellPrompt(std::string_view rule_id);
// A script's trace of the command it runs (`set -x`'s "+ vllm serve ..."; rules "trace.*"): like
// a prompt, its run starts when it prints; unlike one, nobody typed it (no retry by hand).
inline constexpr std::string_view kTraceEngine = "trace";
// A prompt's command or a script's trace of one.
bool IsCommandLine(std::string_view rule_id);

struct TrackerState {
  std::string engine;
  std::vector<AttemptFacts> attempts;  // the first and the last kMaxAttempts are kept
  int total_attempts = 0;              // including any dropped from the middle
  int crashed_attempts = 0;
  // Attempts that got past their launch and were started again with no line saying why they
  // ended (no error, no stop, never ready): killed or died silently. Two make a loop.
  int silent_ends = 0;
  std::optional<int64_t> first_ms, last_ms;  // over the whole log / watch
  uint64_t lines = 0;
  std::array<std::optional<int64_t>, kSignalCount> last_signal_ms{};
  ProcessFacts process;
  std::optional<uint64_t> checkpoint_bytes;
  // Guessed from the log where nothing measured it: the model's name, the loader's shard count.
  std::optional<uint64_t> estimated_checkpoint_bytes;
  std::optional<uint64_t> checkpoint_resident_bytes;
  std::optional<int> exit_status;
  bool watched_gone = false;  // watch --pid: the watched processes ended
  int restarts = 0;           // the most of: samples' restarts, systemd's restart counter (journal)
  // The longest wait a person's sentence pasted with the log claims (infinity: "forever").
  std::optional<double> reported_wait_s;
  bool reported_wait_is_run = false;  // it is the command's whole run, from `time`
  // The longest wait the writer gave a length ("waited 45 minutes"; "forever" gives none).
  std::optional<double> stated_wait_s;
  std::vector<std::string> works_with;  // a writer's "it works with --flag" sentences (first 8)
  // A supervisor said its latest run failed too and waits to start it again ("backoff.*" rules:
  // Kubernetes' CrashLoopBackOff/Error with its restart count): restarts + 1 runs failed.
  bool backoff_failed = false;
  // nvidia-smi lists an engine's process holding memory after the log's run ended: a leftover.
  bool old_run_holds_gpu = false;
  // The engine runs inside the user's program (a rule's "in_process"), seen in any attempt: the
  // script's own line that creates it comes before the engine's banner.
  bool in_process = false;
  // Checkpoint bytes read, rate and ETA measured from outside (open shards' offsets, residency).
  Progress load;
  std::optional<int> health_http_status;
  bool port_listening = false;
  std::optional<int64_t> last_sample_ms;

  const AttemptFacts* current() const { return attempts.empty() ? nullptr : &attempts.back(); }
};

// The state without the attempts that are the one before them pasted again (AttemptFacts::
// stamps): a copy is no restart.
bool HasRepastedAttempt(const TrackerState& st);
TrackerState WithoutRepastedAttempts(const TrackerState& st);

class StartupTracker {
 public:
  static constexpr size_t kMaxRanks = 256;
  static constexpr size_t kMaxStamps = 1024;
  static constexpr size_t kMaxSpans = 2048;
  static constexpr size_t kMaxBars = 32;
  static constexpr size_t kMaxErrors = 16;
  static constexpr size_t kMaxAttempts = 16;

  StartupTracker();

  void SetEngine(std::string_view engine);
  // The engine's phase order (RuleSet::PhaseOrder): which phase follows an ended one, and which
  // way is "forward" for hints. Defaults to the Phase enum order.
  void SetPhaseOrder(std::vector<Phase> order);
  // How long after an engine-only ready line its server has surely bound (JudgeThresholds::
  // engine_ready_serving_s): a failure later than that came while serving.
  void SetEngineReadyServing(double seconds) { engine_ready_serving_s_ = seconds; }
  // JudgeThresholds::server_start_wait_s.
  void SetServerStartWait(double seconds) { server_start_wait_s_ = seconds; }
  // The engine's "ranks.independent" endings: a banner from another such rank joins the start.
  void SetIndependentRanks(std::vector<std::string> endings) { independent_ = std::move(endings); }
  void SetRanksOwnMain(bool own_main) { ranks_own_main_ = own_main; }
  // Sizes of model families whose names carry no count (StartupKnowledge::model_sizes).
  void SetModelSizes(std::vector<ModelFamilySize> sizes) { model_sizes_ = std::move(sizes); }
  void OnLogEvent(const LogEvent& event);
  // A log line that matched no rule (still proof the server is alive). `own_time`: time_ms is the
  // line's own stamp, not its arrival.
  // `reading`: a clock reading pasted with the log, whose time is when the paste was taken: the
  // log's now, but no line of an attempt that has not begun (systemctl status above journalctl).
  void OnLogActivity(std::optional<int64_t> time_ms, bool own_time = false, bool reading = false);
  // The pod had run `seconds` when Kubernetes' output below the log was taken: a clock reading
  // that far past the log's first line (never earlier than what the log already showed). Only for
  // a log of one start: a restarted container's log begins after its pod did. Output pasted above
  // the log (`kubectl get pods`, then `kubectl logs`) counts from the first stamped line to come.
  void NoteRunningFor(double seconds);
  void NoteReportedWait(double seconds);
  // The command's run time (`time` after the log): a clock reading, or the longest it can have sat.
  void NoteCommandTime(double seconds);
  void NoteWorksWith(std::string_view sentence);  // logs/reported_wait.h SaysItWorksWith
  void NoteRetryByHand();                         // logs/reported_wait.h SaysItRanAgain
  // A /proc + GPU sample (live). Samples must come in time order.
  void OnSample(const Sample& sample);
  // The service manager about the unit (from the journal): a start begins an attempt, an unclean
  // exit or a failure result crashes the current one, a scheduled restart crashes it (if it was
  // not already), counts the restart and begins the next attempt, so restarts are seen even when
  // the server dies before printing a launch banner.
  void OnUnitEvent(const UnitEvent& event);

  // Every time stated so far was off by `shift_ms` (year-less timestamps before the first dated
  // line): moves them all.
  void ShiftTimes(int64_t shift_ms);

  const TrackerState& state() const { return state_; }

 private:
  AttemptFacts& Current();
  void NewAttempt(std::optional<int64_t> t);
  TrackedRank& Rank(AttemptFacts& a, const std::string& rank);
  void NoteFailingRank(AttemptFacts& a, const std::string& rank);
  void ForgetUnplaced(AttemptFacts& a);
  void ApplyEvent(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnPhaseBegin(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  std::optional<int64_t> BegunBefore(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void RedateOpenSpan(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  bool CarveEarlierPhase(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  // Keeps AttemptFacts::jit_inside: a JIT build's lines inside a later phase, until it moves on.
  void NoteJitInside(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void CarveDownload(AttemptFacts& a, PhaseSpan* open, int64_t from, int64_t to,
                     std::optional<double> reported);
  bool DownloadInsideLoad(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void LoadBecomesDownload(AttemptFacts& a, const std::string& rank);
  static void LaunchAfterDownload(AttemptFacts& a);
  static bool OnlyADownloadStep(const AttemptFacts& cur);
  bool EndDownloadInsideLoad(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  static double DownloadSeconds(const PhaseSpan& download, std::optional<int64_t> end);
  static std::optional<int64_t> DownloadEnd(const AttemptFacts& a, const PhaseSpan& download,
                                            std::optional<int64_t> end);
  // A line without a time of its own, read offline, of the process whose stamped line came last:
  // what that stamp said ran went on until the next one, as far as the log tells.
  // Only a phase's own lines, and only the time given for want of its own: a ready line or a
  // served request says the server was up by then, and what follows it is the wait for a client.
  bool UndatedAt(std::optional<int64_t> t) const;
  void NoteUndated(std::optional<int64_t> t);
  void DateUndated(std::optional<int64_t> t);
  void NoteStampedLine(const LogEvent& e);  // a line with a time of its own
  static std::optional<int64_t> ServingSince(const AttemptFacts& a, std::optional<int64_t> t);
  void TakeBackCrashWhenServing(AttemptFacts& a, const LogEvent& e);
  void NoteStamp(AttemptFacts& a, const LogEvent& e);
  void PushError(AttemptFacts& a, const LogEvent& e);
  void OnError(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnStop(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnFatal(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnFrame(AttemptFacts& a, const LogEvent& e);
  void NoteCheckpointEstimate(uint64_t bytes);
  void OnInfo(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnRestarts(AttemptFacts& a, const LogEvent& e);  // a supervisor's restart count, back-off
  // Follows the traceback `e` may open, continue or end: an exception of another program (an HTTP
  // client's) takes back what its traceback did to `a` (tracker_events.cc). False for such an
  // exception raised through the server's own frames: the server's, not another program's.
  bool FollowTraceback(AttemptFacts& a, const LogEvent& e);
  void TakeBackEngineReady(AttemptFacts& a, std::optional<int64_t> t);
  void UndoEngineReady(AttemptFacts& a, const std::string* only_rank = nullptr);
  void OnReady(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnRequestServed(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  // explicit_begin: a begin line (may move the attempt back, e.g. a late NCCL communicator);
  // otherwise a hint, which moves the rank forward and the attempt only forward.
  void BeginPhase(AttemptFacts& a, const std::string& rank, Phase phase, std::optional<int64_t> t,
                  bool explicit_begin = true);
  // Moves `rank` forward to `phase` when the phase is later than where the rank is.
  // `from_error`: the phase of an error line is where the attempt got to at least; a rank with no
  // span of its own is not placed by it (its peers, moving in step, say where it failed).
  void Hint(AttemptFacts& a, const std::string& rank, Phase phase, std::optional<int64_t> t,
            bool from_error = false);
  void CloseSpan(AttemptFacts& a, PhaseSpan* open, std::optional<int64_t> end);
  void EndUnseenPhase(AttemptFacts& a, const std::string& rank, Phase phase, PhaseSpan* open,
                      std::optional<int64_t> t, std::optional<double> elapsed);
  void EndPhase(AttemptFacts& a, const std::string& rank, Phase phase, std::optional<int64_t> t,
                std::optional<double> elapsed);
  void Touch(std::optional<int64_t> t);
  void Mark(Signal s, std::optional<int64_t> t);
  int Order(Phase p) const;
  std::optional<Phase> Next(Phase p) const;

  static constexpr size_t kMaxHitText = 300;
  static std::string Cap(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }
  // Adds a decisive line (already capped) unless it repeats the last; keeps the first 4 when full.
  static void NoteError(AttemptFacts& a, std::string_view line);

  // OnLogEvent's steps (tracker.cc).
  void StartAttempt(const LogEvent& e, std::optional<int64_t> t);
  // A dead attempt that, well after its last line, begins a phase it had passed: a restart whose
  // launch banner was not pasted.
  bool RestartedWithoutBanner(const LogEvent& e, std::optional<int64_t> t) const;
  // Opens the attempt RestartedWithoutBanner found, with the lines already read that were its.
  void RestartWithoutBanner(const LogEvent& e, std::optional<int64_t> t);
  static bool FirstErrorAgain(const AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t,
                              int64_t gap_ms);
  bool OpensEntryTraceback(const LogEvent& e) const;
  static void ForgetAppStartup(AttemptFacts& a);
  static void SettleStopTime(AttemptFacts& a, int64_t stamped_ms);
  bool QuotedAboveTheLog(const AttemptFacts& cur) const;
  bool AnotherCommentsRun(const AttemptFacts& cur) const;
  bool RecordAboveThePreviousLog(const AttemptFacts& cur) const;
  static bool OnlyARecordOfAnEnd(const AttemptFacts& cur);
  static bool OnlyAFinishedBuild(const AttemptFacts& cur);
  static bool BuiltJustBefore(const AttemptFacts& cur, std::optional<int64_t> banner_ms,
                              std::string_view banner_engine);
  bool SiblingBanner(const AttemptFacts& cur, const std::string& rank) const;
  static bool BuiltOnly(const AttemptFacts& cur, bool quoted_error);
  void ForgetQuote(std::optional<int64_t> t, bool keep_hits);
  bool ForgetCollectorImport();
  bool AnotherEngineStarting(AttemptFacts& a, const std::string& ready_rank) const;
  static void NotePin(AttemptFacts& a, const LogEvent& e);
  static void UnpinForHost(AttemptFacts& a, const LogEvent& e);
  void NoteFirstLine(AttemptFacts& a, const LogEvent& e);
  // A banner without a time (a container image's) decides nothing until the next line that has one.
  void ResolvePendingBanner(const LogEvent& e);
  void ResolvePendingPrompt(const LogEvent& e);
  // A new attempt unless the current one is empty or this banner (stamped banner_ms) is the
  // current attempt's beginning pasted after it.
  void OpenAttempt(std::optional<int64_t> banner_ms, const std::string& rank,
                   std::string_view banner_engine, std::optional<int64_t> t, int node_rank = -1);
  void CountHit(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  static void NoteWatchdogRank(AttemptFacts& a, std::string_view text);
  void ApplyLogEvent(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  void OnProgress(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t);
  std::optional<int64_t> DateUntimedRedraw(BarState& bar, const LogEvent& e,
                                           std::optional<int64_t> t);
  // OnUnitEvent's steps (tracker_unit.cc): the manager's facts as rule hits; a start job.
  void CountUnitHit(const UnitEvent& e, const std::string& text, std::optional<int64_t> t);
  void OnUnitStart(const UnitEvent& e, std::optional<int64_t> t);
  static void KeepErrorOfAnotherProcess(AttemptFacts& a, const LogEvent& e);
  void NoteServerNeverUp(AttemptFacts& a, std::optional<int64_t> t);
  // OnSample's steps (tracker_sample.cc).
  void FoldDeltas(const Sample& s, double cpu, uint64_t reads, uint64_t gpu_used);
  void NoteExit(const Sample& s);
  void NoteWatchedGone(const Sample& s);

  TrackerState state_;
  std::vector<Phase> order_;
  // Each phase's place in order_ (Order()), set with it; the enum's fallback where it is absent.
  std::array<int, kPhaseCount> order_index_{};
  void IndexOrder();
  std::vector<std::string> independent_;
  bool ranks_own_main_ = false;  // the engine's "ranks.own_main"
  std::vector<ModelFamilySize> model_sizes_;
  double engine_ready_serving_s_ = 0;  // 0: every failure takes an engine-only ready back
  double server_start_wait_s_ = 0;     // 0: an engine-only ready stands however long
  // The event being applied, and the line that last opened a phase implicitly (an end line): a
  // hint on that same line only corrects which phase follows (BeginPhase).
  const LogEvent* event_ = nullptr;
  std::string error_line_;  // PushError's line, built here: a repeated error allocates nothing
  std::string implicit_text_;
  std::optional<int64_t> now_ms_;      // latest time seen (log or sample)
  std::optional<int64_t> undated_at_;  // when lines without a time last began or ended a span
  std::string stamped_rank_;           // the rank of the last line with a time of its own
  std::optional<int64_t> stamped_ms_;  // and its time: a line without one was printed after it
  // (Before any stamped line, a clock reading's now dates nothing: it was taken after the log.)
  // A cause's pattern alone is evidence, not a line of a start: `df -h /dev/shm` run at a prompt
  // after the crash shows what the crashed start lacked (no prompt or banner waits on it).
  static bool EvidenceOnly(const LogEvent& e) {
    return e.kind == LogEvent::Kind::kInfo && e.rule_id.starts_with("cause.");
  }
  std::optional<int64_t> UntimedAt() const {
    return stamped_ms_ ? stamped_ms_ : now_from_reading_ ? std::nullopt : now_ms_;
  }
  bool now_from_reading_ = false;  // now_ms_ is a clock reading's, and no line was stamped yet
  std::optional<Sample> prev_sample_;
  LoadProgressEstimator load_;
  bool pending_banner_ = false;  // a banner without a time waits for the next stamped line
  bool in_report_ = false;       // the latest line's LogEvent::in_report
  uint32_t fences_ = 0;          // the latest line's LogEvent::fences
  bool event_quoted_ = false;    // the latest line's LogEvent::quoted
  std::string pending_banner_engine_;
  // "kubectl logs --previous" was pasted: the log below is the container that ended as the
  // status record above it says.
  bool previous_log_ = false;
  // The current attempt's stamped lines when that command came: the log's own lines before its
  // banner (vLLM's "Automatically detected platform cuda.") are below it, not part of a record.
  uint64_t stamped_at_previous_log_ = 0;
  // A shell prompt that starts a server waits for the first line the start prints: a command
  // pasted after the log (how it was run) starts nothing.
  std::optional<std::optional<int64_t>> pending_prompt_;
  int pending_prompt_node_ = -1;  // the node its command names ("--node-rank 1")
  std::string pending_prompt_engine_{kPromptEngine};  // manual or trace
  // A log viewer run at a prompt ("$ docker logs -f vllm") has not ended yet: a "^C" is its.
  bool viewer_running_ = false;
  bool start_job_open_ = false;  // systemd's "Starting X..." began the attempt (OnUnitStart)
  // The log's first stamped line (rank, text, time), and while a copy of what was already read
  // is pasted again, the latest time read before it (tracker_attempts.cc, Replayed).
  std::string first_stamped_line_;
  std::optional<int64_t> first_stamped_ms_;
  std::optional<int64_t> latest_stamped_ms_;  // the latest own stamp of a line (Replayed)
  bool retry_by_hand_ = false;           // the writer said the next start is another try of theirs
  std::optional<double> running_for_s_;  // a pod's age read before any stamped line
  std::optional<int64_t> replay_until_ms_;
  bool Replayed(const LogEvent& e);
  bool ViewerInterrupted(const LogEvent& e);
  // The last banner (rank, text), its time and its line number (state_.lines): a banner printed
  // twice in a row (two handlers of one logger, stdout and a tee'd copy) is one start.
  std::string last_banner_;
  std::optional<int64_t> last_banner_ms_;
  uint64_t last_banner_line_ = 0;
  bool RepeatedBanner(const LogEvent& e);
  // The attempt as it was before the traceback being read began (its first header, through the
  // chained ones), but for its rule hits and bars: restored when the traceback ends in another
  // program's exception and showed no frame of the server's. Empty outside a traceback.
  // Its storage outlives reset(): every traceback header copies the attempt, and a copy into kept
  // strings and vectors allocates nothing (a fresh copy costs more than the header's event).
  class HeldFacts {
   public:
    explicit operator bool() const { return held_; }
    AttemptFacts* operator->() { return &facts_; }
    AttemptFacts& operator*() { return facts_; }
    HeldFacts& operator=(const AttemptFacts& a) {
      facts_ = a;
      held_ = true;
      return *this;
    }
    void reset() { held_ = false; }

   private:
    AttemptFacts facts_;
    bool held_ = false;
  };
  HeldFacts before_traceback_;
  // Where the attempt's frames had placed a crash when the latest traceback began (0: no attempt):
  // a parent's traceback that turns out to wait on a worker (a relay frame with no phase, vLLM's
  // collective_rpc) gives them back. The worker's own traceback above said where it failed; the
  // parent's frames only say which call it waited in.
  struct FrameFacts {
    std::optional<Phase> frame_phase, failing_frame, implicit_frame, opened_after_frame,
        unplaced_frame;
    std::string frame_rank;
  };
  FrameFacts frames_at_header_;
  int frames_at_header_attempt_ = 0;
  void KeepFramesAtHeader(const AttemptFacts& a);
  void GiveBackFramesAtHeader(AttemptFacts& a) const;
  bool traceback_server_frame_ = false;
  bool traceback_script_frame_ = false;  // a frame of the script that was run (its <module>)
  void TakeBackTraceback(AttemptFacts& a);
  bool traceback_chained_ = false;      // "During handling of the above exception, ...": one chain
  bool traceback_header_last_ = false;  // the last event was a header (a line printed twice)
  // The line count at the last traceback header, and whether a chain line came before it: a
  // traceback's first frame is the event right after its header.
  uint64_t traceback_header_line_ = 0;
  bool traceback_header_chained_ = false;
  // In a faulthandler dump, innermost call first: its first frame that names a phase is where the
  // process died (in a traceback, the last one is).
  bool innermost_first_ = false;
  bool innermost_placed_ = false;
  // The line of a client's exception whose other events are not the server's (the rest of it).
  std::optional<uint64_t> foreign_line_;
  // The entry of `id` in attempt `a`, added when new (nullptr when the table is full).
  RuleHit* FindHit(AttemptFacts& a, const std::string& id, std::string_view text);
};

}  // namespace spinup
