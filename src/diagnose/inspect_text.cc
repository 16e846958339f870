// The human summary of `spinup inspect`.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "base/one_line.h"
#include "base/units.h"
#include "spinup/inspect.h"

namespace spinup {

namespace {

// "119.2B" parameters, "7.6M": short counts for people.
std::string ShortCount(uint64_t n) {
  if (n < 1000) return fmt::format("{}", n);
  static constexpr const char* kUnits[] = {"K", "M", "B", "T"};
  double v = static_cast<double>(n) / 1000;
  size_t u = 0;
  while (v >= 999.95 && u + 1 < std::size(kUnits)) {
    v /= 1000;
    ++u;
  }
  return fmt::format("{:.1f}{}", v, kUnits[u]);
}

// GPU memory is sold in binary units (80 GiB cards): show both so neither reader converts.
std::string GpuMem(uint64_t bytes) {
  return fmt::format("{} ({})", FormatBytesBinary(bytes), FormatBytes(bytes));
}

}  // namespace

std::string InspectReportText(const InspectReport& r) {
  std::string out;
  out += fmt::format("{}\n", r.path);
  if (r.root != r.path) out += fmt::format("  resolved to {}\n", r.root);
  out += fmt::format("  {} {}, {} tensors, {} of weights ({} in files), {} parameters\n", r.shards,
                     r.shards == 1 ? "shard" : "shards", r.tensors, FormatBytes(r.total_bytes),
                     FormatBytes(r.file_bytes), ShortCount(r.parameters));
  std::vector<std::string> dtypes;
  for (const auto& [name, bytes] : r.dtypes) {
    dtypes.push_back(fmt::format("{} {}", OneLine(name), FormatBytes(bytes)));
  }
  if (!dtypes.empty()) out += fmt::format("  dtypes: {}\n", fmt::join(dtypes, ", "));

  if (!r.has_config) {
    out += "  config.json: none\n";
  } else {
    const ModelConfig& c = r.config;
    std::vector<std::string> facts;
    std::string arch = c.architecture.value_or("unknown architecture");
    if (c.model_type) arch += fmt::format(" ({})", *c.model_type);
    facts.push_back(arch);
    if (c.layers) facts.push_back(fmt::format("{} layers", *c.layers));
    if (c.experts) {
      std::string e = fmt::format("{} experts", *c.experts);
      if (c.experts_per_token) e += fmt::format(" ({} per token)", *c.experts_per_token);
      facts.push_back(e);
    }
    if (c.hidden_size) facts.push_back(fmt::format("hidden size {}", *c.hidden_size));
    if (c.dtype) facts.push_back(fmt::format("dtype {}", *c.dtype));
    if (c.quantization) facts.push_back(fmt::format("quantization {}", *c.quantization));
    out += fmt::format("  model: {}\n", OneLine(fmt::format("{}", fmt::join(facts, ", "))));
  }

  out += fmt::format("per rank (TP {}): {} of weights\n", r.tp, FormatBytes(r.per_rank_bytes));
  if (r.gpu_mem_bytes && r.fits && r.headroom_bytes) {
    if (*r.fits) {
      out += fmt::format("  fits in {} of GPU memory: {} left for KV cache and activations\n",
                         GpuMem(*r.gpu_mem_bytes),
                         FormatBytes(static_cast<uint64_t>(*r.headroom_bytes)));
    } else {
      out += fmt::format(
          "  does NOT fit in {} of GPU memory: {} short; use a larger TP size or more memory\n",
          GpuMem(*r.gpu_mem_bytes), FormatBytes(static_cast<uint64_t>(-*r.headroom_bytes)));
    }
  }
  if (r.read_bytes_per_s && r.predicted_load_seconds) {
    out += fmt::format("{} at {}: {} of reading before anything else\n", FormatBytes(r.file_bytes),
                       FormatRate(*r.read_bytes_per_s),
                       FormatApproxDuration(*r.predicted_load_seconds));
  }
  if (r.problems > 0) {
    out += fmt::format(
        "warning: {} {} found while reading headers (first: {}); run spinup verify\n", r.problems,
        r.problems == 1 ? "problem" : "problems", OneLine(r.first_problem.value_or("")));
  }
  return out;
}

}  // namespace spinup
