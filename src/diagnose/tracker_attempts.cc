// Where one start ends and the next begins: banners (timed, timeless, pasted out of order),
// prompts that run the server, and restarts seen only as time gaps.
#include <algorithm>
#include <cstring>
#include <string_view>

#include "diagnose/model_size.h"
#include "diagnose/rank_format.h"
#include "diagnose/tracker.h"
#include "logs/prose.h"

namespace spinup {
namespace {

// The engine a rule belongs to: its id's first word ("vllm.engine_config" -> "vllm").
std::string_view RuleEngine(std::string_view rule_id) {
  return rule_id.substr(0, rule_id.find('.'));
}

// A banner of rules/generic.json (a container image's, a supervisor's spawn): it starts a process,
// so it is a restart whenever the engine's own banner would be.
bool IsLauncherBanner(std::string_view engine) {
  return engine == "generic" || engine == "supervisor" || engine == kPromptEngine ||
         engine == kTraceEngine;
}

// A banner of a server that loads engines as its models' backends (rules "host.*": Triton): an
// engine's banner within its start is that start, even after another of its models failed to load.
bool IsHostBanner(std::string_view engine) { return engine == "host"; }

// Whether `stored` is Cap(rank + '\t' + text, kLineCap), the key the tracker keeps of a line,
// without building that string: the checks run on most events.
constexpr size_t kLineCap = 400;
// A finished engine build this close before the server's banner was the same script's first step.
constexpr int64_t kBuildThenServeMs = 15 * 60 * 1000;
bool SameKey(std::string_view stored, std::string_view rank, std::string_view text) {
  const size_t whole = rank.size() + 1 + text.size();
  if (stored.size() != std::min(whole, kLineCap)) return false;
  if (rank.size() >= stored.size()) return stored == rank.substr(0, stored.size());
  if (!stored.starts_with(rank) || stored[rank.size()] != '\t') return false;
  return stored.substr(rank.size() + 1) == text.substr(0, stored.size() - rank.size() - 1);
}

}  // namespace

bool IsShellPrompt(std::string_view rule_id) { return RuleEngine(rule_id) == kPromptEngine; }

bool IsCommandLine(std::string_view rule_id) {
  const std::string_view engine = RuleEngine(rule_id);
  return engine == kPromptEngine || engine == kTraceEngine;
}

// A banner of a node that is not the head, by number unknown: vLLM's headless executor, which
// only the nodes beside the one serving HTTP run.
constexpr int kWorkerNode = 1 << 20;

// The node a banner names: SGLang's server_args "node_rank=1", a command's "--node-rank 1" or
// "--node_rank=1", a dict's "'node_rank': 1"; kWorkerNode for a headless one; -1 where it names
// none.
int BannerNodeRank(std::string_view text) {
  if (text.find("headless") != std::string_view::npos) return kWorkerNode;
  for (std::string_view key : {"node_rank", "node-rank"}) {
    const size_t at = text.find(key);
    if (at == std::string_view::npos) continue;
    size_t i = at + key.size();
    while (i < text.size() && (text[i] == '\'' || text[i] == '"' || text[i] == ' ')) ++i;
    if (i < text.size() && (text[i] == '=' || text[i] == ':')) ++i;
    while (i < text.size() && text[i] == ' ') ++i;
    int n = -1;
    for (size_t d = 0; i < text.size() && d < 6 && text[i] >= '0' && text[i] <= '9'; ++i, ++d) {
      n = (n < 0 ? 0 : n * 10) + (text[i] - '0');
    }
    if (n >= 0) return n;
  }
  return -1;
}

void StartupTracker::StartAttempt(const LogEvent& e, std::optional<int64_t> t) {
  // A command typed at a prompt, or a script's `set -x` trace of it, starts the run that prints
  // after it (its time is when it prints).
  if (IsCommandLine(e.rule_id) && !state_.attempts.empty()) {
    pending_prompt_ = e.time_ms;  // a later prompt before any output replaces it
    pending_prompt_engine_.assign(RuleEngine(e.rule_id));
    pending_prompt_node_ = BannerNodeRank(e.text);
    return;
  }
  // A shell prompt is where a person started it, never a banner pasted out of order.
  if (!e.time_ms && !state_.attempts.empty() && !IsCommandLine(e.rule_id)) {
    pending_banner_ = true;
    pending_banner_engine_ = RuleEngine(e.rule_id);
    return;
  }
  OpenAttempt(e.time_ms, e.rank, RuleEngine(e.rule_id), t, BannerNodeRank(e.text));
  if (auto bytes = CheckpointBytesFromBanner(e.text, model_sizes_)) NoteCheckpointEstimate(*bytes);
}

void StartupTracker::NoteCheckpointEstimate(uint64_t bytes) {
  if (bytes > 0 &&
      (!state_.estimated_checkpoint_bytes || bytes > *state_.estimated_checkpoint_bytes))
    state_.estimated_checkpoint_bytes = bytes;
}

namespace {

// Whether the attempt before a banner is a run of its own, not the first lines of the start the
// banner opens.
bool RanBeforeTheBanner(const AttemptFacts& cur, std::optional<int64_t> banner_ms,
                        std::string_view banner_engine) {
  // Lines of the launch alone are not content: vLLM's API server banner is followed by its
  // engine's ("Initializing a V1 LLM engine"), both within one start.
  // Nor is an HTTP server's start with nothing after it: an application that builds its engine
  // in its startup hook prints uvicorn's "Started server process" first.
  // (Nor a download step that ran before the engine's banner: KServe's storage initializer.)
  const bool past_launch =
      std::any_of(cur.timeline.begin(), cur.timeline.end(), [&](const PhaseSpan& s) {
        return s.phase != Phase::kLaunch && s.phase != Phase::kHttpStart &&
               !(s.phase == Phase::kDownload && cur.download_step_before);
      });
  // The service manager's stop job, stamped before the banner, ended an earlier run: `systemctl
  // restart` journals the old run's "Stopping"/"Stopped" before the new run's "Started". (A
  // kubelet's "Killing" event above `kubectl logs` is the record of the run below it.) So does
  // a watchdog's `pkill` stamped before it (its next line launches the new run).
  const bool stopped_before = cur.stopped &&
                              (cur.stop_job || cur.hits.count("generic.shell_stop") != 0) &&
                              cur.stop_ms && banner_ms && *cur.stop_ms <= *banner_ms;
  // (Errors a start typed at a prompt logged before its banner and lived through, vLLM's
  // "Failed to load plugin ascend" with its traceback, are that start's; not when the next
  // banner is another command typed: the first one had ended.)
  const bool prompt_errors_only = cur.banner && cur.banner_engine == kPromptEngine &&
                                  banner_engine != kPromptEngine && !cur.crashed && !past_launch;
  return past_launch || (!cur.errors.empty() && !prompt_errors_only) || cur.ready || cur.crashed ||
         stopped_before;
}

// Another node's banner stamped within this start (a multi-node job's logs pasted one after the
// other): the same start seen from that node, not a restart. A banner that names no node is the
// head's beside a headless one. A command typed at another node's prompt ("--node-rank 1") has no
// time of its own: the writer pasted that node's terminal below the first's.
bool OtherNodesBanner(const AttemptFacts& cur, int node_rank, std::optional<int64_t> banner_ms,
                      std::string_view banner_engine) {
  const bool nodes_differ =
      node_rank != cur.node_rank && ((node_rank >= 0 && cur.node_rank >= 0) ||
                                     node_rank == kWorkerNode || cur.node_rank == kWorkerNode);
  return nodes_differ && ((banner_ms && cur.last_ms && *banner_ms <= *cur.last_ms) ||
                          (!banner_ms && banner_engine == kPromptEngine));
}

}  // namespace

void StartupTracker::OpenAttempt(std::optional<int64_t> banner_ms, const std::string& rank,
                                 std::string_view banner_engine, std::optional<int64_t> t,
                                 int node_rank) {
  bool has_content = false;
  bool other_node = false;
  bool earlier = false;
  bool prepared = false;
  if (!state_.attempts.empty()) {
    const AttemptFacts& cur = state_.attempts.back();
    has_content = RanBeforeTheBanner(cur, banner_ms, banner_engine);
    // An attempt seen without its launch banner (an excerpt's middle), then a banner stamped
    // before its lines: the same attempt's beginning pasted after it, not a restart. supervisord
    // writes its own log file, pasted below the program's: a "spawned:" stamped before the
    // attempt's lines is that attempt's.
    // A supervisor's record of its runs (`docker events`' start and die) pasted above the log
    // of its latest run: a banner stamped inside the record's last run is that run's.
    earlier = (!cur.banner || cur.banner_engine == kPromptEngine || cur.banner_pasted_after ||
               banner_engine == "supervisor" || cur.banner_engine == "supervisor") &&
              banner_ms && cur.last_ms && *banner_ms + 1000 < *cur.last_ms;
    const bool sibling = SiblingBanner(cur, rank);
    // Another engine's banner inside a start that is going well: a host loading a backend
    // (Triton's model load starting vLLM's engine), not a restart. A host goes on loading its
    // other models after one failed; its own restart prints its own banner first.
    const bool nested = cur.banner && !banner_engine.empty() && !IsLauncherBanner(banner_engine) &&
                        cur.banner_engine != banner_engine && !cur.ready &&
                        (IsHostBanner(cur.banner_engine) || (!cur.crashed && cur.errors.empty()));
    other_node = OtherNodesBanner(cur, node_rank, banner_ms, banner_engine);
    const bool built_just_before = BuiltJustBefore(cur, banner_ms, banner_engine);
    prepared = OnlyADownloadStep(cur) || built_just_before;
    if (sibling || nested || other_node || prepared) has_content = false;
    const bool record = RecordAboveThePreviousLog(cur);
    const bool record_only = state_.attempts.size() == 1 && OnlyARecordOfAnEnd(cur);
    // `docker ps` shows the container as it is now: the log below it (`docker logs`) has ended.
    // So does `kubectl describe` of an evicted pod: its exit code is the log's end.
    const bool ended_now =
        record_only && std::any_of(cur.hits.begin(), cur.hits.end(), [](auto& h) {
          return h.first.starts_with("record.") || h.first == "generic.k8s_evicted";
        });
    if (record || record_only || QuotedAboveTheLog(cur) || AnotherCommentsRun(cur) ||
        (OnlyAFinishedBuild(cur) && !built_just_before)) {
      ForgetQuote(t, previous_log_ || record_only);
      has_content = false;
    }
    if (record || ended_now) state_.attempts.back().ended_by_record = true;
  }
  // The start right below "kubectl logs --previous" is that container's: it has ended.
  const bool previous_container = previous_log_;
  if (!state_.attempts.empty()) previous_log_ = false;
  if (state_.attempts.empty() || (has_content && !earlier)) NewAttempt(t);
  AttemptFacts& opened = state_.attempts.back();
  if (previous_container) opened.ended_by_record = true;
  if (!IsLauncherBanner(banner_engine) && banner_engine != kPromptEngine) ForgetAppStartup(opened);
  if (earlier) opened.banner_pasted_after = true;
  if (prepared) {
    LaunchAfterDownload(opened);
    opened.download_step_before = OnlyADownloadStep(opened);
  }
  // The engine's own banner after the prompt that started it names the start's engine.
  if (!opened.banner || opened.banner_engine == kPromptEngine ||
      opened.banner_engine == kTraceEngine) {
    opened.banner_engine = banner_engine;
  }
  opened.banner = true;
  if (banner_engine == kPromptEngine) opened.manual = true;
  if (opened.node_rank < 0 && !other_node) opened.node_rank = node_rank;  // the first node's
}

// The banner of another independent rank (the engine's "ranks.independent") the attempt has not
// heard from, while it is still going: the same start (vLLM's EngineCore_DP1 after
// EngineCore_DP0), not a restart.
bool StartupTracker::SiblingBanner(const AttemptFacts& cur, const std::string& rank) const {
  const std::string_view group = PeerGroup(rank);
  return IndependentGroup(group, independent_) && !cur.crashed && cur.banner &&
         std::none_of(cur.ranks.begin(), cur.ranks.end(),
                      [&](const TrackedRank& r) { return r.rank == rank; }) &&
         std::any_of(cur.ranks.begin(), cur.ranks.end(),
                     [&](const TrackedRank& r) { return PeerGroup(r.rank) == group; });
}

// An engine build that finished right before the server's banner (a script that builds, then
// serves) is the start's first step, as a download step is: its time counts. One pasted from an
// earlier day is the step that made the engine, forgotten as a quote. A banner with no time of its
// own at a shell prompt (`mpirun ... trtllm-serve` typed after the build), or after one, is the
// writer's next command in the same terminal.
bool StartupTracker::BuiltJustBefore(const AttemptFacts& cur, std::optional<int64_t> banner_ms,
                                     std::string_view banner_engine) {
  if (!OnlyAFinishedBuild(cur)) return false;
  if (!banner_ms) {
    const auto command = [](std::string_view engine) {
      return engine == kPromptEngine || engine == kTraceEngine;
    };
    return command(banner_engine) || command(cur.banner_engine);
  }
  return cur.last_ms && *banner_ms >= *cur.last_ms &&
         *banner_ms - *cur.last_ms <= kBuildThenServeMs;
}

// Before any banner, only a download step (NIM's "Preparing model workspace", a wrapper's fetch)
// and the phase its end opened: the engine's banner after it is the same start's.
bool StartupTracker::OnlyADownloadStep(const AttemptFacts& cur) {
  return !cur.banner && !cur.crashed && !cur.ready && !cur.stopped && cur.errors.empty() &&
         std::any_of(cur.timeline.begin(), cur.timeline.end(),
                     [](const PhaseSpan& s) { return s.phase == Phase::kDownload; }) &&
         std::all_of(cur.timeline.begin(), cur.timeline.end(), [](const PhaseSpan& s) {
           return s.phase == Phase::kLaunch || s.phase == Phase::kDownload || s.implicit;
         });
}

// The engine starts after a download step of its own (NIM's workspace): the phase the download's
// end opened is its launch.
void StartupTracker::LaunchAfterDownload(AttemptFacts& a) {
  if (a.timeline.empty() || a.timeline.back().ended || !a.timeline.back().implicit) return;
  PhaseSpan& open = a.timeline.back();
  if (a.phase == open.phase) a.phase = Phase::kLaunch;
  open.phase = Phase::kLaunch;
  for (TrackedRank& r : a.ranks) {
    if (r.rank == open.rank) r.phase = Phase::kLaunch;
  }
}

// An engine's banner after an HTTP server's start and nothing else: the application builds its
// engine in its startup hook, so the server is not up before the engine is; the engine's phases
// are where the start is.
void StartupTracker::ForgetAppStartup(AttemptFacts& a) {
  const auto http = [](const PhaseSpan& s) { return s.phase == Phase::kHttpStart; };
  if (!a.errors.empty() || a.ready || a.crashed || a.http_up ||
      std::none_of(a.timeline.begin(), a.timeline.end(), http) ||
      std::any_of(a.timeline.begin(), a.timeline.end(), [](const PhaseSpan& s) {
        return s.phase != Phase::kLaunch && s.phase != Phase::kHttpStart;
      })) {
    return;
  }
  std::erase_if(a.timeline, http);
  a.phase.reset();
  for (TrackedRank& r : a.ranks) {
    if (r.phase == Phase::kHttpStart) {
      r.phase = Phase::kLaunch;
      r.phase_done = false;
    }
  }
}

void StartupTracker::ResolvePendingBanner(const LogEvent& e) {
  pending_banner_ = false;
  // Another banner decides: with its time, or without one by waiting in turn (a container's
  // banner, then the engine's, or one printed twice, all before the start's first stamped line).
  if (e.kind == LogEvent::Kind::kAttemptStart) return;
  OpenAttempt(e.time_ms, "", pending_banner_engine_, e.time_ms ? e.time_ms : now_ms_);
}

// The start a prompt began speaks with its first line that is not a launcher's or a pasted
// environment's plain fact (a phase, an error, an engine's banner or line).
void StartupTracker::ResolvePendingPrompt(const LogEvent& e) {
  if (e.kind == LogEvent::Kind::kAttemptStart && IsCommandLine(e.rule_id)) return;
  if (e.kind == LogEvent::Kind::kInfo && IsLauncherBanner(RuleEngine(e.rule_id))) return;
  if (EvidenceOnly(e)) return;
  const std::optional<int64_t> prompt_ms = *pending_prompt_;
  pending_prompt_.reset();
  OpenAttempt(prompt_ms, "", pending_prompt_engine_,
              prompt_ms ? prompt_ms : (e.time_ms ? e.time_ms : now_ms_), pending_prompt_node_);
}

bool StartupTracker::RepeatedBanner(const LogEvent& e) {
  const bool repeated = last_banner_line_ != 0 && state_.lines == last_banner_line_ + 1 &&
                        e.time_ms == last_banner_ms_ && SameKey(last_banner_, e.rank, e.text);
  last_banner_ = Cap(e.rank + '\t' + e.text, kLineCap);
  last_banner_ms_ = e.time_ms;
  last_banner_line_ = state_.lines;
  return repeated;
}

// The attempt's first line, and whether it came again after the attempt crashed. Only a line other
// than the crash's own counts (a death printed by two ranks alike is one death).
void StartupTracker::NoteFirstLine(AttemptFacts& a, const LogEvent& e) {
  const bool own_time = e.time_ms && !e.time_inferred;
  if (a.first_line.empty()) {
    a.first_line = Cap(e.rank + '\t' + e.text, kLineCap);
    if (own_time) a.first_line_ms = e.time_ms;
    return;
  }
  if (a.crashed && !a.first_line_again && a.first_line != a.crash_line &&
      SameKey(a.first_line, e.rank, e.text)) {
    a.first_line_again = true;
    a.again_is_copy = !own_time || a.first_line_ms == e.time_ms;
  }
}

// A log viewer run at a prompt ("$ docker logs -f vllm", "journalctl -fu vllm", "tail -f"): the
// command line is the writer's, and the "^C" that follows stops the viewer, not the server (which
// printed nothing of a stop). The next command at a prompt ends the viewer.
bool StartupTracker::ViewerInterrupted(const LogEvent& e) {
  if (e.rule_id == "generic.log_viewer") {
    viewer_running_ = true;
    return true;
  }
  if (!viewer_running_) return false;
  if (e.rule_id == "generic.ctrl_c") {
    viewer_running_ = false;
    return true;
  }
  if (IsShellPrompt(e.rule_id) || e.rule_id == "generic.shell_stop") viewer_running_ = false;
  return false;
}

// The paste repeats itself (copied twice into a comment): the log's first stamped line (of a
// rule's) comes again with its own time, before lines already read. A restart's lines are stamped
// later than everything before them, so this is the same text again: its lines are skipped until
// the times pass the latest one read before it. A copy without times is a restart printing the
// same lines. Only once the log has gone on for a while after that line: lines of several
// processes interleave a second or so out of order, and two untagged replicas print alike.
bool StartupTracker::Replayed(const LogEvent& e) {
  if (replay_until_ms_) {
    if (!e.time_ms || *e.time_ms <= *replay_until_ms_) return true;
    replay_until_ms_.reset();
    return false;
  }
  if (!e.time_ms) return false;
  if (!first_stamped_ms_) {
    first_stamped_ms_ = e.time_ms;
    first_stamped_line_ = Cap(e.rank + '\t' + e.text, kLineCap);
    return false;
  }
  // The times first, the text only then: most lines are stamped later, and this runs on each.
  constexpr int64_t kPasteSpanMs = 10'000;
  // (Lines' own stamps: a clock reading pasted above the log, `systemctl status`'s "34min ago",
  // is no line read after it.)
  if (*e.time_ms > *first_stamped_ms_ || !latest_stamped_ms_ ||
      *latest_stamped_ms_ - *first_stamped_ms_ < kPasteSpanMs ||
      !SameKey(first_stamped_line_, e.rank, e.text))
    return false;
  replay_until_ms_ = latest_stamped_ms_;
  return true;
}

bool StartupTracker::RestartedWithoutBanner(const LogEvent& e, std::optional<int64_t> t) const {
  // A restart spends seconds in imports before its first phase line; ranks of one start that go on
  // after a peer's crash print within that time, and never go back to a phase they passed.
  constexpr int64_t kRestartGapMs = 10'000;
  if (state_.attempts.empty()) return false;
  const AttemptFacts& a = state_.attempts.back();
  // (A start that came up and then died, TGI's router "Connected" before its webserver failed to
  // bind, may be started again too, and so may one that died and was torn down: TGI's launcher
  // shuts its shards down after the failure.)
  if (!(a.crashed || a.error_after_progress) || (a.ready && !a.crashed) ||
      (a.stopped && !a.crashed))
    return false;
  // A main process's traceback again, not chained to the one before: the process that printed the
  // first died, so this is another's (a container restarting on an ImportError before any line of
  // its own). Stamped lines say it by their times below. Named ranks, and ranks that each run a
  // main program of their own (the engine's "ranks.own_main": TGI's shards, mpirun's ranks), each
  // die at an entry of their own.
  if (OpensEntryTraceback(e)) {
    return a.entry_tracebacks > 0 && !(e.time_ms && !e.time_inferred) && e.rank.empty() &&
           !ranks_own_main_;
  }
  // The same rank's first fatal line again, long after it: a process prints its own death once
  // (TGI's launcher, an SGLang scheduler), so the tails of several runs pasted without their
  // banners are several runs. (The line's own time is already the attempt's last: measure from
  // the first death.)
  if (e.kind == LogEvent::Kind::kFatal) {
    if (!a.crashed || !SameKey(a.crash_line, e.rank, e.text)) return false;
    // The same death again after the attempt's opening line came again (the same usage error,
    // the same traceback, from a restarting container): with or without times, and whether the
    // times are the log's or, live, the lines' arrival.
    // Not when another rank's header opened the traceback it ends (SGLang's "[TP1] Scheduler hit
    // an exception"): ranks that fail alike print the same death, and an excerpt cut inside the
    // first rank's traceback (its header, and its time, gone) opens with frames the next repeats.
    if (e.rank.empty() && !a.error_rank.empty() && a.error_rank != a.failing_rank) return false;
    if (a.first_line_again) return !(a.again_is_copy && a.again_stamped > 0);
    // (A death on an untimed line took the latest time before it: the gap after it is not known.
    // TensorRT-LLM's untimed "[TensorRT-LLM][ERROR] Failed, NCCL error" comes two minutes after
    // the last stamped line, right before the rank's own stamped report of it.)
    return t && a.crash_ms && !a.crash_untimed && *t - *a.crash_ms >= kRestartGapMs;
  }
  // The attempt's first error again, long after its last line, with no phase line yet
  // (FirstErrorAgain).
  if (e.kind == LogEvent::Kind::kError) return FirstErrorAgain(a, e, t, kRestartGapMs);
  // The engine says it is ready long after the attempt died: ranks of a start that died never get
  // there, so a later start did (its tail pasted below the failed one's, after a "...").
  if (e.kind == LogEvent::Kind::kReady) {
    constexpr int64_t kReadyAfterDeathMs = 30'000;
    return a.crashed && a.crash_ms && e.time_ms && !e.time_inferred &&
           *e.time_ms - *a.crash_ms >= kReadyAfterDeathMs;
  }
  // So does a rank's end line for a phase it had already ended, before the one the start died in
  // (a retry loop's tails, each cut after its banner: "Load weight end." again, a minute after
  // the death). A rank that ends its phase late, after a faster peer died further on, ends it once.
  // (Not after a death on an untimed line: how long ago it came is not known. Triton's next model
  // begins 20 s after TensorRT-LLM's unstamped engine error, in the same start.)
  const bool ends = e.kind == LogEvent::Kind::kPhaseEnd;
  if (!t || (e.kind != LogEvent::Kind::kPhaseBegin && !ends) || !e.phase || !a.phase ||
      !a.last_ms || (a.crashed && a.crash_untimed))
    return false;
  const int died_in = Order(a.crash_phase.value_or(*a.phase));
  if (Order(*e.phase) > died_in || (ends && Order(*e.phase) == died_in)) return false;
  if (ends && std::none_of(a.timeline.begin(), a.timeline.end(), [&](const PhaseSpan& s) {
        return s.rank == e.rank && s.phase == *e.phase && s.ended;
      })) {
    return false;
  }
  return *t - *a.last_ms >= kRestartGapMs;
}

// The first frame of a traceback is a program's entry (runpy's, a console script's): the traceback
// of a main process that died, unless a chain line ("During handling of the above exception")
// joins it to the one before.
bool StartupTracker::OpensEntryTraceback(const LogEvent& e) const {
  return e.rule_id == "generic.entry_frame" && state_.lines == traceback_header_line_ + 1 &&
         !traceback_header_chained_;
}

// A stamped line's fingerprint: its own time, its rank and the text's length and ends. A copy of
// a paste has the same; a restart's lines are stamped later.
namespace {
uint64_t StampFingerprint(const LogEvent& e) {
  uint64_t h = static_cast<uint64_t>(*e.time_ms) * 0x9E3779B97F4A7C15ull;
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
  // Loads, not a hash of the whole text: this runs on every stamped line.
  auto ends = [&mix](std::string_view s) {
    uint64_t head = 0, tail = 0;
    const size_t n = std::min<size_t>(8, s.size());
    std::memcpy(&head, s.data(), n);
    std::memcpy(&tail, s.data() + s.size() - n, n);
    mix(s.size());
    mix(head);
    mix(tail);
  };
  ends(e.rank);
  ends(e.text);
  return h;
}
}  // namespace

// The first stamped line after a stop with no time of its own: its teardown, printed when the stop
// came (a "^C" echo carries the time of the line before it, which may be long before).
void StartupTracker::SettleStopTime(AttemptFacts& a, int64_t stamped_ms) {
  if (!a.stop_time_carried) return;
  if (!a.stop_ms || stamped_ms > *a.stop_ms) a.stop_ms = stamped_ms;
  a.stop_time_carried = false;
}

namespace {
// A later attempt a person began by hand with lines without a time of their own (a shell prompt,
// the server's args) took the time of the attempt before's last line; its first stamped line says
// when it began (the person's pause between the two runs is not its launch).
void DateUntimedStart(AttemptFacts& a, int64_t stamped_ms) {
  if (a.index < 2 || !a.manual || a.stamped_lines != 0 || a.first_line_ms || !a.start_ms ||
      *a.start_ms >= stamped_ms) {
    return;
  }
  const int64_t was = *a.start_ms;
  auto move = [&](std::optional<int64_t>& t) {
    if (t && *t == was) t = stamped_ms;
  };
  move(a.start_ms);
  move(a.first_ms);
  for (PhaseSpan& s : a.timeline) move(s.start_ms), move(s.end_ms);
  for (TrackedRank& r : a.ranks) move(r.since_ms);
}
}  // namespace

void StartupTracker::NoteStamp(AttemptFacts& a, const LogEvent& e) {
  if (!e.time_ms || e.time_inferred || (e.line_no != 0 && e.line_no == a.last_stamped_line_no))
    return;
  DateUntimedStart(a, *e.time_ms);
  if (!a.first_stamped_ms || *e.time_ms < *a.first_stamped_ms) a.first_stamped_ms = e.time_ms;
  SettleStopTime(a, *e.time_ms);
  a.last_stamped_line_no = e.line_no;
  if (a.stamped_lines == 0) a.error_before_stamps = a.crashed || !a.errors.empty();
  const uint64_t f = StampFingerprint(e);
  ++a.stamped_lines;
  if (a.again_is_copy) {
    if (std::find(a.stamps.begin(), a.stamps.end(), f) == a.stamps.end()) {
      a.again_is_copy = false;
    } else {
      ++a.again_stamped;
    }
  }
  if (a.stamps.size() < kMaxStamps) a.stamps.push_back(f);
  if (a.stamps_new > 0) return;  // already not a copy: no lookups
  const size_t n = state_.attempts.size();
  const AttemptFacts* prev = n >= 2 ? &state_.attempts[n - 2] : nullptr;
  if (prev == nullptr || prev->stamped_lines > kMaxStamps ||
      !std::binary_search(prev->stamps.begin(), prev->stamps.end(), f)) {
    ++a.stamps_new;
  }
}

namespace {
// Its errors must be the earlier one's too: the lines without times (a traceback's) may be all
// that differs between two runs of a start that stamps few lines.
bool IsRepaste(const AttemptFacts& earlier, const AttemptFacts& a) {
  if (a.stamped_lines == 0 || a.stamps_new != 0) return false;
  return std::all_of(a.errors.begin(), a.errors.end(), [&](const std::string& e) {
    return std::find(earlier.errors.begin(), earlier.errors.end(), e) != earlier.errors.end();
  });
}
}  // namespace

bool HasRepastedAttempt(const TrackerState& st) {
  for (size_t i = 1; i < st.attempts.size(); ++i) {
    if (IsRepaste(st.attempts[i - 1], st.attempts[i])) return true;
  }
  return false;
}

TrackerState WithoutRepastedAttempts(const TrackerState& st) {
  TrackerState out = st;
  // From the end: each copy is of the attempt kept before it, itself perhaps a copy.
  for (size_t i = out.attempts.size(); i-- > 1;) {
    if (!IsRepaste(out.attempts[i - 1], out.attempts[i])) continue;
    if (out.attempts[i].crashed) out.crashed_attempts--;
    out.total_attempts--;
    out.attempts.erase(out.attempts.begin() + static_cast<std::ptrdiff_t>(i));
    AttemptFacts& prev = out.attempts[i - 1];
    if (prev.ended_silently) {
      prev.ended_silently = false;
      out.silent_ends--;
    }
  }
  return out;
}

}  // namespace spinup
