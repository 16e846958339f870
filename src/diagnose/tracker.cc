#include "diagnose/tracker.h"

#include <algorithm>
#include <array>

namespace spinup {
namespace {

constexpr std::array<std::string_view, kSignalCount> kSignalNames = {
    "log_line", "log_progress", "read_bytes",       "residency",
    "cpu",      "gpu_memory",   "compiler_children"};

constexpr size_t kMaxHitText = 300;

std::string Cap(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }

bool IsCompiler(std::string_view comm) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "nvcc", "cicc", "ptxas", "ninja", "cc1plus", "gcc", "g++", "clang", "c++", "fatbinary"};
  for (auto n : kNames) {
    if (comm == n) return true;
  }
  return comm.rfind("cc1", 0) == 0;
}

}  // namespace

std::string_view SignalName(Signal s) { return kSignalNames[static_cast<size_t>(s)]; }

StartupTracker::StartupTracker() {
  for (int i = 0; i < kPhaseCount; ++i) order_.push_back(static_cast<Phase>(i));
}

void StartupTracker::SetEngine(std::string_view engine) { state_.engine = std::string(engine); }

void StartupTracker::SetPhaseOrder(std::vector<Phase> order) {
  if (!order.empty()) order_ = std::move(order);
}

int StartupTracker::Order(Phase p) const {
  for (size_t i = 0; i < order_.size(); ++i) {
    if (order_[i] == p) return static_cast<int>(i);
  }
  // Phases the engine's order omits sort by the enum, between their neighbours.
  return static_cast<int>(p) - kPhaseCount;
}

std::optional<Phase> StartupTracker::Next(Phase p) const {
  for (size_t i = 0; i + 1 < order_.size(); ++i) {
    if (order_[i] == p) return order_[i + 1];
  }
  return std::nullopt;
}

AttemptFacts& StartupTracker::Current() {
  if (state_.attempts.empty()) NewAttempt(now_ms_);
  return state_.attempts.back();
}

void StartupTracker::NewAttempt(std::optional<int64_t> t) {
  if (!state_.attempts.empty() && state_.attempts.back().crashed) {
    // counted when it crashed
  }
  if (state_.attempts.size() >= kMaxAttempts) {
    // Keep the first attempt and the latest ones; the middle of a long crash loop adds nothing.
    state_.attempts.erase(state_.attempts.begin() + 1);
  }
  AttemptFacts a;
  a.index = ++state_.total_attempts;
  a.start_ms = t;
  state_.attempts.push_back(std::move(a));
}

TrackedRank& StartupTracker::Rank(AttemptFacts& a, const std::string& rank) {
  for (auto& r : a.ranks) {
    if (r.rank == rank) return r;
  }
  if (a.ranks.size() >= kMaxRanks) return a.ranks.back();  // bounded: fold extras into the last
  TrackedRank r;
  r.rank = rank;
  r.since_ms = a.start_ms ? a.start_ms : a.first_ms;
  a.ranks.push_back(std::move(r));
  return a.ranks.back();
}

void StartupTracker::Touch(std::optional<int64_t> t) {
  if (!t) return;
  if (!now_ms_ || *t > *now_ms_) now_ms_ = t;
  if (!state_.first_ms || *t < *state_.first_ms) state_.first_ms = t;
  if (!state_.last_ms || *t > *state_.last_ms) state_.last_ms = t;
}

void StartupTracker::Mark(Signal s, std::optional<int64_t> t) {
  if (!t) return;
  auto& slot = state_.last_signal_ms[static_cast<size_t>(s)];
  if (!slot || *t > *slot) slot = t;
}

namespace {

PhaseSpan* OpenSpan(AttemptFacts& a, const std::string& rank) {
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    if (it->rank == rank) return it->ended ? nullptr : &*it;
  }
  return nullptr;
}

void PushSpan(AttemptFacts& a, PhaseSpan span) {
  if (a.timeline.size() >= StartupTracker::kMaxSpans) {
    // Keep memory bounded: drop the older half of the closed spans in one pass (amortised O(1)
    // per push; a log that repeats phases forever keeps its latest history).
    size_t to_drop = StartupTracker::kMaxSpans / 2;
    auto it = std::remove_if(a.timeline.begin(), a.timeline.end(), [&](const PhaseSpan& s) {
      if (to_drop > 0 && s.ended) {
        --to_drop;
        return true;
      }
      return false;
    });
    a.timeline.erase(it, a.timeline.end());
    if (a.timeline.size() >= StartupTracker::kMaxSpans) {
      a.timeline.erase(a.timeline.begin(), a.timeline.begin() + StartupTracker::kMaxSpans / 2);
    }
  }
  a.timeline.push_back(std::move(span));
}

}  // namespace

void StartupTracker::Hint(AttemptFacts& a, const std::string& rank, Phase phase,
                          std::optional<int64_t> t) {
  if (a.ready) return;
  bool known = false;
  for (const auto& r : a.ranks) {
    if (r.rank == rank) {
      known = true;
      if (Order(phase) <= Order(r.phase)) return;
    }
  }
  // A rank seen for the first time with a hint of an earlier phase than the attempt's (a late
  // main-process line) still only tells us where that rank is.
  (void)known;
  BeginPhase(a, rank, phase, t, /*explicit_begin=*/false);
}

void StartupTracker::BeginPhase(AttemptFacts& a, const std::string& rank, Phase phase,
                                std::optional<int64_t> t, bool explicit_begin) {
  auto set_attempt_phase = [&](Phase p) {
    if (explicit_begin || !a.phase || Order(p) > Order(*a.phase)) a.phase = p;
  };
  TrackedRank& r = Rank(a, rank);
  PhaseSpan* open = OpenSpan(a, rank);
  if (open) {
    if (open->phase == phase) {
      // A repeated begin (draft model, second print): the phase simply continues; an implicit
      // span becomes explicit from here.
      if (open->implicit) {
        open->implicit = false;
        if (t && (!open->start_ms || *open->start_ms > *t)) open->start_ms = t;
      }
      r.phase = phase;
      r.phase_done = false;
      set_attempt_phase(phase);
      return;
    }
    open->end_ms = t;
    open->ended = true;
    // An implicit span that lasted no time says nothing; drop it.
    if (open->implicit && open->start_ms && t && *open->start_ms == *t)
      a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
  }
  PhaseSpan span;
  span.rank = rank;
  span.phase = phase;
  span.start_ms = t;
  PushSpan(a, std::move(span));
  r.phase = phase;
  r.since_ms = t;
  r.phase_done = false;
  set_attempt_phase(phase);
  a.last_progress_ms = t ? t : a.last_progress_ms;
}

void StartupTracker::EndPhase(AttemptFacts& a, const std::string& rank, Phase phase,
                              std::optional<int64_t> t, std::optional<double> elapsed) {
  TrackedRank& r = Rank(a, rank);
  PhaseSpan* open = OpenSpan(a, rank);
  if (open && open->phase == phase) {
    open->end_ms = t;
    open->ended = true;
    open->implicit = false;
    open->reported_seconds = elapsed;
    if (elapsed && t && !open->start_ms) {
      open->start_ms = *t - static_cast<int64_t>(*elapsed * 1000);
    }
  } else {
    // The end of a phase whose begin we did not see (an excerpt, or a rank that prints only
    // the end). A rank already past it just repeats what it said.
    if (Order(r.phase) > Order(phase) && r.since_ms) return;
    std::optional<int64_t> start;
    if (!elapsed) {
      // The phase's own bar may say how long it ran ("[1:09:28<00:00").
      for (const auto& b : a.bars) {
        if (b.phase == phase && b.elapsed_s && (!elapsed || *b.elapsed_s > *elapsed)) {
          elapsed = b.elapsed_s;
        }
      }
    }
    if (elapsed && t) start = *t - static_cast<int64_t>(*elapsed * 1000);
    if (open) {
      // The open span ends where this one is known to have begun, else at this line (the ended
      // phase's start is then unknown: an excerpt).
      open->end_ms = start ? start : t;
      open->ended = true;
      if (open->implicit && open->start_ms && open->end_ms && *open->end_ms <= *open->start_ms) {
        a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
      }
    }
    PhaseSpan span;
    span.rank = rank;
    span.phase = phase;
    span.start_ms = start;
    span.end_ms = t;
    span.reported_seconds = elapsed;
    span.ended = true;
    PushSpan(a, std::move(span));
  }
  // What follows an ended phase, until its own begin line (SGLang JIT after the memory pool).
  r.phase = phase;
  r.since_ms = t;
  r.phase_done = true;
  a.last_progress_ms = t ? t : a.last_progress_ms;
  if (auto next = Next(phase); next && *next != Phase::kReady) {
    PhaseSpan span;
    span.rank = rank;
    span.phase = *next;
    span.start_ms = t;
    span.implicit = true;
    PushSpan(a, std::move(span));
    r.phase = *next;
    r.phase_done = false;
    if (!a.phase || Order(*next) >= Order(*a.phase) || *a.phase == phase) a.phase = *next;
  } else if (!a.phase || Order(phase) > Order(*a.phase)) {
    a.phase = phase;
  }
}

void StartupTracker::OnLogActivity(std::optional<int64_t> time_ms) {
  Touch(time_ms);
  auto t = time_ms ? time_ms : now_ms_;
  Mark(Signal::kLogLine, t);
  state_.lines++;
  AttemptFacts& a = Current();
  a.lines++;
  if (t) {
    if (!a.first_ms) a.first_ms = t;
    if (!a.last_ms || *t > *a.last_ms) a.last_ms = t;
  }
}

void StartupTracker::OnLogEvent(const LogEvent& e) {
  Touch(e.time_ms);
  const auto t = e.time_ms ? e.time_ms : now_ms_;
  Mark(Signal::kLogLine, t);
  state_.lines++;

  if (e.kind == LogEvent::Kind::kAttemptStart) {
    bool has_content = false;
    bool earlier = false;
    if (!state_.attempts.empty()) {
      const AttemptFacts& cur = state_.attempts.back();
      has_content = !cur.timeline.empty() || !cur.errors.empty() || cur.ready || cur.crashed;
      // An attempt seen without its launch banner (an excerpt's middle), then a banner stamped
      // before its lines: the same attempt's beginning pasted after it, not a restart.
      earlier = !cur.banner && e.time_ms && cur.last_ms && *e.time_ms + 1000 < *cur.last_ms;
    }
    if (state_.attempts.empty() || (has_content && !earlier)) NewAttempt(t);
    state_.attempts.back().banner = true;
  }
  AttemptFacts& a = Current();
  a.lines++;
  if (t) {
    if (!a.first_ms) a.first_ms = t;
    if (!a.last_ms || *t > *a.last_ms) a.last_ms = t;
    if (!a.start_ms) a.start_ms = t;
  }
  if (!e.rule_id.empty()) {
    auto it = a.hits.find(e.rule_id);
    if (it == a.hits.end() && a.hits.size() < 4096) {
      it = a.hits.emplace(e.rule_id, RuleHit{}).first;
      it->second.first_text = Cap(e.text, kMaxHitText);
    }
    if (it != a.hits.end()) {
      it->second.count++;
      it->second.last_text.assign(e.text, 0, kMaxHitText);  // reuses its buffer
      it->second.last_ms = t;
    }
  }
  auto push_error = [&](const LogEvent& ev) {
    std::string line = Cap(ev.text, 400);
    if (!ev.rank.empty()) line = "[" + ev.rank + "] " + line;
    if (!a.errors.empty() && a.errors.back() == line) return;
    if (a.errors.size() >= kMaxErrors) a.errors.erase(a.errors.begin() + 4);  // keep first 4
    a.errors.push_back(std::move(line));
  };
  switch (e.kind) {
    case LogEvent::Kind::kAttemptStart:
      break;
    case LogEvent::Kind::kPhaseBegin:
      a.error_after_progress = false;
      if (e.phase) BeginPhase(a, e.rank, *e.phase, t);
      Mark(Signal::kLogProgress, t);
      break;
    case LogEvent::Kind::kPhaseEnd:
      a.error_after_progress = false;
      if (e.phase) EndPhase(a, e.rank, *e.phase, t, e.elapsed_seconds);
      Mark(Signal::kLogProgress, t);
      break;
    case LogEvent::Kind::kProgress: {
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
      bar->phase = e.phase ? e.phase : a.phase;
      if (e.elapsed_seconds) bar->elapsed_s = e.elapsed_seconds;
      if (e.progress_n != bar->n || e.progress_total != bar->total || !bar->last_advance_ms) {
        bar->last_advance_ms = t;
        a.last_progress_ms = t;
        a.error_after_progress = false;
        Mark(Signal::kLogProgress, t);
      }
      bar->n = e.progress_n;
      bar->total = e.progress_total;
      break;
    }
    case LogEvent::Kind::kError:
      push_error(e);
      a.error_after_progress = true;
      if (e.phase) Hint(a, e.rank, *e.phase, t);
      if (a.crashed) a.crash_phase = a.phase;
      break;
    case LogEvent::Kind::kFatal:
      push_error(e);
      if (!a.crashed) {
        a.crashed = true;
        state_.crashed_attempts++;
      }
      if (e.phase) Hint(a, e.rank, *e.phase, t);
      a.crash_phase = a.phase;
      break;
    case LogEvent::Kind::kReady:
      if (!a.ready) BeginPhase(a, e.rank, Phase::kReady, t);
      a.ready = true;
      Mark(Signal::kLogProgress, t);
      break;
    case LogEvent::Kind::kRequestServed:
      a.request_served = true;
      if (!a.ready) BeginPhase(a, e.rank, Phase::kReady, t);
      a.ready = true;
      Mark(Signal::kLogProgress, t);
      break;
    case LogEvent::Kind::kHeartbeat:
      a.heartbeats++;
      a.last_heartbeat_ms = t;
      // A wait names the phase it waits in ("Waiting for shard 0 to be ready"): evidence of where
      // the start is, never of progress.
      if (e.phase) Hint(a, e.rank, *e.phase, t);
      break;
    case LogEvent::Kind::kFrame:
      if (e.phase) a.frame_phase = e.phase;
      break;
    case LogEvent::Kind::kRestarts:
      state_.restarts = std::max<int>(state_.restarts,
                                      static_cast<int>(std::min<int64_t>(e.progress_n, 1 << 20)));
      break;
    case LogEvent::Kind::kInfo:
      // A line printed inside a phase: moves forward only (never back past the attempt).
      if (e.phase) {
        size_t spans = a.timeline.size();
        Hint(a, e.rank, *e.phase, t);
        if (a.timeline.size() != spans) Mark(Signal::kLogProgress, t);
      }
      if (a.crashed) a.crash_phase = a.phase;
      break;
  }
  if (e.phase && *e.phase == Phase::kHttpStart && e.kind == LogEvent::Kind::kPhaseEnd)
    a.http_up = true;
  // Remember each known rank's last line (a rank appears once a phase line names it).
  for (auto& r : a.ranks) {
    if (r.rank == e.rank) r.last_text.assign(e.text, 0, kMaxHitText);
  }
}

void StartupTracker::OnUnitEvent(const UnitEvent& e) {
  Touch(e.time_ms);
  const auto t = e.time_ms ? e.time_ms : now_ms_;
  auto has_content = [](const AttemptFacts& a) {
    return a.lines > 0 || !a.timeline.empty() || !a.errors.empty() || a.ready || a.crashed;
  };
  auto note = [&](AttemptFacts& a, std::string line) {
    line = Cap(line, 400);
    if (!a.errors.empty() && a.errors.back() == line) return;
    if (a.errors.size() >= kMaxErrors) a.errors.erase(a.errors.begin() + 4);  // keep first 4
    a.errors.push_back(std::move(line));
  };
  auto died = [&](std::string why) {
    AttemptFacts& a = Current();
    if (a.stop_requested) {
      a.stopped = true;  // asked to stop: how it exits is not a crash
      return;
    }
    if (!a.crashed) {
      a.crashed = true;
      state_.crashed_attempts++;
      a.crash_phase = a.phase;
    }
    note(a, std::move(why));
  };
  const std::string text = e.text.empty() ? e.unit : e.text;
  // The manager's facts count as rule hits too, so known causes can ask for them by id.
  auto hit = [&](std::string_view id) {
    AttemptFacts& a = Current();
    auto [it, fresh] = a.hits.try_emplace(std::string(id));
    if (fresh) it->second.first_text = Cap(text, kMaxHitText);
    it->second.count++;
    it->second.last_text = Cap(text, kMaxHitText);
    it->second.last_ms = t;
  };
  switch (e.kind) {
    case UnitEvent::Kind::kStarting:
      break;
    case UnitEvent::Kind::kProcessExited:
      if (!e.clean)
        hit(e.exit_code == "killed" && e.exit_status == 9 ? "systemd.sigkill"
                                                          : "systemd.process_exited");
      break;
    case UnitEvent::Kind::kFailed:
      hit("systemd.failed");
      break;
    case UnitEvent::Kind::kOomKilled:
      hit("systemd.oom_killed");
      break;
    case UnitEvent::Kind::kStopping:
      hit("systemd.stopping");
      break;
    case UnitEvent::Kind::kRestartScheduled:
      break;
  }
  switch (e.kind) {
    case UnitEvent::Kind::kStarting:
      if (state_.attempts.empty() || has_content(state_.attempts.back())) NewAttempt(t);
      break;
    case UnitEvent::Kind::kProcessExited:
      if (!e.clean) {
        died("systemd: " + (e.text.empty() ? "main process exited, code=" + e.exit_code +
                                                 ", status=" + std::to_string(e.exit_status)
                                           : e.text));
      }
      break;
    case UnitEvent::Kind::kFailed:
      died("systemd: " + (e.text.empty() ? "failed with result '" + e.result + "'" : e.text));
      break;
    case UnitEvent::Kind::kOomKilled:
      note(Current(), "systemd: " + text);
      Current().oom_killed = true;
      break;
    case UnitEvent::Kind::kStopping:
      Current().stop_requested = true;
      break;
    case UnitEvent::Kind::kRestartScheduled: {
      // A missing counter still counts one more restart.
      state_.restarts = std::max(state_.restarts + (e.restarts > 0 ? 0 : 1), e.restarts);
      // The attempt before a restart ended, whatever it had printed (often nothing decisive).
      if (state_.attempts.empty() || !state_.attempts.back().crashed) died("systemd: " + text);
      if (!state_.attempts.empty()) state_.attempts.back().stop_requested = false;
      NewAttempt(t);
      break;
    }
  }
}

void StartupTracker::ShiftTimes(int64_t d) {
  auto mv = [d](std::optional<int64_t>& t) {
    if (t) *t += d;
  };
  mv(now_ms_);
  mv(state_.first_ms);
  mv(state_.last_ms);
  for (auto& t : state_.last_signal_ms) mv(t);
  for (auto& a : state_.attempts) {
    for (auto* t :
         {&a.start_ms, &a.first_ms, &a.last_ms, &a.last_progress_ms, &a.last_heartbeat_ms}) {
      mv(*t);
    }
    for (auto& r : a.ranks) mv(r.since_ms);
    for (auto& sp : a.timeline) {
      mv(sp.start_ms);
      mv(sp.end_ms);
    }
    for (auto& b : a.bars) {
      mv(b.first_ms);
      mv(b.last_advance_ms);
    }
    for (auto& [id, hit] : a.hits) mv(hit.last_ms);
  }
}

void StartupTracker::OnSample(const Sample& s) {
  Touch(s.time_ms);
  state_.last_sample_ms = s.time_ms;
  ProcessFacts& f = state_.process;
  f.sampled = true;
  std::optional<int64_t> t = s.time_ms;
  double cpu = 0;
  uint64_t reads = 0;
  int futex = 0, threads = 0, dwait = 0;
  f.compilers.clear();
  for (const auto& p : s.processes) {
    cpu += p.cpu_seconds;
    reads += std::max(p.read_bytes, p.rchar);
    futex += p.threads_futex_wait + p.threads_poll_wait;
    threads += p.threads;
    dwait += p.threads_disk_wait;
    if (IsCompiler(p.comm) && f.compilers.size() < 8) f.compilers.push_back(p.comm);
  }
  uint64_t gpu_used = 0;
  int max_util = -1;
  for (const auto& g : s.gpus) {
    gpu_used += g.used_bytes;
    max_util = std::max(max_util, g.utilization_percent);
  }
  f.processes = static_cast<int>(s.processes.size());
  f.max_processes = std::max(f.max_processes, f.processes);
  f.rank_lost = f.max_processes > 0 && f.processes < f.max_processes;
  f.compiler_children = !f.compilers.empty();
  f.threads = threads;
  f.wait_threads = futex;
  f.gpu_available = s.gpu_available;
  f.gpus = static_cast<int>(s.gpus.size());
  f.gpu_message = s.gpu_message;
  f.disk_wait = dwait > 0;
  f.max_gpu_util = max_util;
  if (prev_sample_) {
    const Sample& p = *prev_sample_;
    double dt = (s.time_ms - p.time_ms) / 1000.0;
    double prev_cpu = 0;
    uint64_t prev_reads = 0, prev_gpu = 0;
    for (const auto& q : p.processes) {
      prev_cpu += q.cpu_seconds;
      prev_reads += std::max(q.read_bytes, q.rchar);
    }
    for (const auto& g : p.gpus) prev_gpu += g.used_bytes;
    if (dt > 0) {
      f.cpu_cores = std::max(0.0, (cpu - prev_cpu) / dt);
      f.read_bytes_per_s = reads > prev_reads ? (reads - prev_reads) / dt : 0;
    }
    f.reads_active = reads > prev_reads;
    f.no_disk_reads = !f.reads_active;
    f.gpu_flat = s.gpu_available && gpu_used == prev_gpu;
    // Any CPU use above a trickle is a sign of life (a stuck NCCL wait spins at most one core,
    // which the judge tells apart through its thresholds).
    if (f.cpu_cores >= 0.05) Mark(Signal::kCpu, t);
    if (reads > prev_reads) Mark(Signal::kReadBytes, t);
    if (s.gpu_available && gpu_used != prev_gpu) Mark(Signal::kGpuMemory, t);
    if (s.checkpoint_resident_bytes && p.checkpoint_resident_bytes &&
        *s.checkpoint_resident_bytes > *p.checkpoint_resident_bytes) {
      Mark(Signal::kResidency, t);
    }
  }
  if (f.compiler_children) Mark(Signal::kCompilerChildren, t);
  load_.OnSample(s);
  state_.load = load_.Current();
  if (load_.grew()) Mark(Signal::kResidency, t);
  f.read_bytes = reads;
  f.gpu_used_bytes = gpu_used;
  if (s.checkpoint_bytes) state_.checkpoint_bytes = s.checkpoint_bytes;
  if (s.checkpoint_resident_bytes) state_.checkpoint_resident_bytes = s.checkpoint_resident_bytes;
  state_.health_http_status = s.health_http_status;
  state_.port_listening = s.port_listening;
  if (s.restarts > state_.restarts) state_.restarts = s.restarts;
  if (s.exit_status && !state_.exit_status) {
    state_.exit_status = s.exit_status;
    if (*s.exit_status != 0) {
      AttemptFacts& a = Current();
      if (!a.crashed) {
        a.crashed = true;
        state_.crashed_attempts++;
        a.crash_phase = a.phase;
        std::string why = *s.exit_status < 0 ? "killed by signal " + std::to_string(-*s.exit_status)
                                             : "exit status " + std::to_string(*s.exit_status);
        if (a.errors.size() < kMaxErrors) a.errors.push_back("the server process ended: " + why);
      }
    }
  }
  // Drop what the next delta does not need (command lines, file lists) to stay bounded.
  Sample keep;
  keep.time_ms = s.time_ms;
  keep.gpu_available = s.gpu_available;
  keep.checkpoint_resident_bytes = s.checkpoint_resident_bytes;
  for (const auto& p : s.processes) {
    ProcessSample q;
    q.cpu_seconds = p.cpu_seconds;
    q.read_bytes = p.read_bytes;
    q.rchar = p.rchar;
    keep.processes.push_back(q);
  }
  for (const auto& g : s.gpus) {
    GpuSample h;
    h.used_bytes = g.used_bytes;
    keep.gpus.push_back(h);
  }
  prev_sample_ = std::move(keep);
}

}  // namespace spinup
