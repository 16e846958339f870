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
  Plan p = PlanFor(scenario);
  std::string out;
  auto emit = [&](json j) { out += j.dump() + "\n"; };
  Verdict v;
  v.engine = "sglang";
  v.attempts = p.attempts;
  int64_t t = kT0;
  uint64_t done = 0;
  auto push_sample = [&](int64_t at) {
    Sample s;
    s.time_ms = at;
    s.gpu_available = true;
    for (int g = 0; g < ranks; ++g) {
      GpuSample gs;
      gs.index = g;
      gs.name = "NVIDIA H100 80GB HBM3";
      gs.total_bytes = 80ull << 30;
      gs.used_bytes = (1ull << 30) + done / static_cast<uint64_t>(ranks) + (g * (64ull << 20));
      s.gpus.push_back(gs);
    }
    s.checkpoint_bytes = kTotal;
    s.checkpoint_resident_bytes = done;
    s.restarts = p.attempts - 1;
    json j = Header(at, "signal");
    j.update(ToJson(s));
    emit(j);
  };
  auto verdict = [&](State st, Phase ph, bool final_) {
    v.state = st;
    v.phase = ph;
    v.headline = std::string(StateName(st)) + " in " + std::string(PhaseName(ph));
    json j = Header(t, "verdict");
    j.update(ToJson(v));
    j["final"] = final_;
    emit(j);
  };
  auto phase_event = [&](const std::string& rank, Phase ph, int64_t at) {
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
    emit(j);
  };
  auto run_phase = [&](Phase ph, double secs, bool ends, bool slow) {
    int64_t start = t;
    for (int r = 0; r < ranks; ++r) {
      std::string rank = "TP" + std::to_string(r);
      // One rank lags in the hung distributed init: the others wait for it.
      phase_event(rank, ph, start + r * 150);
      v.timeline.push_back({rank, ph, start + r * 150, std::nullopt, std::nullopt, false});
    }
    v.ranks.clear();
    for (int r = 0; r < ranks; ++r) v.ranks.push_back({"TP" + std::to_string(r), ph, start});
    int steps = std::max(2, static_cast<int>(secs / 10));
    for (int i = 1; i <= steps; ++i) {
      t = start + static_cast<int64_t>(secs * 1000 * i / steps);
      if (ph == Phase::kWeightLoad) {
        done = std::min<uint64_t>(kTotal,
                                  kTotal * static_cast<uint64_t>(i) / static_cast<uint64_t>(steps));
        json j = Header(t, "progress");
        j["source"] = "measured";
        j["phase"] = "weight_load";
        Progress pr;
        pr.bytes_done = done;
        pr.bytes_total = kTotal;
        pr.bytes_per_second = p.rate * (0.9 + 0.2 * (i % 3) / 2.0);
        pr.eta_seconds = static_cast<double>(kTotal - done) / p.rate;
        j.update(ToJson(pr));
        emit(j);
        v.progress = pr;
      }
      push_sample(t);
    }
    for (auto& e : v.timeline) {
      if (e.phase == ph && !e.end_ms) {
        if (ends) e.end_ms = t;
        e.seconds = static_cast<double>(t - *e.start_ms) / 1000.0;
        e.slow = slow;
      }
    }
  };
  verdict(State::kStarting, Phase::kLaunch, false);
  for (const auto& [ph, secs] : p.phases) {
    bool slow = scenario == "slow" && ph == Phase::kWeightLoad;
    run_phase(ph, secs, true, slow);
    verdict(slow ? State::kSlow : State::kProgressing, ph, false);
  }
  if (p.stop == Phase::kReady) {
    for (int r = 0; r < ranks; ++r) phase_event("TP" + std::to_string(r), Phase::kReady, t);
    for (int r = 0; r < ranks; ++r) {
      v.timeline.push_back({"TP" + std::to_string(r), Phase::kReady, t, t, 0.0, false});
    }
    for (auto& r : v.ranks) r.phase = Phase::kReady;
  } else {
    run_phase(p.stop, p.stop_seconds, false, p.slow_stop);
    if (p.state == State::kStalled) {
      v.stalled_seconds = p.stop_seconds;
      v.budget_seconds = 300;
      v.phase_seconds = p.stop_seconds;
      v.evidence = {
          "no new log line for " + std::to_string(static_cast<int>(p.stop_seconds)) + " s",
          "CPU 0.0% on 5 processes", "131 threads in futex wait", "no disk reads",
          "last line on TP0-TP3: begin " + std::string(PhaseName(p.stop))};
      v.findings = {{"nccl_p2p_hang",
                     "NCCL peer-to-peer hang on PCIe/virtualised GPUs",
                     {"all ranks in futex wait", "GPU memory flat"},
                     "export NCCL_P2P_DISABLE=1 (or fix ACS/IOMMU settings)"}};
    } else {
      v.evidence = {"exit status 1", "last error: " + p.errors.front()};
      v.errors = p.errors;
      v.findings = {{"kv_cache_oom",
                     "KV cache does not fit in GPU memory",
                     {"CUDA out of memory during KV cache allocation"},
                     "lower --mem-fraction-static or --max-total-tokens; use more GPUs"}};
    }
  }
  verdict(p.state, p.stop, true);
  // A line from a newer writer, and a damaged one: the reader must skip both with a warning.
  out += "{\"time\": 1, \"type\": \"hologram\"}\n";
  out += "{not json\n";
  return out;
}

}  // namespace spinup::testing
