#include <fmt/format.h>

#include "spinup/inspect.h"

namespace spinup {

uint64_t PerRankBytes(const Checkpoint& ck, uint32_t tp) {
  if (tp == 0) tp = 1;
  uint64_t total = 0;
  for (const auto& shard : ck.shards) {
    for (const auto& t : shard.tensors) {
      uint64_t b = t.bytes();
      total += t.shape.size() >= 2 ? (b / tp + (b % tp != 0 ? 1 : 0)) : b;
    }
  }
  return total;
}

InspectReport BuildInspectReport(const Checkpoint& ck, const InspectSettings& settings) {
  InspectReport r;
  r.path = ck.input.string();
  r.root = ck.root.string();
  r.shards = ck.shards.size();
  for (const auto& shard : ck.shards) {
    r.file_bytes += shard.file_size;
    for (const auto& t : shard.tensors) {
      ++r.tensors;
      r.total_bytes += t.bytes();
      uint64_t e = t.elements();
      r.parameters = (e > UINT64_MAX - r.parameters) ? UINT64_MAX : r.parameters + e;
      r.dtypes[t.dtype] += t.bytes();
    }
  }
  r.has_config = ck.has_config;
  r.config = ck.config;
  r.tp = settings.tp == 0 ? 1 : settings.tp;
  r.per_rank_bytes = PerRankBytes(ck, r.tp);
  r.gpu_mem_bytes = settings.gpu_mem_bytes;
  if (r.gpu_mem_bytes) {
    r.fits = r.per_rank_bytes <= *r.gpu_mem_bytes;
    r.headroom_bytes =
        static_cast<int64_t>(*r.gpu_mem_bytes) - static_cast<int64_t>(r.per_rank_bytes);
  }
  if (settings.read_bytes_per_s && *settings.read_bytes_per_s > 0) {
    r.read_bytes_per_s = settings.read_bytes_per_s;
    r.read_bw_source = settings.read_bw_source.empty() ? "flag" : settings.read_bw_source;
    r.predicted_load_seconds = static_cast<double>(r.file_bytes) / *settings.read_bytes_per_s;
  }
  r.problems = ck.problems.size();
  if (!ck.problems.empty()) {
    const auto& p = ck.problems.front();
    r.first_problem = fmt::format("{}: {}: {}", p.file, ProblemKindName(p.kind), p.message);
  }
  return r;
}

}  // namespace spinup
