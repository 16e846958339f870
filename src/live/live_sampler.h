// The live SampleSource: each interval, the server's process tree from /proc (the PIDs given, or
// a systemd unit's cgroup), GPU memory through NVML, the checkpoint's page-cache residency, the
// port and the health probe — one Sample. All roots (/proc, /sys) and the NVML library name come
// from the config, resolved at the CLI edge.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "live/shard_residency.h"
#include "live/watcher.h"
#include "proc/nvml.h"
#include "proc/sampler.h"

namespace spinup {

struct LiveSamplerConfig {
  std::vector<int> pids;  // roots: each with its descendants
  // Beside `pids`: each one's start time (/proc/PID/stat, ticks since boot) when the watch began,
  // 0 when unknown. A PID whose process now started at another time was reused by an unrelated
  // process: it counts as gone and is not sampled.
  std::vector<uint64_t> pid_start_ticks;
  std::string unit;                      // systemd unit: its cgroup's processes
  std::optional<std::string> model_dir;  // else from the server's command line
  std::optional<uint16_t> port;          // listening check + health probe
  bool health_probe = true;              // false: --probe none (the port is still checked)
  std::string proc_root = "/proc";
  std::string sys_root = "/sys";
  int64_t ticks_per_second = 100;
  uint64_t page_size = 4096;
  std::string nvml_library = "libnvidia-ml.so.1";
  bool gpu = true;
  bool once = false;  // one sample only: read every thread's state now (no round-robin budget)
};

// The start time of process `pid` (ticks since boot, from PROC_ROOT/PID/stat); 0 when it does
// not exist or cannot be read. With the PID, it names one process across PID reuse.
uint64_t ProcessStartTicks(const std::string& proc_root, int pid);

class LiveSampler final : public SampleSource {
 public:
  explicit LiveSampler(LiveSamplerConfig config);
  ~LiveSampler() override;
  Sample Take(int64_t now_ms) override;
  // The given PIDs are all gone (or zombies, or reused by another process). A unit is never gone:
  // systemd may start it again.
  bool Gone() const override { return gone_; }
  // The model directory in use ("" until known).
  const std::string& model_dir() const { return model_dir_; }

 private:
  void UseModelDir(const std::string& dir);
  // config_.pids less those whose PID now belongs to another process.
  std::vector<int> LivePids() const;

  LiveSamplerConfig config_;
  std::unique_ptr<proc::ProcessTreeSampler> tree_;
  std::unique_ptr<proc::NvmlGpu> gpu_;
  std::unique_ptr<ShardResidency> residency_;
  std::string model_dir_;
  std::vector<int> last_tree_;  // PIDs of the watched tree at the last sample it was alive
  bool gone_ = false;
  int samples_ = 0;
};

}  // namespace spinup
