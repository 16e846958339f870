// The JSON rendering of `spinup inspect` (schema: docs/inspect.md).
#include <nlohmann/json.hpp>

#include "base/json_dump.h"
#include "spinup/inspect.h"

namespace spinup {

namespace {
using nlohmann::ordered_json;

template <typename T>
ordered_json OrNull(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}
}  // namespace

std::string InspectReportJson(const InspectReport& r) {
  ordered_json j;
  j["path"] = r.path;
  j["root"] = r.root;
  j["format"] = r.format;
  j["shards"] = r.shards;
  j["tensors"] = r.tensors;
  j["total_bytes"] = r.total_bytes;
  j["file_bytes"] = r.file_bytes;
  j["parameters"] = r.parameters;
  ordered_json dtypes = ordered_json::object();
  for (const auto& [name, bytes] : r.dtypes) dtypes[name] = bytes;
  j["dtypes"] = dtypes;
  ordered_json c;
  c["architecture"] = OrNull(r.config.architecture);
  c["model_type"] = OrNull(r.config.model_type);
  c["layers"] = OrNull(r.config.layers);
  c["experts"] = OrNull(r.config.experts);
  c["experts_per_token"] = OrNull(r.config.experts_per_token);
  c["hidden_size"] = OrNull(r.config.hidden_size);
  c["dtype"] = OrNull(r.config.dtype);
  c["quantization"] = OrNull(r.config.quantization);
  j["config"] = c;
  j["tp"] = r.tp;
  j["per_rank_bytes"] = r.per_rank_bytes;
  j["gpu_mem_bytes"] = OrNull(r.gpu_mem_bytes);
  j["fits"] = OrNull(r.fits);
  j["headroom_bytes"] = OrNull(r.headroom_bytes);
  j["read_bytes_per_s"] = OrNull(r.read_bytes_per_s);
  j["read_bw_source"] =
      r.read_bw_source.empty() ? ordered_json(nullptr) : ordered_json(r.read_bw_source);
  j["predicted_load_seconds"] = OrNull(r.predicted_load_seconds);
  j["problems"] = r.problems;
  return DumpJson(j, 2) + "\n";
}

}  // namespace spinup
