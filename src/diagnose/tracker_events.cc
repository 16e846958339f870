// StartupTracker's application of one log event to the attempt it belongs to: phases, errors,
// deaths, stops, frames and requests.
#include <algorithm>
#include <iterator>

#include "diagnose/model_size.h"
#include "diagnose/rank_format.h"
#include "diagnose/tracker.h"
#include "diagnose/tracker_spans.h"
#include "logs/smi_row.h"

namespace spinup {

void StartupTracker::ApplyLogEvent(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  event_ = &e;
  ApplyEvent(a, e, t);
  event_ = nullptr;
}

void StartupTracker::PushError(AttemptFacts& a, const LogEvent& e) {
  a.fences_at_error = e.fences;
  // A rank's header line ("[TP2] Exception in run_tp_server:") is followed by its traceback's
  // rank-less first line: the traceback, and the frames in it, are that rank's.
  const bool rank_header_before = e.rank.empty() && !a.error_rank.empty() &&
                                  e.rule_id == "generic.traceback" && !a.errors.empty() &&
                                  a.errors.back().starts_with("[" + a.error_rank + "] ") &&
                                  a.errors.back().ends_with(':');
  std::string& line = error_line_;
  line.clear();
  if (!e.rank.empty()) line.append("[").append(e.rank).append("] ");
  line.append(std::string_view(e.text).substr(0, 400));
  NoteError(a, line);
  if (e.role == LogEvent::Role::kRelay && a.relayed.size() < kMaxErrors) a.relayed.push_back(line);
  // A relay (a parent reporting that a child died or failed) names the process that waited, not
  // the one that failed: vLLM's engine core says "Worker proc VllmWorker-0 died" from wherever its
  // own last line left it, while the worker was loading.
  // (A relay that names the child it speaks of, TGI's "Shard 2 failed to start", names the rank.)
  if (e.role != LogEvent::Role::kRelay || (e.rank_from_message && a.failing_rank.empty()))
    NoteFailingRank(a, e.rank);
  // A rank-less error line starts a traceback of no rank.
  if (!rank_header_before) a.error_rank = e.rank;
}

// An error or death that names where it was raised (a rule's "pin"): the first one places the
// start's failure.
void StartupTracker::NotePin(AttemptFacts& a, const LogEvent& e) {
  if (!e.phase) return;
  if (e.pinned && !a.pinned_phase) {
    a.pinned_phase = e.phase;
    a.pinned_when_ready = a.ready;
  }
}

// A host (Triton) goes on loading its other models after one failed: a later model's own death
// (not the host's summary of them) is where the start got to, as its lines say, not where the
// first model failed.
void StartupTracker::UnpinForHost(AttemptFacts& a, const LogEvent& e) {
  if (a.pinned_phase && a.banner_engine == "host" && !e.pinned &&
      e.role == LogEvent::Role::kDirect) {
    a.pinned_phase.reset();
  }
}

void StartupTracker::OnError(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  // A sticky CUDA error poisons the process's context: once the server is up, it cannot serve
  // again (during the start, the traceback around it says where it died).
  if (a.ready && !a.crashed && e.rule_id == "generic.cuda_sticky_error") {
    OnFatal(a, e, t);
    return;
  }
  // Once the HTTP server says its application started (http_up), what can still end the start is
  // a death or a failed bind (fatal lines); an error line is a request's.
  if (a.engine_only_ready && !a.stop_requested && !a.http_up) TakeBackEngineReady(a, t);
  NotePin(a, e);
  if (a.frame_phase) a.frames_closed = true;
  PushError(a, e);
  a.error_after_progress = true;
  a.error_phase = a.phase ? *a.phase : Phase::kLaunch;  // no phase line yet: the launch
  a.main_error_kept = false;
  a.waits_after_error = 0;
  if (e.phase) Hint(a, e.rank, *e.phase, t, /*from_error=*/!e.pinned);
  if (a.crashed) a.crash_phase = a.phase;
}

void StartupTracker::OnStop(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  // Ctrl+C, SIGTERM: the tracebacks and deaths that follow are the stop's, not a crash; so are
  // those a few seconds before its own stamp (a peer's death is reported first; an unstamped
  // stop, typed below the log, came after all of it). A server's own "shutdown complete"
  // ("shutdown.*" rules) only says that what follows is teardown: it also ends a start that died
  // (uvicorn shuts down after failing to bind), so it takes nothing back. Nor does a terminal's
  // "^C" echo: the tty prints it as the key is pressed, so every line above it was printed before
  // any process got the signal (a worker's OOM, then Ctrl+C on the hang that followed).
  // Nor does Slurm's cancel of a step after srun said a task failed: srun ends the step because
  // of that failure (the step's other tasks are killed), no person asked for it; nor its cancel
  // "DUE TO JOB REQUEUE", which a failed run's wrapper asked for.
  const bool slurm_after_failure =
      e.rule_id == "slurm.scancel" &&
      (a.task_failed || e.text.find("DUE TO JOB REQUEUE") != std::string::npos);
  const bool says_why =
      e.rule_id.rfind("shutdown.", 0) != 0 && e.rule_id != "generic.ctrl_c" && !slurm_after_failure;
  if (says_why && e.time_ms && !e.time_inferred && a.crashed && !a.stop_requested && a.crash_ms &&
      t && *t - *a.crash_ms <= 5000 && *t >= *a.crash_ms) {
    a.crashed = false;
    state_.crashed_attempts--;
  }
  if (!a.stop_requested) {
    a.stop_ms = t;
    a.stop_time_carried = !e.time_ms || e.time_inferred;
  }
  if (!a.stop_requested && e.rule_id == "generic.ctrl_c") {
    // (An error a ready server logged for a request, then Ctrl-C: it was serving, not failing.)
    a.failed_before_ctrl_c = a.error_after_progress && !a.ready;
  }
  a.stop_requested = true;
  a.stopped = true;
  a.error_after_progress = false;
}

void StartupTracker::OnFatal(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  if (e.rule_id == "slurm.task_failed" && !a.stop_requested) a.task_failed = true;
  if (a.stop_requested) {
    PushError(a, e);
    return;
  }
  if (a.engine_only_ready && e.while_serving) {
    // Its engine served: the HTTP server's own word that it was up was not needed.
    a.engine_only_ready = false;
  } else if (a.engine_only_ready) {
    TakeBackEngineReady(a, t);
  } else if (e.while_serving && !a.ready && !a.crashed) {
    // Only a serving engine prints this death: the start had come up before the excerpt began.
    OnReady(a, e, t);
  }
  if (a.ready && !a.crashed) a.died_after_ready = true;
  UnpinForHost(a, e);
  NotePin(a, e);
  if (a.frame_phase) a.frames_closed = true;
  PushError(a, e);
  if (!a.crashed) {
    a.crashed = true;
    a.crash_ms = t;
    a.crash_untimed = !e.time_ms || e.time_inferred;
    a.crash_line = Cap(e.rank + '\t' + e.text, 400);
    a.errors_at_death = a.errors.size();
    if (e.rank.empty()) a.first_death_phase = a.phase;
    state_.crashed_attempts++;
  }
  if (e.phase) Hint(a, e.rank, *e.phase, t);
  a.crash_phase = a.phase;
}

// Whether an HTTP server's own line came (its start, or that it is up).
static bool ServerStarted(const AttemptFacts& a) {
  return a.http_up || std::any_of(a.timeline.begin(), a.timeline.end(), [](const PhaseSpan& s) {
           return s.phase == Phase::kHttpStart && !s.implicit;
         });
}

// A file of an installed package or of Python itself, not a script someone ran.
// An nvidia-smi row whose device has a quarter or more of its memory in use and is idle: busy, it
// was read while the run still ran.
static bool MostlyHeld(std::string_view line) {
  const std::optional<SmiDeviceRow> row = ParseSmiDeviceRow(line);
  return row && row->total_mib > 0 && row->used_mib * 4 >= row->total_mib &&
         row->utilization_percent <= 10;
}

static bool InstalledPath(std::string_view frame) {
  return frame.find("-packages/") != frame.npos || frame.find("/lib/python") != frame.npos ||
         frame.find("\"<") != frame.npos;
}

bool StartupTracker::FollowTraceback(AttemptFacts& a, const LogEvent& e) {
  using Kind = LogEvent::Kind;
  if (e.kind == Kind::kForeign) {
    traceback_header_last_ = false;
    // Through the server's own frames, the exception is the server's: its errors come next, and
    // the client library named is no client's. So is one that names the Hugging Face Hub: a
    // server's download, never where a client sends its requests.
    const bool hub = e.text.find("huggingface.co") != std::string::npos ||
                     e.text.find("hf-mirror.com") != std::string::npos;
    const bool servers = (before_traceback_ && traceback_server_frame_) || hub;
    if (!servers) {
      foreign_line_ = e.line_no;
      TakeBackTraceback(a);
    }
    before_traceback_.reset();
    return !servers;
  }
  const bool header = e.kind == Kind::kError &&
                      (e.rule_id == "generic.traceback" || e.rule_id == "generic.traceback_cut");
  // A header right after a header is the same one printed twice (two handlers, a tee'd copy):
  // the traceback it opens began at the first.
  const bool repeated_header = header && traceback_header_last_;
  traceback_header_last_ = header;
  if (header) {
    if (!repeated_header) KeepFramesAtHeader(a);
    traceback_header_line_ = state_.lines;
    traceback_header_chained_ = traceback_chained_;
    if (!before_traceback_ || (!traceback_chained_ && !repeated_header) ||
        before_traceback_->index != a.index) {
      // Copied without its rule hits and bars, which an error line does not move and which are
      // the bulk of an attempt (this runs on every traceback): they are kept as they are.
      RuleHits hits = std::move(a.hits);
      std::vector<BarState> bars = std::move(a.bars);
      before_traceback_ = a;
      a.hits = std::move(hits);
      a.bars = std::move(bars);
      traceback_server_frame_ = false;
      traceback_script_frame_ = false;
    }
    traceback_chained_ = false;
    return true;
  }
  if (!before_traceback_) return true;
  if (e.kind == Kind::kInfo && e.rule_id == "generic.script_frame") {
    if (!InstalledPath(e.text)) traceback_script_frame_ = true;
    return true;
  }
  // A script that drives the engine itself (vLLM's LLM(), sglang.Engine: no HTTP server) raised
  // its own exception once the engine was up (its output file, its parsing of the answers):
  // through the script's frames and none of the server's, the start is not what failed.
  const AttemptFacts& was = *before_traceback_;
  if (e.kind == Kind::kError && e.rule_id == "generic.exception" && traceback_script_frame_ &&
      !traceback_server_frame_ && was.index == a.index &&
      (was.engine_ready_ms || was.ready || was.request_served) && !ServerStarted(was)) {
    foreign_line_ = e.line_no;
    TakeBackTraceback(a);
    before_traceback_.reset();
    return false;
  }
  if (e.kind == Kind::kFrame) {
    traceback_server_frame_ = true;
  } else if (e.kind == Kind::kInfo && e.rule_id == "generic.traceback_chain") {
    traceback_chained_ = true;
  } else if (e.kind != Kind::kError && (e.kind != Kind::kInfo || e.phase)) {
    // A line of the server's own (a phase, a bar, a death): the traceback is over.
    before_traceback_.reset();
  }
  return true;
}

void StartupTracker::TakeBackCrashWhenServing(AttemptFacts& a, const LogEvent& e) {
  // The start went on to later phases after a "fatal" line of its own and its server then said it
  // is up, or answered: that line did not end it (a Ray dashboard's failed bind, a helper
  // process). A peer's death stops a start before its server is up, so only these, never an
  // engine's own ready line, take the crash back.
  const bool server_up = (e.kind == LogEvent::Kind::kReady && !e.engine_only) ||
                         e.kind == LogEvent::Kind::kRequestServed;
  if (server_up && a.crashed && a.crash_ms && !a.stop_requested &&
      (!a.ready || a.engine_only_ready) &&
      std::any_of(a.timeline.begin(), a.timeline.end(), [&](const PhaseSpan& s) {
        return s.phase != Phase::kReady && s.start_ms && *s.start_ms > *a.crash_ms;
      })) {
    a.crashed = false;
    state_.crashed_attempts--;
  }
  // A request answered after the server said its application started, and after the crash that
  // took that line back: the request came in while it served (uvicorn logs a request when it
  // answers: a 500 once the engine died under it). The start was up; the crash came while serving.
  if (e.kind == LogEvent::Kind::kRequestServed && e.answer && a.crashed && a.crash_ms &&
      a.engine_ready_ms && *a.crash_ms >= *a.engine_ready_ms && !a.ready && !a.stop_requested) {
    std::string rank;
    for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
      if (it->phase == Phase::kHttpStart) {
        rank = it->rank;
        break;
      }
    }
    BeginPhase(a, rank, Phase::kReady, a.engine_ready_ms);
    a.ready = true;
    a.died_after_ready = true;
  }
}

// A request answered says the server was up, not when it came up: the time since the start's
// last progress went to waiting for a client (or to lines the excerpt left out), not to the phase
// still open then, which would read as slow.
std::optional<int64_t> StartupTracker::ServingSince(const AttemptFacts& a,
                                                    std::optional<int64_t> t) {
  if (t && a.last_progress_ms && *a.last_progress_ms < *t) return a.last_progress_ms;
  return t;
}

void StartupTracker::OnRequestServed(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  if (!a.ready) a.errors_at_ready = a.errors.size();
  a.request_served = true;
  a.engine_only_ready = false;
  if (!a.ready) BeginPhase(a, e.rank, Phase::kReady, ServingSince(a, t));
  a.ready = true;
  Mark(Signal::kLogProgress, t);
}

void StartupTracker::OnInfo(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  // A line printed inside a phase: moves forward only (never back past the attempt).
  if (e.phase && (CarveEarlierPhase(a, e, t) || DownloadInsideLoad(a, e, t))) return;
  // A line with no time of its own that only says the start is where it already is (NCCL's chatter
  // under the ranks' own lines) opens no span for a process of its own: read live, its time would
  // be the moment it was read, not when it was printed.
  const bool echo = e.phase && (!e.time_ms || e.time_inferred) && a.phase &&
                    Order(*e.phase) <= Order(*a.phase) &&
                    tracker_internal::OpenSpan(a, e.rank) == nullptr;
  if (e.phase && !echo) {
    size_t spans = a.timeline.size();
    RedateOpenSpan(a, e, t);
    Hint(a, e.rank, *e.phase, BegunBefore(a, e, t));
    if (a.timeline.size() != spans) {
      if (t && (!a.last_progress_ms || *a.last_progress_ms < *t)) a.last_progress_ms = t;
      Mark(Signal::kLogProgress, t);
    }
  }
  if (a.crashed) a.crash_phase = a.phase;
  // (While the run is alive, its own processes are the ones listed; once it died, what nvidia-smi
  // still shows in use is another's. An error that ended the log's run, "RuntimeError: ... out of
  // memory" with no traceback, is its death though no line said so yet. Before the run began,
  // nvidia-smi pasted above its log, every process listed is another's.)
  const bool not_begun = a.timeline.empty() && !a.banner && a.errors.empty();
  if ((e.rule_id == "generic.gpu_process_of_engine" || e.rule_id == "generic.smi_app_row" ||
       (e.rule_id == "generic.smi_memory_row" && MostlyHeld(e.text))) &&
      (a.crashed || a.stopped || (a.error_after_progress && !a.ready) || not_begun))
    state_.old_run_holds_gpu = true;
  if (e.phase == Phase::kCompile && t) a.compile_hint_ms = t;
  // A banner printed over several lines names its model on one of its own (TGI's Args).
  if (e.rule_id == "generic.model_named") {
    if (auto bytes = CheckpointBytesFromBanner(e.text, model_sizes_))
      NoteCheckpointEstimate(*bytes);
  }
}

// A phase line takes an error back (the process went on), unless the error was the main
// process's (no rank) and the line a rank's: SGLang's launcher dies building its tokenizer manager
// while the schedulers it spawned still load; without the launcher the start cannot come up.
void StartupTracker::KeepErrorOfAnotherProcess(AttemptFacts& a, const LogEvent& e) {
  if (a.error_after_progress && a.error_rank.empty() && !e.rank.empty()) {
    a.main_error_kept = true;
    return;
  }
  a.error_after_progress = false;
}

void StartupTracker::OnPhaseBegin(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  // A step of the HTTP server's set-up logged again once it serves (a LoRA adapter loaded through
  // its API) starts nothing.
  if (e.phase == Phase::kHttpStart && a.ready && (a.http_up || a.request_served)) return;
  // A server up before any phase line (a wrapper's own API: Xinference's uvicorn), then an
  // engine's phases from the start: that engine's start goes on.
  if (a.ready && a.ready_before_phases && !a.request_served && e.phase &&
      Order(*e.phase) < Order(Phase::kHttpStart)) {
    UndoEngineReady(a);
    a.ready_before_phases = false;
  }
  KeepErrorOfAnotherProcess(a, e);
  a.phase_line = true;
  // The engine said it is ready, and its HTTP server starts only now (vLLM's "init engine ...
  // took", then "Starting vLLM API server"): ready is the server's line, later.
  if (e.phase == Phase::kHttpStart && a.ready && a.engine_only_ready) {
    UndoEngineReady(a, &e.rank);
    a.http_after_engine_ready = true;
  }
  if (e.phase) BeginPhase(a, e.rank, *e.phase, t);
  if (e.phase) a.compile_open = *e.phase == Phase::kCompile;
  Mark(Signal::kLogProgress, t);
}

void StartupTracker::ApplyEvent(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  TakeBackCrashWhenServing(a, e);
  // The process that reported the death went on with phases of its own (Triton loads its other
  // models after one failed): that death was not where the start died.
  if (a.first_death_phase && e.rank.empty() &&
      (e.kind == LogEvent::Kind::kPhaseBegin || e.kind == LogEvent::Kind::kPhaseEnd)) {
    a.first_death_phase.reset();
  }
  if (e.rule_id == "generic.uvicorn_started" || e.rule_id == "generic.uvicorn_lifespan") {
    a.server_awaits_startup = true;
  }
  switch (e.kind) {
    case LogEvent::Kind::kAttemptStart:
      if (e.while_serving) a.serves_http = true;
      break;
    case LogEvent::Kind::kPhaseBegin:
      OnPhaseBegin(a, e, t);
      break;
    case LogEvent::Kind::kPhaseEnd:
      KeepErrorOfAnotherProcess(a, e);
      a.phase_line = true;
      if (e.phase == Phase::kCompile) {
        a.compile_open = false;
        a.compile_hint_ms.reset();  // the build is over: no sign the next phase compiles lazily
      }
      if (e.phase) EndPhase(a, e.rank, *e.phase, t, e.elapsed_seconds);
      Mark(Signal::kLogProgress, t);
      break;
    case LogEvent::Kind::kProgress:
      OnProgress(a, e, t);
      break;
    case LogEvent::Kind::kError:
      OnError(a, e, t);
      break;
    case LogEvent::Kind::kStop:
      OnStop(a, e, t);
      break;
    case LogEvent::Kind::kForeign:  // FollowTraceback took its traceback back
      break;
    case LogEvent::Kind::kFatal:
      OnFatal(a, e, t);
      break;
    case LogEvent::Kind::kReady:
      OnReady(a, e, t);
      break;
    case LogEvent::Kind::kRequestServed:
      OnRequestServed(a, e, t);
      break;
    case LogEvent::Kind::kHeartbeat:
      a.heartbeats++;
      a.last_heartbeat_ms = t;
      if (a.error_after_progress) a.waits_after_error++;
      // Still waiting after an engine said it was ready, before the HTTP server is up: another
      // engine is not (vLLM's API server waiting for a data-parallel engine core).
      if (a.engine_only_ready && !a.http_up && !a.request_served) UndoEngineReady(a);
      // A wait names the phase it waits in ("Waiting for shard 0 to be ready"): evidence of where
      // the start is, never of progress.
      if (e.phase) Hint(a, e.rank, *e.phase, t);
      break;
    case LogEvent::Kind::kFrame:
      OnFrame(a, e);
      break;
    case LogEvent::Kind::kRestarts:
      OnRestarts(a, e);
      break;
    case LogEvent::Kind::kInfo:
      OnInfo(a, e, t);
      break;
  }
}

// An engine of its own (a data-parallel engine core) said it was ready: noted, and whether another,
// seen starting, has not yet (vLLM's API server serves once every engine core is up).
bool StartupTracker::AnotherEngineStarting(AttemptFacts& a, const std::string& ready_rank) const {
  if (!IndependentGroup(PeerGroup(ready_rank), independent_)) return false;
  if (a.ready_engines.size() < 64) a.ready_engines.push_back(ready_rank);
  return std::any_of(a.ranks.begin(), a.ranks.end(), [&](const TrackedRank& r) {
    return r.phase != Phase::kLaunch && IndependentGroup(PeerGroup(r.rank), independent_) &&
           std::find(a.ready_engines.begin(), a.ready_engines.end(), r.rank) ==
               a.ready_engines.end();
  });
}

void StartupTracker::OnReady(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  if (e.engine_only && !a.http_up && !a.request_served && AnotherEngineStarting(a, e.rank)) {
    if (!a.ready) BeginPhase(a, e.rank, Phase::kHttpStart, t);
    return;
  }
  if (a.crashed && !a.died_after_ready &&
      (e.rule_id == "trtllm.triton_app_startup" || e.rule_id == "vllm.triton_ready")) {
    // Triton's HTTP service started after a model failed to load (--exit-on-error=false): that
    // model's failure, not the server's; the server came up without it.
    a.crashed = false;
    state_.crashed_attempts--;
  }
  if (!a.ready) {
    BeginPhase(a, e.rank, Phase::kReady, t);
    a.ready_before_phases = std::none_of(a.timeline.begin(), a.timeline.end(), [&](const auto& s) {
      return s.phase != Phase::kLaunch && Order(s.phase) < Order(Phase::kHttpStart);
    });
    a.engine_only_ready = e.engine_only;
    a.engine_ready_ms = t;
    a.errors_at_ready = a.errors.size();
  } else if (!e.engine_only) {
    a.engine_only_ready = false;  // the server says it is up too
  }
  a.ready = true;
  Mark(Signal::kLogProgress, t);
}

// The engine was up but its HTTP server never was: the time since the engine's ready line was the
// server starting, and the start is not ready after all. A failure long after that line came
// while serving: the server binds right after it (TGI's router logs "Connected", then binds), so
// it was up.
void StartupTracker::TakeBackEngineReady(AttemptFacts& a, std::optional<int64_t> t) {
  if (engine_ready_serving_s_ > 0 && t && a.engine_ready_ms &&
      *t - *a.engine_ready_ms > static_cast<int64_t>(engine_ready_serving_s_ * 1000)) {
    a.engine_only_ready = false;
    return;
  }
  UndoEngineReady(a);
}

// The banner said an HTTP server would start, the engine was ready, and the log's clock went on
// past server_start_wait_s with no line of the server's and no request: the HTTP start hung.
void StartupTracker::NoteServerNeverUp(AttemptFacts& a, std::optional<int64_t> t) {
  if (server_start_wait_s_ <= 0 || !t || !a.ready || !a.engine_only_ready || !a.serves_http ||
      a.http_up || a.request_served || a.stop_requested || !a.engine_ready_ms) {
    return;
  }
  if (*t - *a.engine_ready_ms > static_cast<int64_t>(server_start_wait_s_ * 1000)) {
    UndoEngineReady(a);
  }
}

// The start is not ready yet: the span the engine's ready line opened was the HTTP server's start.
// With `only_rank`, only that rank's (another rank's engine, TensorRT-LLM's executor on rank0
// before the server's own lines, was ready).
void StartupTracker::UndoEngineReady(AttemptFacts& a, const std::string* only_rank) {
  a.ready = false;
  a.engine_only_ready = false;
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    if (it->phase != Phase::kReady) continue;
    if (only_rank != nullptr && it->rank != *only_rank) break;
    it->phase = Phase::kHttpStart;
    // The HTTP start this ready line interrupted goes on: one span, not two.
    const auto ready = std::prev(it.base());
    auto before = std::find_if(std::next(it), a.timeline.rend(),
                               [&](const PhaseSpan& s) { return s.rank == ready->rank; });
    if (before != a.timeline.rend() && before->phase == Phase::kHttpStart) {
      before->end_ms.reset();
      before->ended = false;
      a.timeline.erase(ready);
    }
    break;
  }
  for (auto& r : a.ranks) {
    if (r.phase == Phase::kReady && (only_rank == nullptr || r.rank == *only_rank))
      r.phase = Phase::kHttpStart;
  }
  if (a.phase == Phase::kReady) a.phase = Phase::kHttpStart;
}

// An untimed bar's redraw (tqdm's lines carry no stamp: each takes the last stamped line's time) is
// dated by the bar's own clock: when it began plus its elapsed. An inferred time is never later
// than the line's real one, so neither is this: it can show a capture still moving, never hide a
// stall.
std::optional<int64_t> StartupTracker::DateUntimedRedraw(BarState& bar, const LogEvent& e,
                                                         std::optional<int64_t> t) {
  if (!t || !e.elapsed_seconds) return t;
  const int64_t elapsed_ms = static_cast<int64_t>(*e.elapsed_seconds * 1000);
  if (!bar.origin_ms) {
    bar.origin_ms = *t - elapsed_ms;
    return t;
  }
  if (e.time_ms && !e.time_inferred) return t;
  const int64_t own = *bar.origin_ms + elapsed_ms;
  if (own <= *t) return t;
  Touch(own);
  return own;
}

void StartupTracker::OnProgress(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  BarState* bar = nullptr;
  for (auto& b : a.bars) {
    if (b.bar == e.bar) bar = &b;
  }
  if (!bar) {
    if (a.bars.size() >= kMaxBars) a.bars.erase(a.bars.begin());
    BarState b;
    b.bar = e.bar;
    b.first_ms = t;
    a.bars.push_back(std::move(b));
    bar = &a.bars.back();
  }
  if (e.phase) Hint(a, e.rank, *e.phase, t);
  if (e.phase == Phase::kCompile && t) a.compile_hint_ms = t;  // a JIT's bar (DeepGEMM's warm-up)
  // vLLM's, SGLang's and TensorRT-LLM's loader bar counts the checkpoint's shards: a floor for its
  // size ("Loading safetensors checkpoint shards", "Loading safetensors weights in parallel").
  if (e.progress_total > 0 && (e.bar.find("checkpoint shards") != std::string::npos ||
                               e.bar.find("safetensors weights") != std::string::npos)) {
    NoteCheckpointEstimate(CheckpointBytesFromShards(e.progress_total));
  }
  bar->phase = e.phase ? e.phase : a.phase;
  if (e.elapsed_seconds) bar->elapsed_s = e.elapsed_seconds;
  t = DateUntimedRedraw(*bar, e, t);
  if (e.progress_n != bar->n || e.progress_total != bar->total || !bar->last_advance_ms) {
    bar->last_advance_ms = t;
    bar->last_advance_line = e.line_no;
    a.last_progress_ms = t;
    a.error_after_progress = false;
    Mark(Signal::kLogProgress, t);
  }
  bar->n = e.progress_n;
  bar->total = e.progress_total;
}

}  // namespace spinup
