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

#include "diagnose/knowledge.h"
#include "diagnose/load_progress.h"
#include "diagnose/rule_hits.h"
#include "spinup/startup.h"

namespace spinup {

// The rules of a shell prompt that runs the server ("manual.shell_prompt" in rules/generic.json):
// where a person started it, an engine of its own in the tracker's eyes.
inline constexpr std::string_view kPromptEngine = "manual";
bool IsShellPrompt(std::string_view rule_id);

// The kinds of progress the judge can see. A startup is stalled only when none of them moved.
enum class Signal {
  kLogLine,           // any non-noise log line
  kLogProgress,       // a phase change or a progress bar advancing
  kReadBytes,         // /proc/PID/io read_bytes or rchar grew
  kResidency,         // checkpoint page-cache residency grew
  kCpu,               // the tree used CPU (more than a trickle)
  kGpuMemory,         // GPU memory used by the server changed
  kCompilerChildren,  // nvcc/cicc/ptxas/ninja/cc1plus/... children present
};
inline constexpr int kSignalCount = 7;
std::string_view SignalName(Signal s);

struct TrackedRank {
  std::string rank;
  Phase phase = Phase::kLaunch;
  std::optional<int64_t> since_ms;
  bool phase_done = false;  // the phase's end line was seen (the next one has not begun)
  std::string last_text;    // the last matched line of this rank (evidence for a stall)
};

struct PhaseSpan {
  std::string rank;
  Phase phase = Phase::kLaunch;
  std::optional<int64_t> start_ms;
  std::optional<int64_t> end_ms;
  std::optional<double> reported_seconds;  // elapsed printed by the engine on the end line
  // Seconds of the engine's figure spent in a phase carved out of this one before it (vLLM's
  // "Model loading took ... and N seconds" counts the Hub download before the load).
  double carved_s = 0;
  // A download opened inside the loader's span (StartupTracker::DownloadInsideLoad): the load that
  // goes on after it counts it in its own figure.
  bool within_load = false;
  bool ended = false;
  bool implicit = false;  // opened because the previous phase ended, not by a begin line
  // Opened by a line printed inside the phase, not by its begin line: known to run until the last
  // such line (last_hint_ms), not beyond (a later phase's end line may come next).
  bool hinted = false;
  std::optional<int64_t> last_hint_ms;
  // Begun or ended by a line with no time of its own, read offline: dated at the latest time seen
  // until the next stamped line says how late it may have been (StartupTracker::DateUndated).
  bool start_undated = false;
  bool end_undated = false;
  // An undated end moved to the next stamped line: where it was dated before, the earliest it
  // may have been. A phase is slow only if it was even by this end (the untimed lines after it
  // may have been the next phase's work).
  std::optional<int64_t> end_earliest_ms;
};

struct BarState {
  std::string bar;
  std::optional<Phase> phase;
  int64_t n = 0;
  int64_t total = 0;
  std::optional<int64_t> first_ms;
  std::optional<int64_t> last_advance_ms;
  std::optional<double> elapsed_s;  // the bar's own elapsed time ("[1:09:28<00:00"), if printed
  // When the bar began, by the first redraw's time less its elapsed: dates later redraws that carry
  // no time of their own.
  std::optional<int64_t> origin_ms;
};

struct AttemptFacts {
  int index = 0;  // 1-based
  std::optional<int64_t> start_ms;
  std::vector<TrackedRank> ranks;   // capped (kMaxRanks)
  std::vector<PhaseSpan> timeline;  // capped (kMaxSpans)
  std::vector<BarState> bars;       // capped (kMaxBars)
  std::vector<std::string> errors;  // decisive lines, capped (kMaxErrors)
  // Those a relay rule gave (a parent saying a child failed: TGI's launcher). Capped (kMaxErrors).
  std::vector<std::string> relayed;
  bool crashed = false;  // a fatal line, or the process exited non-zero
  // A stop was asked for (systemd's "Stopping ..."): the exit that follows ends the attempt as
  // stopped, not crashed.
  bool banner = false;        // the attempt began with a launch banner (kAttemptStart)
  std::string banner_engine;  // whose banner: the rule id's first word ("trtllm", "generic")
  // Its banner came after its lines, stamped before them: an excerpt, then its beginning pasted
  // after it. Another banner stamped before those lines belongs to that beginning too.
  bool banner_pasted_after = false;
  // The node its banner names (SGLang's "node_rank=1", a command's "--node-rank 1"); -1: none.
  int node_rank = -1;
  // Begun by hand: a shell prompt running the server ("$ vllm serve ..."). The crash before it
  // was followed by a person trying again, not by a supervisor restarting it.
  bool manual = false;
  bool stop_requested = false;
  bool stop_job = false;  // the stop was the service manager's stop job (systemctl stop/restart)
  bool stopped = false;
  bool ended_silently = false;     // started again with no line saying why it ended (silent_ends)
  std::optional<int64_t> stop_ms;  // when the stop was asked for
  // The stop's line had no time of its own ("^C", "KeyboardInterrupt"): stop_ms is the line
  // before's until the next stamped line (the stop's teardown) says when it came.
  bool stop_time_carried = false;
  bool error_before_stamps = false;  // its first stamped line came after an error
  bool phase_line = false;           // a line of its own began or ended a phase
  uint32_t fences_at_error = 0;      // LogEvent::fences at its latest error
  std::optional<int64_t> crash_ms;   // when the first fatal line came
  std::string crash_line;            // that line's rank and text (a restart repeats it)
  // The attempt's first event line (rank and text), and whether it came again after the crash: a
  // process printing its opening line again has started again, even where no line has a time.
  std::string first_line;
  bool first_line_again = false;
  std::optional<int64_t> first_line_ms;  // the first line's own stamp, if it had one
  // Since the first line came again (with its own stamp unchanged, or with none), every stamped
  // line is one the attempt already had, and there was one: the paste copied again, so the same
  // death after it is no restart.
  bool again_is_copy = false;
  uint64_t again_stamped = 0;
  // Tracebacks that opened at a program's entry (runpy, a console script): each is the death of a
  // main process, so a second one, not chained to the first, is a process started again.
  int entry_tracebacks = 0;
  // torch's global ranks (below 64) that reported a collective timing out, one bit each.
  uint64_t watchdog_ranks = 0;
  // The collective they named ("WorkNCCL(SeqNum=57"); two different ones: ranks out of step.
  std::optional<uint64_t> watchdog_seq;
  bool watchdog_seq_differs = false;
  bool oom_killed = false;  // the service manager or the kernel recorded an OOM kill
  // The service manager ended the start when its TimeoutStartSec ran out (a kill, as a SIGKILL is).
  bool start_timed_out = false;
  // The phase named by the latest traceback frame (the deepest frame of the latest traceback):
  // where an exception was raised when no phase line says so.
  std::optional<Phase> frame_phase;
  std::string frame_rank;  // the rank whose traceback that frame is in ("" when none said)
  std::optional<Phase> failing_frame;  // the latest frame of the first failing rank's own
  // The phase the first "pinned" error names (a rule's "pin": the line says where it was raised).
  std::optional<Phase> pinned_phase;
  bool pinned_when_ready = false;  // the pinned error came after a ready or served line
  // A decisive line came after traceback frames: the first failure's traceback is over, so a pinned
  // frame after it is a later failure's (a peer's, failing because the first rank died).
  bool frames_closed = false;
  // The latest phase line began compile and nothing has ended it: vLLM compiles inside the profile
  // run, so the run's frames and lines around a compiler's failure do not say it got past compile.
  bool compile_open = false;
  // The latest line that said compiling goes on (a JIT's info line: SGLang's DeepGEMM session,
  // FlashInfer's JIT), even inside a later phase that compiles lazily (DeepGEMM in the capture).
  std::optional<int64_t> compile_hint_ms;
  // Set while the attempt's phase was only opened because this phase ended on a line that did not
  // say how long it took (no line of the new phase yet): a crash whose frames name the ended phase
  // happened there (vLLM logs the KV-cache size before it allocates the cache; after "torch.compile
  // takes 17 s in total" a compiler frame is compiled code running, not compiling).
  std::optional<Phase> implicit_after;
  std::optional<Phase> implicit_frame;  // the latest frame's phase since then
  // The end line was a pinned phase_end (printed before the phase's last work): a crash with no
  // frame since, before a line of the next phase, happened in the ended phase.
  bool implicit_holds = false;
  // The same, whether or not the end line said how long the phase took: the phase that follows is
  // a guess until a line of its own comes, and frames naming a phase after the ended one say where
  // a crash was (vLLM compiles inside the profile run that follows the weight load).
  std::optional<Phase> opened_after;
  std::optional<Phase> opened_after_frame;  // the latest frame's phase since then
  // An error line's phase hint moved the attempt on from `from` (vLLM V1's "WorkerProc hit an
  // exception", whose calls come after the load in later releases, during it in earlier ones): a
  // frame or a later error that names `from` says the error was raised there.
  struct ErrorHint {
    Phase from = Phase::kLaunch;
    Phase to = Phase::kLaunch;
    bool contradicted = false;  // a later error's hint named `from`
  };
  std::optional<ErrorHint> error_hint;
  // A decisive error (traceback, exception) came after the last phase progress: offline, a log
  // that ends like this ends in a crash even where the final "died" line was not pasted.
  bool error_after_progress = false;
  // Waits logged since the latest error (vLLM's shared-memory broadcast line every 60 s): a
  // process still waiting on the one that failed, the start hung rather than ended.
  int waits_after_error = 0;
  // An error after the last progress line came before the terminal echoed "^C": the user stopped a
  // start that had already failed (a worker's OOM, the rest waiting on it), so it died.
  bool failed_before_ctrl_c = false;
  bool ready = false;
  bool ready_before_phases = false;  // said before any phase line: a wrapper's own server's
  // Ready only as far as the engine goes (vLLM's "init engine ... took"): an error before the
  // HTTP server says it is up or serves a request takes the ready back.
  bool engine_only_ready = false;
  // Engines of their own (data-parallel engine cores) that said they were ready: the start is ready
  // once every one seen has (capped like every list).
  std::vector<std::string> ready_engines;
  std::optional<int64_t> engine_ready_ms;  // when that engine-only ready line came
  // The engine said it was ready, then its HTTP server began to start (vLLM's "Starting vLLM API
  // server"): a log that ends there, with no word since, ends as the server comes up.
  bool http_after_engine_ready = false;
  // Then the server process itself said it started and waits on its startup hook (uvicorn's
  // "Started server process", "Waiting for application startup."): its "Application startup
  // complete." follows within milliseconds, so a log that ends before it stopped there.
  bool server_awaits_startup = false;
  // A fatal line came after the server was up (served, or said it was): it died serving, the start
  // itself had succeeded.
  bool died_after_ready = false;
  // Its log came from "kubectl logs --previous" below the container's termination record (Exit
  // Code 137, OOMKilled, a probe kill): that record is how it ended. Also the log of such a
  // command alone: a previous container's log is one that ended, whatever its last line was.
  bool ended_by_record = false;
  size_t errors_at_ready = 0;  // errors.size() when it first became ready
  bool request_served = false;
  bool http_up = false;
  std::optional<Phase> phase;  // the phase the attempt is in (latest begin or hint)
  std::optional<Phase> crash_phase;
  // Where the start was when its first fatal line came, if no rank printed it (the main process
  // reporting a child's death, SGLang's "Child process unexpectedly failed"): ranks that went on
  // past it, and failed later because a peer was gone, do not move that death.
  std::optional<Phase> first_death_phase;
  // The first rank that reported a decisive line while inside a phase of its own, and that phase:
  // with tensor parallelism one worker can fail loading while another moves on, and the crash
  // happened where the failing rank was (the judge uses it when it is behind the attempt).
  // Cleared when that rank makes progress again.
  std::string failing_rank;
  std::optional<Phase> failing_rank_phase;
  // The first named rank that reported a decisive line with no phase of its own (an excerpt that
  // cut its phase lines): it failed where its own traceback's frames say, else in the phase a peer
  // ended after its failure (tensor-parallel workers move in step). Cleared by its own progress.
  std::string unplaced_rank;
  std::string error_rank;  // the rank of the latest error line (its traceback's frames are its)
  // The main process's error stood while its ranks went on (KeepErrorOfAnotherProcess): the
  // start failed where the main process was, the phase of the attempt at that error.
  bool main_error_kept = false;
  bool serves_http = false;          // its banner is an HTTP server's (a rule's "serving")
  std::optional<Phase> error_phase;  // the attempt's phase at its latest error line
  std::optional<Phase> unplaced_frame;
  std::optional<Phase> unplaced_peer_phase;
  std::optional<int64_t> first_ms, last_ms;  // first and last timestamp in the attempt
  std::optional<int64_t> last_progress_ms;   // last phase change / bar advance
  std::optional<int64_t> last_heartbeat_ms;
  uint64_t heartbeats = 0;
  uint64_t lines = 0;
  // Fingerprints of the attempt's stamped lines (own time, text): a later attempt whose every
  // stamped line is one of the attempt before it is that attempt pasted again, not a restart (a
  // restart's lines are stamped later). Capped; sorted once the attempt ends.
  std::vector<uint64_t> stamps;
  uint64_t stamped_lines = 0;
  uint64_t stamps_new = 0;  // stamped lines that are not among the previous attempt's
  uint64_t last_stamped_line_no = 0;
  // rule id → hits (bounded by the number of rules), in first-hit order; looked up for every
  // matched line.
  RuleHits hits;
};

// Derived process facts from the latest samples (live only; all false offline).
struct ProcessFacts {
  bool sampled = false;
  double cpu_cores = 0;        // CPU use of the tree over the last interval, in cores
  bool disk_wait = false;      // some thread in D state
  bool reads_active = false;   // read_bytes/rchar grew last interval
  bool no_disk_reads = false;  // reads flat last interval
  bool gpu_flat = false;       // GPU memory unchanged last interval
  int max_gpu_util = -1;       // highest GPU utilisation, percent (-1: unknown)
  bool compiler_children = false;
  bool rank_lost = false;  // fewer scheduler/worker processes than seen before
  int processes = 0;
  int max_processes = 0;
  uint64_t read_bytes = 0;
  double read_bytes_per_s = 0;
  uint64_t gpu_used_bytes = 0;
  int threads = 0;
  int wait_threads = 0;  // threads in futex or poll waits
  bool gpu_available = false;
  int gpus = 0;
  std::string gpu_message;             // e.g. "GPU: no NVML" when the library is absent
  std::vector<std::string> compilers;  // names of compiler children seen
};

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
  bool reported_wait_is_run = false;    // it is the command's whole run, from `time`
  std::vector<std::string> works_with;  // a writer's "it works with --flag" sentences (first 8)
  // A supervisor said its latest run failed too and waits to start it again ("backoff.*" rules:
  // Kubernetes' CrashLoopBackOff/Error with its restart count): restarts + 1 runs failed.
  bool backoff_failed = false;
  // nvidia-smi lists an engine's process holding memory after the log's run ended: a leftover.
  bool old_run_holds_gpu = false;
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
  void OnLogActivity(std::optional<int64_t> time_ms, bool own_time = false);
  // The pod had run `seconds` when Kubernetes' output below the log was taken: a clock reading
  // that far past the log's first line (never earlier than what the log already showed). Only for
  // a log of one start: a restarted container's log begins after its pod did.
  void NoteRunningFor(double seconds);
  void NoteReportedWait(double seconds);
  // The command's run time (`time` after the log): a clock reading, or the longest it can have sat.
  void NoteCommandTime(double seconds);
  void NoteWorksWith(std::string_view sentence);  // logs/reported_wait.h SaysItWorksWith
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
  bool OpensEntryTraceback(const LogEvent& e) const;
  static void ForgetAppStartup(AttemptFacts& a);
  static void SettleStopTime(AttemptFacts& a, int64_t stamped_ms);
  bool QuotedAboveTheLog(const AttemptFacts& cur) const;
  bool RecordAboveThePreviousLog(const AttemptFacts& cur) const;
  static bool OnlyARecordOfAnEnd(const AttemptFacts& cur);
  static bool OnlyAFinishedBuild(const AttemptFacts& cur);
  static bool BuiltJustBefore(const AttemptFacts& cur, std::optional<int64_t> banner_ms);
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
  std::optional<int64_t> UntimedAt() const { return stamped_ms_ ? stamped_ms_ : now_ms_; }
  std::optional<Sample> prev_sample_;
  LoadProgressEstimator load_;
  bool pending_banner_ = false;  // a banner without a time waits for the next stamped line
  bool in_report_ = false;       // the latest line's LogEvent::in_report
  uint32_t fences_ = 0;          // the latest line's LogEvent::fences
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
  // A log viewer run at a prompt ("$ docker logs -f vllm") has not ended yet: a "^C" is its.
  bool viewer_running_ = false;
  bool start_job_open_ = false;  // systemd's "Starting X..." began the attempt (OnUnitStart)
  // The log's first stamped line (rank, text, time), and while a copy of what was already read
  // is pasted again, the latest time read before it (tracker_attempts.cc, Replayed).
  std::string first_stamped_line_;
  std::optional<int64_t> first_stamped_ms_;
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
