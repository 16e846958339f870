// `run --warm` / `watch --warm`: the checkpoint is read into the page cache from launch on,
// alongside the server's imports and distributed init, so its own weight_load reads from memory.
// Bounded by memory: the plan takes the shards (in name order, the order servers load them) whose
// missing bytes fit in MemAvailable minus a reserve, skipping the rest; while it runs, it stops if
// MemAvailable falls below the reserve (the server's own memory grew), so it never pushes the
// server into swap or the OOM killer. It stops when the server is ready or crashed. Reads use the
// `populate` backend (include/spinup/reader.h): no copy to user space, bounded buffers.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "live/verdict_stage.h"
#include "spinup/checkpoint_files.h"
#include "spinup/reader.h"

namespace spinup {

struct MemInfo {
  uint64_t total = 0;
  uint64_t available = 0;
};
// /proc/meminfo's MemTotal and MemAvailable (kB lines); nullopt without MemAvailable. Pure.
std::optional<MemInfo> ParseMemInfo(std::string_view text);

// The default reserve left to the server and the system: max(2 GiB, 10% of MemTotal).
uint64_t DefaultWarmReserve(const MemInfo& mem);

struct WarmPlan {
  std::vector<CheckpointFile> files;  // to warm, in order
  uint64_t bytes = 0;                 // their missing (non-resident) bytes
  uint64_t checkpoint_bytes = 0;
  uint64_t missing_bytes = 0;  // of the whole checkpoint
  std::string note;            // set when shards were left out (or all of them)
};
// Pure: `missing[i]` is files[i]'s non-resident bytes. Takes shards in order while their missing
// bytes fit in mem.available - reserve, then stops (a later shard is not taken out of order).
WarmPlan PlanWarm(const std::vector<CheckpointFile>& files, const std::vector<uint64_t>& missing,
                  const MemInfo& mem, uint64_t reserve);

struct WarmConfig {
  std::string model_dir;
  std::string meminfo_path = "/proc/meminfo";
  uint64_t reserve_bytes = 0;  // 0: DefaultWarmReserve
  ReaderOptions reader;        // backend kAuto: populate
};

class WarmStage final : public VerdictStage {
 public:
  explicit WarmStage(WarmConfig config);
  ~WarmStage() override;
  // Starts warming on a thread of its own (returns at once).
  void Start();
  void Apply(Verdict& verdict, int64_t now_ms) override;
  void Finish(Verdict& verdict, int64_t now_ms) override;
  WarmStatus status() const;

 private:
  void Run();
  void StopWith(const std::string& note);

  WarmConfig config_;
  ReadControl control_;
  std::thread thread_;
  mutable std::mutex mu_;
  WarmStatus status_;
  uint64_t reserve_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point ended_;  // guarded by mu_
  std::atomic<bool> running_{false};
};

}  // namespace spinup
