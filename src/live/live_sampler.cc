#include "live/live_sampler.h"

#include <algorithm>

#include <fcntl.h>
#include <unistd.h>

#include "proc/health.h"
#include "proc/proc_parse.h"

namespace spinup {

namespace {

proc::SamplerOptions TreeOptions(const LiveSamplerConfig& c, const std::string& model_dir) {
  proc::SamplerOptions o;
  o.proc_root = c.proc_root;
  o.sys_root = c.sys_root;
  o.ticks_per_second = c.ticks_per_second;
  o.page_size = c.page_size;
  if (!model_dir.empty()) o.model_dir = model_dir;
  if (c.once) o.max_thread_reads_per_sample = 0;  // 0: no budget, read them all
  return o;
}

}  // namespace

LiveSampler::LiveSampler(LiveSamplerConfig config) : config_(std::move(config)) {
  tree_ = std::make_unique<proc::ProcessTreeSampler>(TreeOptions(config_, ""));
  if (config_.model_dir) UseModelDir(*config_.model_dir);
  if (config_.gpu) gpu_ = std::make_unique<proc::NvmlGpu>(config_.nvml_library);
}

LiveSampler::~LiveSampler() = default;

void LiveSampler::UseModelDir(const std::string& dir) {
  model_dir_ = dir;
  tree_ = std::make_unique<proc::ProcessTreeSampler>(TreeOptions(config_, dir));
  residency_ = std::make_unique<ShardResidency>(dir);
}

uint64_t ProcessStartTicks(const std::string& proc_root, int pid) {
  // /proc files report size 0: read up to a cap rather than by size.
  int fd = ::open((proc_root + "/" + std::to_string(pid) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof(buf));
  ::close(fd);
  if (n <= 0) return 0;
  auto stat = proc::ParseStat(std::string_view(buf, static_cast<size_t>(n)));
  return stat ? stat->starttime_ticks : 0;
}

std::vector<int> LiveSampler::LivePids() const {
  std::vector<int> out;
  for (size_t i = 0; i < config_.pids.size(); ++i) {
    uint64_t pinned = i < config_.pid_start_ticks.size() ? config_.pid_start_ticks[i] : 0;
    if (pinned != 0 && ProcessStartTicks(config_.proc_root, config_.pids[i]) != pinned) continue;
    out.push_back(config_.pids[i]);
  }
  return out;
}

Sample LiveSampler::Take(int64_t now_ms) {
  Sample s;
  s.time_ms = now_ms;
  const std::vector<int> alive = LivePids();
  std::vector<int> roots = alive;
  if (!config_.unit.empty()) {
    auto pids = proc::FindCgroupPids(config_.sys_root, config_.unit);
    if (pids.ok()) {
      tree_->SamplePids(*pids, s);
      roots = *pids;
    }
    if (!alive.empty()) {
      Sample extra;
      tree_->SampleTree(alive, extra);
      for (auto& p : extra.processes) {
        bool dup = std::any_of(s.processes.begin(), s.processes.end(),
                               [&](const ProcessSample& q) { return q.pid == p.pid; });
        if (!dup) s.processes.push_back(std::move(p));
      }
    }
  } else if (!roots.empty()) {
    tree_->SampleTree(roots, s);
  }
  if (!config_.pids.empty() && config_.unit.empty()) {
    gone_ = alive.empty() ||
            std::none_of(s.processes.begin(), s.processes.end(),
                         [](const ProcessSample& p) { return p.state != 'Z' && p.state != 'X'; });
    if (alive.empty()) {
      // The ranks of the last tree seen that outlived it (reparented, still holding GPUs).
      s.watched_gone = true;
      for (int pid : last_tree_) {
        if (ProcessStartTicks(config_.proc_root, pid) != 0 && s.orphans.size() < 64) {
          s.orphans.push_back(pid);
        }
      }
    } else {
      last_tree_.clear();
      for (const auto& p : s.processes) last_tree_.push_back(p.pid);
    }
  }
  // No --model: the server's command line names it (--model-path, --model, vllm serve PATH).
  if (model_dir_.empty() && !roots.empty() && samples_ % 5 == 0) {
    if (auto dir = tree_->ModelPathOf(roots)) {
      UseModelDir(*dir);
      Sample again;  // re-sample so this sample already sees the open shards
      again.time_ms = now_ms;
      if (!config_.unit.empty()) {
        tree_->SamplePids(roots, again);
      } else {
        tree_->SampleTree(roots, again);
      }
      s.processes = std::move(again.processes);
      s.compiler_processes = again.compiler_processes;
      s.processes_truncated = again.processes_truncated;
    }
  }
  ++samples_;
  if (residency_) {
    auto t = residency_->Measure();
    if (t.files > 0) {
      s.checkpoint_bytes = t.total_bytes;
      s.checkpoint_resident_bytes = t.resident_bytes;
    }
  }
  if (config_.port) {
    int ns_pid = roots.empty() ? 0 : roots.front();
    s.port_listening = tree_->PortListening(*config_.port, ns_pid);
    proc::HealthProbeOptions h;
    h.port = *config_.port;
    h.connect_timeout = std::chrono::milliseconds(200);
    h.read_timeout = std::chrono::milliseconds(500);
    if (s.port_listening && config_.health_probe) s.health_http_status = proc::ProbeHealth(h);
  }
  if (gpu_) {
    gpu_->SampleInto(s);
  } else {
    s.gpu_message = "GPU: not sampled";
  }
  return s;
}

}  // namespace spinup
