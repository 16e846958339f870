// The shared vocabulary of a server startup: phases, states, log events, process samples and the
// verdict. Producers (log rules, /proc sampler, NVML) emit these plain structs; the tracker folds
// them into facts, the judge turns facts into a Verdict, and sinks render Verdicts. Nothing here
// does I/O. Times are Unix milliseconds (wall clock) so that offline logs and live samples share a
// clock; a log line without a timestamp has time_ms == std::nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spinup {

// One vocabulary for every engine, in startup order.
enum class Phase {
  kLaunch,
  kDownload,
  kDistributedInit,
  kWeightLoad,
  kCompile,
  kKvCache,
  kCudaGraph,
  kHttpStart,
  kWarmup,
  kReady,
};
inline constexpr int kPhaseCount = 10;

// "launch", "download", "distributed_init", "weight_load", "compile", "kv_cache", "cuda_graph",
// "http_start", "warmup", "ready".
std::string_view PhaseName(Phase phase);
std::optional<Phase> ParsePhase(std::string_view name);

// The judge's word on a startup. Offline (`explain`) uses kInProgress where the log simply ends;
// live (`watch`, `run`) uses kProgressing / kSlow with measured rates.
enum class State {
  kStarting,
  kProgressing,
  kInProgress,
  kSlow,
  kStalled,
  kCrashed,
  kCrashLoop,
  kReady,
  kUnknown,
  kStopped,  // a stop was asked for (systemd, a person, spinup) before the start finished
};
// "starting", "progressing", "in_progress", "slow", "stalled", "crashed", "crash_loop", "ready",
// "unknown", "stopped".
std::string_view StateName(State state);
std::optional<State> ParseState(std::string_view name);
// The process exit code every command uses for a verdict (docs/exit-codes.md): 0 ready, 1 crashed
// or crash loop, 3 stalled, 5 anything else (still starting, in progress, stopped, unknown).
int ExitCodeForState(State state);

// What one log line meant, after wrappers (journalctl, docker, kubectl, ANSI) were stripped and
// the engine rules matched. Lines that match nothing are not events (the tracker still counts them
// as "log activity").
struct LogEvent {
  enum class Kind {
    kPhaseBegin,     // a phase started on `rank`
    kPhaseEnd,       // a phase finished on `rank` (elapsed may be known from the line)
    kProgress,       // a progress bar: bar name, n of total (units may be shards, tensors, bytes)
    kError,          // a decisive error line (traceback tail, CUDA OOM, NCCL error)
    kFatal,          // the process (or a rank) died: the attempt crashed
    kAttemptStart,   // a new launch banner: a restart within the same log
    kReady,          // the engine says it is ready
    kRequestServed,  // a request was answered after the HTTP server came up: counts as ready
    kHeartbeat,      // the engine is alive but waiting (vLLM's shm broadcast 60 s line, watchdogs)
    kInfo,           // other matched lines worth keeping (config facts, nccl version, ...)
    kFrame,          // a traceback frame that names the phase it runs in (`in load_model`)
    kRestarts,       // a supervisor's restart count (progress_n), e.g. Kubernetes' RESTARTS
    kStop,           // a stop was asked for (Ctrl+C, SIGTERM): what follows is not a crash
    kForeign,        // another program's exception (an HTTP client's, pasted below the log):
                     // the traceback it ends is not the server's, nor are its errors
  };
  Kind kind = Kind::kInfo;
  std::optional<int64_t> time_ms;
  // The line had no time of its own: time_ms is its arrival or the latest time seen before it.
  bool time_inferred = false;
  std::string rank;  // "TP0", "DP0_TP2", "Worker_TP1", or "" for the main process / unknown
  std::optional<Phase> phase;
  std::string rule_id;  // the id of the rule that matched (e.g. "sglang.load_weight_begin")
  std::string text;     // the line itself (wrappers stripped), capped in length
  uint64_t line_no = 0;
  // kProgress only.
  std::string bar;
  int64_t progress_n = 0;
  int64_t progress_total = 0;
  // kPhaseEnd: elapsed seconds reported by the engine, when the line carries it; kProgress: the
  // bar's own elapsed time ("[01:40<08:39"), when printed.
  std::optional<double> elapsed_seconds;
  // kReady: only the engine is ready (vLLM's "init engine ... took"); its HTTP server has yet to
  // bind, so an error before the server is up or serves a request still ends the start.
  bool engine_only = false;
  // kError/kFatal: the line names where the failure was raised (a rule's "pin"): the crash is
  // judged in `phase` even where phase lines went further.
  bool pinned = false;
  // kRequestServed: the HTTP server's own answer to a request (an access-log line, a rule's
  // "answer"), not the engine's periodic stats: the server was up when the request came in.
  bool answer = false;
  // kFatal: only a server that was up prints the line (an engine's serving loop died, vLLM's
  // EngineDeadError): the start had succeeded, and the death came while it served.
  bool while_serving = false;
  // The rule's "node_ready": on a non-head node of a multi-node start, its start is done.
  bool node_ready = false;
  // The rule's "in_process": the engine runs inside the user's program, which serves no HTTP.
  bool in_process = false;
  // `rank` came from the message (a rule's rank group: "Shard 2 failed to start"), not from the
  // line's prefix: a relay's line then names the child it speaks of.
  bool rank_from_message = false;
  // What the matching rule's line says of its phase (a rule's "role", docs/rules.md).
  enum class Role {
    kDirect,    // the line is the failing process's own
    kRelay,     // a parent reporting that a child died or failed: it names where the parent
                // waited, not where the child was
    kFallback,  // a model's forward or a message naming the work: only where nothing else did
  };
  Role role = Role::kDirect;
  // The line's prefix declared a level below error (INFO, WARNING, DEBUG): a cause's pattern on it
  // is context, not the failure. False for lines without a level (a traceback's tail).
  bool quiet_level = false;
  // A person's sentence came before the line ("I get this error:"): the log is pasted in a
  // report, whose writer may have quoted its error above it.
  bool in_report = false;
  // Markdown code fences ("```") seen before the line: a fence between an error and the log's
  // banner closes a quote above the log, or opens the log below it.
  uint32_t fences = 0;
  // The line was a markdown quote ("> ..."): in a reply, the text of the comment it answers.
  bool quoted = false;
};

// One process of the server's tree, sampled from /proc.
struct ProcessSample {
  int pid = 0;
  int ppid = 0;
  char state = '?';        // R, S, D, Z, ...
  std::string comm;        // /proc/PID/comm, e.g. "sglang::schedul"
  std::string cmdline;     // NUL separators turned into spaces, capped
  double cpu_seconds = 0;  // utime + stime
  uint64_t rss_bytes = 0;
  uint64_t read_bytes = 0;  // /proc/PID/io read_bytes (storage reads)
  uint64_t rchar = 0;       // /proc/PID/io rchar (all reads, page cache included)
  uint64_t major_faults = 0;
  int threads = 0;
  int threads_running = 0;
  int threads_disk_wait = 0;   // state D
  int threads_futex_wait = 0;  // wchan futex_wait_queue / futex_*
  int threads_poll_wait = 0;   // wchan do_poll / ep_poll / do_select
  struct OpenModelFile {
    std::string path;
    uint64_t offset = 0;  // from fdinfo pos
    uint64_t size = 0;
  };
  std::vector<OpenModelFile> model_files;
  std::vector<uint16_t> listening_ports;
  // Added by the /proc sampler (src/proc): a JIT/AOT compiler process (nvcc, ptxas, ninja, ...),
  // and how many threads' states were actually read (the thread counts above cover at most this
  // many; `threads` is the full count from stat).
  bool compiler = false;
  int threads_sampled = 0;
  int threads_sleep_wait = 0;  // wchan hrtimer_nanosleep / do_nanosleep (timed polling loops)
};

struct GpuSample {
  int index = 0;
  std::string name;
  uint64_t used_bytes = 0;
  uint64_t total_bytes = 0;
  int utilization_percent = -1;  // -1 when unknown
  struct ProcessUse {
    int pid = 0;
    uint64_t used_bytes = 0;
  };
  std::vector<ProcessUse> processes;
};

// Everything measured outside the server at one instant.
struct Sample {
  int64_t time_ms = 0;
  std::vector<ProcessSample> processes;  // empty when no process is watched
  bool gpu_available = false;
  std::string gpu_message;  // e.g. "GPU: no NVML" when the library could not be loaded
  std::vector<GpuSample> gpus;
  std::optional<uint64_t> checkpoint_bytes;           // total size of the shards
  std::optional<uint64_t> checkpoint_resident_bytes;  // page-cache residency (mincore)
  std::optional<int> health_http_status;              // last /health (or /v1/models) answer
  bool port_listening = false;
  std::optional<int> exit_status;  // the server's exit code (negative: killed by signal -N)
  int restarts = 0;                // restarts seen by the source (systemd NRestarts, run loop)
  // Added by the /proc sampler: compiler processes in the tree (a compile-phase progress signal),
  // and whether the tree had more processes than the sampler's cap (the rest were not sampled).
  int compiler_processes = 0;
  bool processes_truncated = false;
  // `watch --pid`: the watched processes are gone (their exit status cannot be read from outside
  // the parent), and which processes of the tree last seen are still alive (orphaned ranks).
  bool watched_gone = false;
  std::vector<int> orphans;
};

// What the service manager (systemd) said about the server's unit: read from the manager's own
// journal entries (UNIT=, MESSAGE_ID=), not from the server's log. Lets the tracker split attempts
// and count restarts even when the server dies before printing a launch banner.
struct UnitEvent {
  enum class Kind {
    kStarting,          // a start job began ("Starting sglang.service...")
    kProcessExited,     // "Main process exited, code=exited, status=1/FAILURE"
    kFailed,            // "Failed with result 'exit-code'" (UNIT_RESULT=)
    kRestartScheduled,  // "Scheduled restart job, restart counter is at N." (N_RESTARTS=)
    kOomKilled,         // "A process of this unit has been killed by the OOM killer."
    kStopping,          // "Stopping sglang.service...": a stop was asked for (not a crash)
    // "Found left-over process 4711 (python3) in control group while starting unit": a process
    // of the previous run survived it (KillMode=process), and may still hold GPU memory.
    kLeftOverProcess,
  };
  Kind kind = Kind::kStarting;
  std::optional<int64_t> time_ms;  // the entry's __REALTIME_TIMESTAMP
  std::string unit;
  std::string text;       // the manager's MESSAGE, capped
  int restarts = 0;       // kRestartScheduled: systemd's restart counter (N_RESTARTS)
  std::string exit_code;  // kProcessExited: "exited", "killed" or "dumped" (EXIT_CODE)
  int exit_status = 0;    // kProcessExited: exit code, or the signal number (EXIT_STATUS)
  bool clean = false;     // kProcessExited: status 0, or a stop signal (TERM, INT, HUP, PIPE)
  std::string result;     // kFailed: "exit-code", "signal", "core-dump", "timeout", "watchdog", ...
};

// Bytes of the checkpoint known to be read so far, and the resulting rate and ETA.
struct Progress {
  std::optional<uint64_t> bytes_done;
  std::optional<uint64_t> bytes_total;
  std::optional<double> bytes_per_second;
  std::optional<double> eta_seconds;
  // From the engine's own bar (shards or tensors), when there is one.
  std::string bar;
  int64_t bar_n = 0;
  int64_t bar_total = 0;
};

// A known cause that fits the evidence, with its fix (from the knowledge base, rules/*.json).
struct Finding {
  std::string id;
  std::string title;
  std::vector<std::string> evidence;  // what was seen: lines, slow phases, signals
  std::string fix;
  std::string why = {};  // why what was seen points at this cause (may be empty)
};

struct RankPhase {
  std::string rank;
  Phase phase = Phase::kLaunch;
  std::optional<int64_t> since_ms;
};

struct TimelineEntry {
  std::string rank;
  Phase phase = Phase::kLaunch;
  std::optional<int64_t> start_ms;
  std::optional<int64_t> end_ms;
  std::optional<double> seconds;
  bool slow = false;
  // The rank waited on the others through this span: they began two or more later phases during
  // it (vLLM V1's engine core in launch while its workers load, compile and profile). Neither
  // slow nor a candidate for the slowest phase.
  bool waiting = false;
};

// One rank's (or process's) threads at the moment a stall was called: its Python stack from
// `py-spy dump` when that worked, else the kernel stacks of its threads where readable, and in any
// case how many of its threads wait on each kernel wait channel.
struct RankStack {
  std::string rank;  // "TP2", or "" when the process names no rank
  int pid = 0;
  std::string source;      // "py-spy", "kernel" or "none"
  std::string stack;       // the dump (py-spy) or the distinct kernel stacks, capped
  std::string waiting_in;  // a collective seen in the Python stack: "all-reduce", "barrier", ...
  std::vector<std::pair<std::string, int>> wait_channels;  // wchan -> threads, most first
  std::vector<std::string> notes;  // why a source is missing ("py-spy: timed out after 5 s")
};

// What spinup gathers when it first calls a stall (src/proc/stall_gather.h), bounded in time and
// size: which rank is behind, each rank's stacks, and the GPUs at that moment.
struct StallEvidence {
  int64_t time_ms = 0;
  std::string
      behind;  // "TP2 has not left distributed_init; TP0, TP1, TP3 are waiting in all-reduce"
  std::vector<RankStack> ranks;
  bool gpu_available = false;
  std::vector<GpuSample> gpus;
  double gather_seconds = 0;
  std::vector<std::string> notes;  // e.g. "py-spy is not on PATH: kernel stacks instead"
};

// `--warm`: the checkpoint read into the page cache alongside the server's early phases.
struct WarmStatus {
  std::string state;  // "warming", "done", "stopped", "skipped"
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;  // what was planned (the part that fits in memory)
  uint64_t checkpoint_bytes = 0;
  double bytes_per_second = 0;
  std::string note;  // why it stopped or was cut short ("only 3.2 GiB of 8.0 GiB fit ...")
};

struct Verdict {
  State state = State::kUnknown;
  Phase phase = Phase::kLaunch;  // where the startup is, ended or failed
  std::string engine;            // "sglang", "vllm", or "" when unknown
  std::string headline;          // the one-line verdict, e.g. "STALLED in distributed_init ..."
  int attempts = 0;
  // Restarts seen: systemd's restart counter, a supervisor's count, or launch banners in the log.
  int restarts = 0;
  std::optional<double> phase_seconds;    // how long the current phase has run
  std::optional<double> budget_seconds;   // the current phase's budget
  std::optional<double> stalled_seconds;  // time since the last progress signal of any kind
  // A ready start only: what the same log shows the server did after it was up, "died" (an
  // exception or death while serving) or "stopped" (a stop was asked for); "" when nothing. The
  // start is judged ready either way: this says whether it still is.
  std::string after_ready;
  std::vector<RankPhase> ranks;
  std::vector<TimelineEntry> timeline;
  Progress progress;
  std::vector<std::string> evidence;  // measured facts behind the state
  std::vector<std::string> errors;    // decisive log lines, quoted
  std::vector<Finding> findings;
  // What the evidence cannot tell (e.g. "the log ends inside weight_load: no sign of a stall").
  std::vector<std::string> not_known;
  // Live only (`--probe generate`): seconds the first one-token request took to be served.
  std::optional<double> first_request_seconds;
  // Live only: gathered once when the state first became stalled.
  std::optional<StallEvidence> stall_evidence;
  // Live only (`--warm`).
  std::optional<WarmStatus> warm;
};

}  // namespace spinup
