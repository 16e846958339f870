// StartupTracker's reading of process samples (/proc, NVML, the load estimate).
#include "diagnose/tracker.h"

#include <algorithm>
#include <array>

namespace spinup {
namespace {

bool IsCompiler(std::string_view comm) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "nvcc", "cicc", "ptxas", "ninja", "cc1plus", "gcc", "g++", "clang", "c++", "fatbinary"};
  for (auto n : kNames) {
    if (comm == n) return true;
  }
  return comm.rfind("cc1", 0) == 0;
}

// Drops what the next delta does not need (command lines, file lists) to stay bounded.
Sample KeepForDelta(const Sample& s) {
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
  return keep;
}

}  // namespace

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
  FoldDeltas(s, cpu, reads, gpu_used);
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
  NoteExit(s);
  prev_sample_ = KeepForDelta(s);
}

// What changed since the previous sample: rates, and which signs of life moved.
void StartupTracker::FoldDeltas(const Sample& s, double cpu, uint64_t reads, uint64_t gpu_used) {
  if (!prev_sample_) return;
  ProcessFacts& f = state_.process;
  const std::optional<int64_t> t = s.time_ms;
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

// The server process ended: a non-zero status crashes the current attempt.
void StartupTracker::NoteExit(const Sample& s) {
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
  NoteWatchedGone(s);
}

// `watch --pid`: the watched processes ended before the start was ready. Their exit status
// cannot be read from outside their parent; the ranks that outlived them are named.
void StartupTracker::NoteWatchedGone(const Sample& s) {
  if (!s.watched_gone || state_.watched_gone) return;
  state_.watched_gone = true;
  AttemptFacts& a = Current();
  if (a.ready || a.crashed || a.stopped) return;
  a.crashed = true;
  state_.crashed_attempts++;
  a.crash_phase = a.phase;
  std::string why =
      "the watched server process ended (its exit status is known only to its parent)";
  if (!s.orphans.empty()) {
    why += "; still running from its tree: PID";
    for (size_t i = 0; i < s.orphans.size() && i < 8; ++i) {
      why += (i ? ", " : " ") + std::to_string(s.orphans[i]);
    }
  }
  if (a.errors.size() < kMaxErrors) a.errors.push_back(std::move(why));
}

}  // namespace spinup
