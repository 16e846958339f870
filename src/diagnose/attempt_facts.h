// What the tracker knows of one start attempt and of the server's processes: plain facts, folded
// by StartupTracker (tracker.h) and read by the judge. No behaviour beyond small queries.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/knowledge.h"
#include "diagnose/load_progress.h"
#include "diagnose/rule_hits.h"
#include "spinup/startup.h"

namespace spinup {

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
  uint64_t last_advance_line = 0;   // the log line of that advance (untimed bars share a time)
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
  size_t errors_at_death = 0;       // errors.size() once its first death line was read
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
  // The manager scheduled this start ("Scheduled restart job") and has not yet said "Started".
  bool restart_scheduled = false;
  bool stopped = false;
  bool ended_silently = false;     // started again with no line saying why it ended (silent_ends)
  std::optional<int64_t> stop_ms;  // when the stop was asked for
  // The stop's line had no time of its own ("^C", "KeyboardInterrupt"): stop_ms is the line
  // before's until the next stamped line (the stop's teardown) says when it came.
  bool stop_time_carried = false;
  bool error_before_stamps = false;  // its first stamped line came after an error
  bool phase_line = false;           // a line of its own began or ended a phase
  uint32_t fences_at_error = 0;      // LogEvent::fences at its latest error
  // Its events from markdown-quoted lines ("> ", LogEvent::quoted) and from the others.
  uint32_t quoted_events = 0;
  uint32_t own_events = 0;
  std::optional<int64_t> crash_ms;  // when the first fatal line came
  // That line had no time of its own: crash_ms is the latest time before it (or, live, its
  // arrival), so the gap after it is not known.
  bool crash_untimed = false;
  bool task_failed = false;  // srun said one of its tasks failed (slurm.task_failed)
  std::string crash_line;    // that line's rank and text (a restart repeats it)
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
  // A line that ends compile (TensorRT-LLM's "Autotuning process ends") clears it.
  std::optional<int64_t> compile_hint_ms;
  // A JIT build inside a later phase that compiles lazily (SGLang's capture building FlashInfer's
  // or DeepGEMM's kernels, vLLM's DeepGEMM warm-up after its profile run): from its first compile
  // line to its last. The judge shows it as compile between the two parts of that phase.
  struct JitInside {
    Phase outer = Phase::kCudaGraph;
    int64_t from_ms = 0;
    int64_t to_ms = 0;
    bool building = false;  // a line of a build itself (ninja's steps, DeepGEMM's "JIT Compiling")
    bool open = true;       // the outer phase has not moved on since its last compile line
    bool untimed_tail = false;  // its last line had no time of its own (a JIT's bars)
  };
  std::optional<JitInside> jit_inside;
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
  // command alone: a previous container's log is one that ended, whatever its last line was. And
  // a log with a supervisor's back-off below it (rules `backoff.*`): nothing of it runs now.
  bool ended_by_record = false;
  // A download step of its own came before the engine's banner (KServe's storage initializer,
  // NIM's workspace): its download span is no phase of the engine's start.
  bool download_step_before = false;
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
  // The first line with a time of its own (an untimed banner takes the time of the run pasted
  // above it).
  std::optional<int64_t> first_stamped_ms;
  std::optional<int64_t> last_progress_ms;  // last phase change / bar advance
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

}  // namespace spinup
