// The signals a cause's condition names (rules/causes.json "signals"): facts of the whole paste
// (restarts, several nodes, an OOM record, a rank behind its peers, a supervisor's timeout) and the
// process samples a live watch takes.
#include <algorithm>
#include <bit>

#include "diagnose/judge_steps.h"
#include "diagnose/rank_format.h"
#include "logs/gpu_oom_figures.h"

namespace spinup::judge {
namespace {

bool AnyHitWithPrefix(const Context& c, std::string_view prefix) {
  for (const auto& a : c.st.attempts) {
    for (const auto& [id, hit] : a.hits) {
      if (id.compare(0, prefix.size(), prefix) == 0) return true;
    }
  }
  return false;
}

// A tensor-parallel or global rank at or past one node's GPU count ("TP12", PyTorch's "rank10"):
// the job spans nodes even where its flags were cut from the excerpt. Other rank words (DP, EP,
// PP, a shard, a worker's pid) count ranks within a group, or no ranks at all.
bool RankBeyondOneNode(const Context& c, int gpus_per_node) {
  if (gpus_per_node <= 0) return false;
  for (const auto& a : c.st.attempts) {
    for (const TrackedRank& r : a.ranks) {
      if (RankIndex(r.rank, "TP") >= gpus_per_node || RankIndex(r.rank, "rank") >= gpus_per_node) {
        return true;
      }
    }
  }
  return false;
}

// A rank still in weight_load while a peer of its group (TP1 beside TP0, Worker_rank3 beside
// Worker_rank0) finished it: loading the same checkpoint, one fell behind or died. Coordinators
// (vLLM's EngineCore, APIServer) load nothing.
bool RankBehindInLoad(const Context& c, bool engines) {
  if (c.attempt == nullptr || c.attempt->ready) return false;  // every rank got past it
  const auto& ranks = c.attempt->ranks;
  auto coordinator = [&](const TrackedRank& r) {
    const std::string_view group = PeerGroup(r.rank);
    return r.rank.empty() || Contains(c.ranks.coordinators, std::string(group));
  };
  // Data-parallel engines each load on their own and may start apart: one is behind only once it
  // has loaded for three times as long as a sibling took (plus a minute) and is still at it.
  auto longer_than_sibling = [&](const TrackedRank& behind, const TrackedRank& peer) {
    if (IndependentGroup(PeerGroup(behind.rank), c.ranks.independent) != engines) return false;
    if (!engines) return true;
    if (!behind.since_ms || !c.now) return false;
    for (const PhaseSpan& s : c.attempt->timeline) {
      if (s.rank != peer.rank || s.phase != Phase::kWeightLoad || !s.ended || !s.start_ms ||
          !s.end_ms)
        continue;
      const int64_t took = *s.end_ms - *s.start_ms;
      if (*c.now - *behind.since_ms > 3 * took + 60'000) return true;
    }
    return false;
  };
  auto loaded = [&](const TrackedRank& r) {
    return (r.phase == Phase::kWeightLoad && r.phase_done) ||
           c.Order(r.phase) > c.Order(Phase::kWeightLoad);
  };
  // A rank loading again after it loaded once (a speculative draft model's weights after the
  // target's) is not behind.
  auto loaded_once = [&](const TrackedRank& r) {
    return std::any_of(c.attempt->timeline.begin(), c.attempt->timeline.end(), [&](auto& s) {
      return s.rank == r.rank && s.phase == Phase::kWeightLoad && s.ended;
    });
  };
  for (const TrackedRank& behind : ranks) {
    // (A rank last seen in distributed init whose peers loaded passed its barrier with them: it
    // is loading without a line of its own.)
    const bool loading = (behind.phase == Phase::kWeightLoad && !behind.phase_done) ||
                         behind.phase == Phase::kDistributedInit;
    if (coordinator(behind) || !loading || loaded_once(behind)) continue;
    const std::string_view group = PeerGroup(behind.rank);
    for (const TrackedRank& peer : ranks) {
      if (&peer != &behind && !coordinator(peer) && PeerGroup(peer.rank) == group && loaded(peer) &&
          longer_than_sibling(behind, peer))
        return true;
    }
  }
  return false;
}

// A collective that timed out on every rank of the job but one (ranks 0, 2 and 3 report it, rank
// 1 never does) as the load ended: the silent rank never joined it; the others waited for the one
// that fell behind. (Before the load, the first all-reduce hangs on the transport, not a rank.)
bool RankMissingFromTimeout(const Context& c) {
  if (c.attempt == nullptr || c.attempt->ready || !c.attempt->phase ||
      c.Order(*c.attempt->phase) < c.Order(Phase::kWeightLoad) ||
      c.Order(*c.attempt->phase) > c.Order(Phase::kKvCache)) {
    return false;
  }
  const uint64_t seen = c.attempt->watchdog_ranks;
  if (std::popcount(seen) < 2) return false;
  const int top = 63 - std::countl_zero(seen);
  const uint64_t all_below = top == 63 ? ~uint64_t{0} : (uint64_t{1} << (top + 1)) - 1;
  return std::popcount(all_below & ~seen) == 1;
}

// An out-of-memory message of the judged attempt whose figures leave most of the device to other
// processes (a notebook kernel holding 180 of 192 GiB). Without the message's figure for the whole
// process, PyTorch's stands for it only before the KV cache and graphs (non-PyTorch memory) exist.
bool GpuHeldElsewhere(const Context& c) {
  const double share = c.thresholds().gpu_held_elsewhere_fraction;
  if (c.attempt == nullptr || share <= 0) return false;
  const bool early = !c.attempt->phase || c.Order(*c.attempt->phase) <= c.Order(Phase::kWeightLoad);
  for (const std::string& line : c.attempt->errors) {
    const std::optional<GpuOomFigures> f = ParseGpuOomFigures(line);
    if (!f || (!f->this_process_bytes && !early)) continue;
    if (f->HeldElsewhereBytes() >= share * f->total_bytes) return true;
  }
  return false;
}

// Every JIT bar of the judged attempt ran to its end (DeepGEMM's warm-up at 16384/16384) and a
// later phase's bar moved after it (capture went on from bs=64 to bs=48): the compile is over,
// whatever banner warned it may take 10-20 minutes, and is not what the start is stuck in.
bool CompileDoneThenProgress(const Context& c) {
  if (c.attempt == nullptr || c.attempt->ready) return false;
  uint64_t compile_last = 0;
  for (const BarState& b : c.attempt->bars) {
    if (b.phase != Phase::kCompile) continue;
    if (b.total <= 0 || b.n < b.total) return false;
    compile_last = std::max(compile_last, b.last_advance_line);
  }
  if (compile_last == 0) return false;
  return std::any_of(c.attempt->bars.begin(), c.attempt->bars.end(), [&](const BarState& b) {
    return b.phase && c.Order(*b.phase) > c.Order(Phase::kCompile) &&
           b.last_advance_line > compile_last;
  });
}

// A record of an OOM kill in any attempt. A bare SIGKILL after the attempt's own exception is no
// such record: the launcher ended its other processes (TGI's "Shard process was signaled to
// shutdown with signal 9 rank=1" right after rank 0's "Found no NVIDIA driver").
bool OomRecordHit(const Context& c) {
  for (const auto& a : c.st.attempts) {
    for (const auto& [id, hit] : a.hits) {
      if (!id.starts_with("oom_record.")) continue;
      if (id != "oom_record.sigkill" || !KilledAfterErrorIn(a)) return true;
    }
  }
  return false;
}

bool AnyHit(const Context& c, std::string_view id) {
  for (const auto& a : c.st.attempts) {
    if (a.hits.count(std::string(id))) return true;
  }
  return false;
}

}  // namespace

bool SignalHolds(const Context& c, const std::string& s) {
  const auto& p = c.st.process;
  const JudgeThresholds& t = c.thresholds();
  if (s == "restarts") {
    // A start again at a shell prompt is no supervisor's restart; nor one after systemd's stop job
    // (systemctl restart), or after one that came up or was stopped: that run did not fail.
    const auto& at = c.st.attempts;
    for (size_t i = 1; i < at.size(); ++i) {
      if (!at[i].manual && !at[i - 1].hits.count("systemd.stopping") && !at[i - 1].ready &&
          !at[i - 1].stopped)
        return true;
    }
    return c.st.restarts > 0;
  }
  if (s == "multi_node") {
    return AnyHitWithPrefix(c, "multi_node.") || RankBeyondOneNode(c, t.gpus_per_node);
  }
  // GPUs joined by NVLink (the writer's words, an SXM board's name, `nvidia-smi topo -m`'s NV
  // links): their peer-to-peer traffic does not cross the PCIe switches that ACS or an IOMMU break.
  if (s == "nvlink") return AnyHitWithPrefix(c, "nvlink.");
  if (s == "oom_record") {
    // (systemd's SIGKILL of a run it was stopping, its stop timed out, is its own kill.)
    const bool unexplained_sigkill = std::any_of(
        c.st.attempts.begin(), c.st.attempts.end(),
        [](const AttemptFacts& a) { return !a.stop_job && a.hits.count("systemd.sigkill") > 0; });
    return OomRecordHit(c) || AnyHit(c, "systemd.oom_killed") || unexplained_sigkill ||
           (c.st.exit_status && *c.st.exit_status == -9) ||
           std::any_of(c.st.attempts.begin(), c.st.attempts.end(),
                       [](const AttemptFacts& a) { return a.oom_killed; });
  }
  if (s == "rank_behind") {
    return RankBehindInLoad(c, false) || RankMissingFromTimeout(c) ||
           (c.attempt != nullptr && SilentRankInLoad(c, *c.attempt));
  }
  if (s == "gpu_held_elsewhere") return GpuHeldElsewhere(c) || c.st.old_run_holds_gpu;
  if (s == "engine_behind") return RankBehindInLoad(c, true);
  if (s == "killed_after_stall") return KilledAfterStall(c).has_value();
  if (s == "collectives_differ") {
    return std::any_of(c.st.attempts.begin(), c.st.attempts.end(),
                       [](const AttemptFacts& a) { return a.watchdog_seq_differs; });
  }
  if (s == "killed_after_error") return KilledAfterError(c);
  if (s == "start_timed_out") {
    // A supervisor gave up on a start that took too long: systemd's TimeoutStartSec, the
    // kubelet's startup or liveness probe, timeout(1)'s exit status 124.
    return AnyHit(c, "generic.probe_kill") || AnyHit(c, "generic.k8s_probe_kills") ||
           AnyHit(c, "generic.timeout_exit") ||
           std::any_of(c.st.attempts.begin(), c.st.attempts.end(),
                       [](const AttemptFacts& a) { return a.start_timed_out; });
  }
  if (s == "timed_out_when_up") {
    // systemd timed the start out after the server said it was up: it waited for a READY=1.
    return std::any_of(c.st.attempts.begin(), c.st.attempts.end(), [](const AttemptFacts& a) {
      return a.start_timed_out && (a.ready || a.http_up);
    });
  }
  if (s == "compile_done_then_progress") return CompileDoneThenProgress(c);
  if (s == "stop_requested") {
    return c.attempt != nullptr && c.attempt->stop_requested;
  }
  if (s == "no_log_lines") {
    auto last = c.st.last_signal_ms[static_cast<size_t>(Signal::kLogLine)];
    return last && c.now && Span(c, *last, *c.now) > t.quiet_log_s;
  }
  if (!p.sampled) return false;
  if (s == "cpu_idle") return p.cpu_cores < t.cpu_idle_cores;
  if (s == "cpu_busy") return p.cpu_cores >= t.cpu_busy_cores;
  if (s == "futex_waits") {
    return p.threads > 0 && p.wait_threads > t.wait_thread_fraction * p.threads;
  }
  if (s == "no_disk_reads") return p.no_disk_reads;
  if (s == "disk_wait") return p.disk_wait;
  if (s == "reads_active") return p.reads_active;
  if (s == "gpu_flat") return p.gpu_flat;
  if (s == "gpu_busy") return p.gpu_flat && p.max_gpu_util >= t.gpu_busy_percent;
  if (s == "compiler_children") return p.compiler_children;
  if (s == "rank_lost") return p.rank_lost;
  return false;
}

}  // namespace spinup::judge
