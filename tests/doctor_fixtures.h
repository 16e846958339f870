// Fixtures for the doctor tests: small checkpoints with chosen config.json files, a healthy
// HostView, and fixture /proc, /sys and /dev trees for end-to-end runs of `spinup doctor`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "doctor/host_view.h"

namespace spinup::testing {

// WriteFile that creates the parent folders first.
void Put(const std::filesystem::path& path, const std::string& contents);

// A Qwen3.5-style hybrid MoE config (Qwen3_5MoeForConditionalGeneration: linear-attention layers
// with every fourth full attention, experts, an MTP layer), shrunk so the checkpoint is tiny.
std::string Qwen35HybridMoeConfig();
// A dense GQA config with the given shape.
std::string DenseConfig(int layers, int heads, int kv_heads, int head_dim, int max_position);
// A small real checkpoint (two BF16 shards) with this config.json.
void WriteModel(const std::filesystem::path& dir, const std::string& config_json);

// Everything healthy: SGLang, tp=2 over two NVLinked 80 GiB GPUs, nothing holding them or the
// port, ample /dev/shm, limits, RAM and caches; the model folder is gathered for real.
doctor::HostView HealthyView(const std::filesystem::path& model_dir,
                             const std::vector<std::string>& extra_args = {});

struct FixtureHostOptions {
  bool iommu_translated = false;
  bool acs_redirect = false;
  bool sev_snp_guest = false;
  int listener_pid = 0;  // a process listening on `port`
  int port = 30000;
  int nvidia_holder_pid = 0;  // a process with /dev/nvidia0 open
  std::string shm_size = "16g";
};
// Writes proc/, sys/ and dev/ under root.
void WriteFixtureHost(const std::filesystem::path& root, const FixtureHostOptions& o);

}  // namespace spinup::testing
