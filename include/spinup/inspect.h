// `spinup inspect`: what a checkpoint holds, what each tensor-parallel rank will hold, whether it
// fits, and how long reading it will take. Built from a loaded Checkpoint (headers only).
//
// JSON schema and the per-rank rule: docs/inspect.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "spinup/checkpoint.h"

namespace spinup {

struct InspectSettings {
  uint32_t tp = 1;                        // tensor-parallel size, >= 1
  std::optional<uint64_t> gpu_mem_bytes;  // per GPU (--gpu-mem)
  // Storage read rate used for the prediction: from --read-bw, or measured by the caller.
  std::optional<double> read_bytes_per_s;
  std::string read_bw_source;  // "flag", "measured", ... (empty when no rate)
};

struct InspectReport {
  std::string path;
  std::string root;
  std::string format = "safetensors";
  uint64_t shards = 0;
  uint64_t tensors = 0;
  uint64_t total_bytes = 0;                // sum of tensor data bytes
  uint64_t file_bytes = 0;                 // sum of shard file sizes
  uint64_t parameters = 0;                 // sum of element counts
  std::map<std::string, uint64_t> dtypes;  // dtype name -> bytes
  bool has_config = false;
  ModelConfig config;
  uint32_t tp = 1;
  uint64_t per_rank_bytes = 0;
  std::optional<uint64_t> gpu_mem_bytes;
  std::optional<bool> fits;
  std::optional<int64_t> headroom_bytes;  // gpu_mem - per_rank (negative when it does not fit)
  std::optional<double> read_bytes_per_s;
  std::string read_bw_source;
  std::optional<double> predicted_load_seconds;  // file_bytes / read_bytes_per_s
  uint64_t problems = 0;  // problems found while reading headers (details: spinup verify)
  std::optional<std::string> first_problem;
};

// Weight bytes one TP rank holds: tensors of two or more dimensions split evenly across ranks
// (rounded up), tensors of one dimension or none held whole by every rank.
uint64_t PerRankBytes(const Checkpoint& checkpoint, uint32_t tp);

InspectReport BuildInspectReport(const Checkpoint& checkpoint, const InspectSettings& settings);

// Renderers: one JSON object (docs/inspect.md), and the human summary.
std::string InspectReportJson(const InspectReport& report);
std::string InspectReportText(const InspectReport& report);

}  // namespace spinup
