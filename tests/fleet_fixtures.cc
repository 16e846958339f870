#include "fleet_fixtures.h"

#include <nlohmann/json.hpp>

#include "sink/json_codec.h"
#include "spinup/startup.h"

namespace spinup::testing {

namespace {

using nlohmann::json;
constexpr int64_t kT0 = 1'764'400'000'000;
constexpr uint64_t kTotal = 140'000'000'000ull;

struct Plan {
  std::vector<std::pair<Phase, double>> phases;  // completed phases with seconds
  Phase stop = Phase::kReady;                    // where it ends
  double stop_seconds = 0;                       // time spent in `stop` (still running)
  State state = State::kReady;
  bool slow_stop = false;
  double rate = 2.0e9;
  int attempts = 1;
  std::vector<std::string> errors;
};

Plan PlanFor(std::string_view s) {
  Plan p;
  std::vector<std::pair<Phase, double>> all = {
      {Phase::kLaunch, 4},  {Phase::kDistributedInit, 6}, {Phase::kWeightLoad, 70},
      {Phase::kKvCache, 3}, {Phase::kCudaGraph, 12},      {Phase::kHttpStart, 2}};
  auto upto = [&](Phase stop) {
    std::vector<std::pair<Phase, double>> v;
    for (auto& e : all) {
      if (e.first == stop) break;
      v.push_back(e);
    }
    return v;
  };
  if (s == "healthy") {
    p.phases = all;
  } else if (s == "slow") {
    p.phases = all;
    p.phases[2].second = 300;
    p.rate = 0.45e9;
    p.state = State::kReady;
  } else if (s == "hung_distributed_init") {
    p.phases = upto(Phase::kDistributedInit);
    p.stop = Phase::kDistributedInit;
    p.stop_seconds = 620;
    p.state = State::kStalled;
    p.slow_stop = true;
  } else if (s == "hung_cuda_graph") {
    p.phases = upto(Phase::kCudaGraph);
    p.stop = Phase::kCudaGraph;
    p.stop_seconds = 400;
    p.state = State::kStalled;
    p.slow_stop = true;
  } else if (s == "crash_kv_cache") {
    p.phases = upto(Phase::kKvCache);
    p.stop = Phase::kKvCache;
    p.stop_seconds = 2;
    p.state = State::kCrashed;
    p.errors = {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB",
                "<script>alert('x')</script> & friends"};
  } else if (s == "crash_loop") {
    p.phases = upto(Phase::kKvCache);
    p.stop = Phase::kKvCache;
    p.stop_seconds = 2;
    p.state = State::kCrashLoop;
    p.attempts = 3;
    p.errors = {"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."};
  } else {  // killed
    p.phases = upto(Phase::kWeightLoad);
    p.stop = Phase::kWeightLoad;
    p.stop_seconds = 20;
    p.state = State::kCrashed;
    p.errors = {"server exited: killed by signal 9 (SIGKILL); 4 rank processes were still alive"};
  }
  return p;
}

json Header(int64_t t, const char* type) { return {{"time", t}, {"type", type}}; }

std::string Rank(int r) { return "TP" + std::to_string(r); }

// Writes one scenario's stream: the verdict it keeps updating, the clock and the bytes read.
class StreamWriter {
 public:
  StreamWriter(Plan p, int ranks) : p_(std::move(p)), ranks_(ranks) {
    v_.engine = "sglang";
    v_.attempts = p_.attempts;
  }

  void EmitVerdict(State st, Phase ph, bool final_) {
    v_.state = st;
    v_.phase = ph;
    v_.headline = std::string(StateName(st)) + " in " + std::string(PhaseName(ph));
    json j = Header(t_, "verdict");
    j.update(ToJson(v_));
    j["final"] = final_;
    Emit(j);
  }

  // Every rank begins `ph` (150 ms apart: one rank lags, the others wait for it); samples (and
  // measured progress in weight_load) every 10 s of its `secs`.
  void RunPhase(Phase ph, double secs, bool ends, bool slow) {
    int64_t start = t_;
    for (int r = 0; r < ranks_; ++r) {
      PhaseEvent(Rank(r), ph, start + r * 150);
      v_.timeline.push_back({Rank(r), ph, start + r * 150, std::nullopt, std::nullopt, false});
    }
    v_.ranks.clear();
    for (int r = 0; r < ranks_; ++r) v_.ranks.push_back({Rank(r), ph, start});
    int steps = std::max(2, static_cast<int>(secs / 10));
    for (int i = 1; i <= steps; ++i) {
      t_ = start + static_cast<int64_t>(secs * 1000 * i / steps);
      if (ph == Phase::kWeightLoad) MeasuredProgress(i, steps);
      PushSample(t_);
    }
    for (auto& e : v_.timeline) {
      if (e.phase == ph && !e.end_ms) {
        if (ends) e.end_ms = t_;
        e.seconds = static_cast<double>(t_ - *e.start_ms) / 1000.0;
        e.slow = slow;
      }
    }
  }

  void Ready() {
    for (int r = 0; r < ranks_; ++r) PhaseEvent(Rank(r), Phase::kReady, t_);
    for (int r = 0; r < ranks_; ++r) {
      v_.timeline.push_back({Rank(r), Phase::kReady, t_, t_, 0.0, false});
    }
    for (auto& r : v_.ranks) r.phase = Phase::kReady;
  }

  // The evidence and finding of a start that ended in `p.stop`: a stall or a crash.
  void FailedEnding() {
    if (p_.state == State::kStalled) {
      v_.stalled_seconds = p_.stop_seconds;
      v_.budget_seconds = 300;
      v_.phase_seconds = p_.stop_seconds;
      v_.evidence = {
          "no new log line for " + std::to_string(static_cast<int>(p_.stop_seconds)) + " s",
          "CPU 0.0% on 5 processes", "131 threads in futex wait", "no disk reads",
          "last line on TP0-TP3: begin " + std::string(PhaseName(p_.stop))};
      v_.findings = {{"nccl_p2p_hang",
                      "NCCL peer-to-peer hang on PCIe/virtualised GPUs",
                      {"all ranks in futex wait", "GPU memory flat"},
                      "export NCCL_P2P_DISABLE=1 (or fix ACS/IOMMU settings)"}};
    } else {
      v_.evidence = {"exit status 1", "last error: " + p_.errors.front()};
      v_.errors = p_.errors;
      v_.findings = {{"kv_cache_oom",
                      "KV cache does not fit in GPU memory",
                      {"CUDA out of memory during KV cache allocation"},
                      "lower --mem-fraction-static or --max-total-tokens; use more GPUs"}};
    }
  }

  const Plan& plan() const { return p_; }
  std::string Take() { return std::move(out_); }

 private:
  void Emit(const json& j) { out_ += j.dump() + "\n"; }

  void PushSample(int64_t at) {
    Sample s;
    s.time_ms = at;
    s.gpu_available = true;
    for (int g = 0; g < ranks_; ++g) {
      GpuSample gs;
      gs.index = g;
      gs.name = "NVIDIA H100 80GB HBM3";
      gs.total_bytes = 80ull << 30;
      gs.used_bytes = (1ull << 30) + done_ / static_cast<uint64_t>(ranks_) + (g * (64ull << 20));
      s.gpus.push_back(gs);
    }
    s.checkpoint_bytes = kTotal;
    s.checkpoint_resident_bytes = done_;
    s.restarts = p_.attempts - 1;
    json j = Header(at, "signal");
    j.update(ToJson(s));
    Emit(j);
  }

  void PhaseEvent(const std::string& rank, Phase ph, int64_t at) {
    LogEvent e;
    e.kind = ph == Phase::kReady ? LogEvent::Kind::kReady : LogEvent::Kind::kPhaseBegin;
    e.time_ms = at;
    e.rank = rank;
    e.phase = ph;
    e.rule_id = "test." + std::string(PhaseName(ph));
    e.text = "[" + rank + "] begin " + std::string(PhaseName(ph)) + " <b>&</b>";
    e.line_no = static_cast<uint64_t>((at - kT0) / 100);
    json j = Header(at, "phase");
    j.update(ToJson(e));
    Emit(j);
  }

  void MeasuredProgress(int i, int steps) {
    done_ = std::min<uint64_t>(kTotal,
                               kTotal * static_cast<uint64_t>(i) / static_cast<uint64_t>(steps));
    json j = Header(t_, "progress");
    j["source"] = "measured";
    j["phase"] = "weight_load";
    Progress pr;
    pr.bytes_done = done_;
    pr.bytes_total = kTotal;
    pr.bytes_per_second = p_.rate * (0.9 + 0.2 * (i % 3) / 2.0);
    pr.eta_seconds = static_cast<double>(kTotal - done_) / p_.rate;
    j.update(ToJson(pr));
    Emit(j);
    v_.progress = pr;
  }

  const Plan p_;
  const int ranks_;
  std::string out_;
  Verdict v_;
  int64_t t_ = kT0;
  uint64_t done_ = 0;
};

}  // namespace

const std::vector<std::string>& ScenarioNames() {
  static const std::vector<std::string> names = {
      "healthy",    "slow",  "hung_distributed_init", "hung_cuda_graph", "crash_kv_cache",
      "crash_loop", "killed"};
  return names;
}

std::string ScenarioState(std::string_view scenario) {
  return std::string(StateName(PlanFor(scenario).state));
}

std::string ScenarioStream(std::string_view scenario, int ranks) {
  StreamWriter w(PlanFor(scenario), ranks);
  const Plan& p = w.plan();
  w.EmitVerdict(State::kStarting, Phase::kLaunch, false);
  for (const auto& [ph, secs] : p.phases) {
    bool slow = scenario == "slow" && ph == Phase::kWeightLoad;
    w.RunPhase(ph, secs, true, slow);
    w.EmitVerdict(slow ? State::kSlow : State::kProgressing, ph, false);
  }
  if (p.stop == Phase::kReady) {
    w.Ready();
  } else {
    w.RunPhase(p.stop, p.stop_seconds, false, p.slow_stop);
    w.FailedEnding();
  }
  w.EmitVerdict(p.state, p.stop, true);
  // A line from a newer writer, and a damaged one: the reader must skip both with a warning.
  return w.Take() + "{\"time\": 1, \"type\": \"hologram\"}\n" + "{not json\n";
}

}  // namespace spinup::testing
