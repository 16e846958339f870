// Groups 1-3: the checkpoint (found, whole, divisible by the parallel sizes), memory per rank
// (weights and the KV cache for the requested context), and how long reading it will take.
#include <fmt/format.h>

#include <algorithm>

#include "base/units.h"
#include "doctor/doctor.h"
#include "spinup/inspect.h"

namespace spinup::doctor {
namespace {

// Memory of the GPUs this node will use: the smallest of the first N, or --gpu-mem.
std::optional<uint64_t> GpuBytes(const HostView& v) {
  if (v.gpu_mem_flag) return v.gpu_mem_flag;
  if (v.gpus.empty()) return std::nullopt;
  size_t n =
      std::min<size_t>(v.gpus.size(), static_cast<size_t>(std::max(1, GpusNeeded(v.command))));
  uint64_t m = UINT64_MAX;
  for (size_t i = 0; i < n; ++i) m = std::min(m, v.gpus[i].total_bytes);
  return m;
}

uint64_t WeightsPerRank(const Checkpoint& ck, int tp, int pp) {
  uint64_t w = PerRankBytes(ck, static_cast<uint32_t>(std::max(1, tp)));
  return pp > 1 ? (w + static_cast<uint64_t>(pp) - 1) / static_cast<uint64_t>(pp) : w;
}

std::string Tokens(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3) s.insert(i, ",");
  return s;
}

// tp sizes from {1,2,4,8,16,32,64} that divide what the model splits across ranks.
bool Divides(const ModelShape& m, int tp, std::string* why) {
  auto bad = [&](const char* what, int64_t n) {
    if (why) *why = fmt::format("{} = {} is not divisible by tp={}", what, n, tp);
    return false;
  };
  if (m.heads > 0 && m.heads % tp != 0) return bad("num_attention_heads", m.heads);
  if (!m.mla() && m.kv_heads > 0) {
    if (m.kv_heads >= tp && m.kv_heads % tp != 0) return bad("num_key_value_heads", m.kv_heads);
    if (m.kv_heads < tp && tp % m.kv_heads != 0) return bad("num_key_value_heads", m.kv_heads);
  }
  if (m.intermediate > 0 && m.experts == 0 && m.intermediate % tp != 0) {
    return bad("intermediate_size", m.intermediate);
  }
  if (m.moe_intermediate > 0 && m.moe_intermediate % tp != 0) {
    return bad("moe_intermediate_size", m.moe_intermediate);
  }
  if (m.quant_block_n > 0 && m.moe_intermediate > 0 &&
      (m.moe_intermediate / tp) % m.quant_block_n != 0) {
    if (why) {
      *why = fmt::format("moe_intermediate_size / tp = {} is not a multiple of the FP8 block {}",
                         m.moe_intermediate / tp, m.quant_block_n);
    }
    return false;
  }
  return true;
}

}  // namespace

void CheckCheckpoint(const HostView& v, Emitter& e) {
  const ServerCommand& c = v.command;
  if (!c.model) {
    e.Skip("checkpoint-resolvable", "no model in the command");
    return;
  }
  if (!v.checkpoint) {
    Vars vars{{"detail", v.checkpoint_error}, {"fix", v.checkpoint_fix}};
    e.Add("checkpoint-resolvable", v.checkpoint_download ? CheckStatus::kWarn : CheckStatus::kFail,
          vars);
    return;
  }
  const Checkpoint& ck = *v.checkpoint;
  e.Add("checkpoint-resolvable", CheckStatus::kOk,
        {{"model", *c.model}, {"root", ck.root.string()}});
  Vars whole{{"shards", std::to_string(ck.shards.size())},
             {"tensors", Tokens(static_cast<int64_t>(ck.tensor_count()))},
             {"bytes", FormatBytes(ck.file_bytes())},
             {"root", ck.root.string()},
             {"count", std::to_string(ck.problems.size())}};
  if (!ck.problems.empty()) {
    const auto& p = ck.problems.front();
    whole["first"] = fmt::format("{}: {}: {}", p.file, ProblemKindName(p.kind), p.message);
  }
  e.Add("checkpoint-whole", ck.problems.empty() ? CheckStatus::kOk : CheckStatus::kFail, whole);
  if (!v.shape) {
    e.Skip("tp-divisible", "no readable config.json");
    return;
  }
  const ModelShape& m = *v.shape;
  std::string why;
  if (Divides(m, c.tp, &why)) {
    std::vector<std::string> parts;
    if (m.heads > 0) parts.push_back(fmt::format("{} heads", m.heads));
    if (m.kv_heads > 0 && !m.mla()) parts.push_back(fmt::format("{} KV heads", m.kv_heads));
    if (m.moe_intermediate > 0) parts.push_back(fmt::format("expert width {}", m.moe_intermediate));
    if (m.intermediate > 0 && m.experts == 0)
      parts.push_back(fmt::format("width {}", m.intermediate));
    std::string detail =
        parts.empty() ? fmt::format("config.json names nothing tp={} must divide", c.tp)
                      : fmt::format("{} split evenly over tp={}", fmt::join(parts, ", "), c.tp);
    e.Add("tp-divisible", CheckStatus::kOk, {{"detail", detail}});
    return;
  }
  std::vector<std::string> ok;
  for (int tp = 1; tp <= 64; tp *= 2) {
    if (Divides(m, tp, nullptr)) ok.push_back(std::to_string(tp));
  }
  e.Add("tp-divisible", CheckStatus::kFail,
        {{"detail", why},
         {"choices", ok.empty() ? "none of 1..64" : fmt::format("{}", fmt::join(ok, ", "))}});
}

void CheckMemory(const HostView& v, Emitter& e) {
  const ServerCommand& c = v.command;
  auto gpu = GpuBytes(v);
  if (!v.checkpoint) {
    e.Skip("weights-fit", "no checkpoint to size");
    return;
  }
  if (!gpu) {
    e.Skip("weights-fit", "GPU memory unknown: no NVML here; pass --gpu-mem 80GiB");
    return;
  }
  const Thresholds& t = e.t();
  uint64_t weights = WeightsPerRank(*v.checkpoint, c.tp, c.pp);
  KvEstimate kv = EstimateKv(v.shape.value_or(ModelShape{}), c, *gpu, weights, t);
  int tp_next = c.tp * 2;
  while (tp_next < 64 && kv.fraction * static_cast<double>(*gpu) <
                             static_cast<double>(WeightsPerRank(*v.checkpoint, tp_next, c.pp))) {
    tp_next *= 2;
  }
  bool vllm = c.engine == Engine::kVllm;
  Vars vars{
      {"weights", FormatBytesBinary(weights)},
      {"gpu", FormatBytesBinary(*gpu)},
      {"fraction", fmt::format("{:.2f}", kv.fraction)},
      {"budget", FormatBytesBinary(static_cast<uint64_t>(kv.fraction * static_cast<double>(*gpu)))},
      {"tp", std::to_string(c.tp)},
      {"tp_next", std::to_string(tp_next)},
      {"weights_next", FormatBytesBinary(WeightsPerRank(*v.checkpoint, tp_next, c.pp))}};
  bool weights_fit = static_cast<double>(weights) <= kv.fraction * static_cast<double>(*gpu);
  e.Add("weights-fit", weights_fit ? CheckStatus::kOk : CheckStatus::kFail, vars);
  if (!v.shape || kv.bytes_per_token <= 0) {
    e.Skip("kv-cache", v.shape ? KvShapeGap(*v.shape) : "no readable config.json");
    return;
  }
  e.report().kv = kv;
  vars["kv_per_token"] = FormatBytesBinary(static_cast<uint64_t>(kv.bytes_per_token));
  vars["kv_kind"] = kv.kind;
  vars["kv_budget"] =
      FormatBytesBinary(static_cast<uint64_t>(std::max<int64_t>(0, kv.kv_budget_bytes)));
  vars["tokens"] = Tokens(kv.tokens);
  vars["context"] = kv.context > 0 ? Tokens(kv.context) : "no context length";
  vars["max_context"] = Tokens(kv.max_context);
  vars["ctx_flag"] = vllm ? "--max-model-len" : "--context-length";
  vars["fraction_flag"] = vllm ? "--gpu-memory-utilization" : "--mem-fraction-static";
  vars["fraction_up"] = fmt::format("{:.2f}", std::min(0.95, kv.fraction + 0.05));
  CheckStatus s = CheckStatus::kOk;
  if (kv.tokens <= 0) {
    s = CheckStatus::kFail;  // SGLang: "Not enough memory"; vLLM: "No available memory for the
                             // cache blocks"
  } else if (kv.context > 0 && kv.tokens < kv.context) {
    // vLLM refuses to start when one request at max-model-len cannot fit; SGLang starts and caps
    // requests at the tokens it has.
    s = vllm ? CheckStatus::kFail : CheckStatus::kWarn;
  }
  e.Add("kv-cache", s, vars);
}

void CheckLoad(const HostView& v, Emitter& e) {
  if (!v.checkpoint) {
    e.Skip("load-time", "no checkpoint to size");
    return;
  }
  const Thresholds& t = e.t();
  uint64_t bytes = v.checkpoint->file_bytes();
  double rate = v.read_bytes_per_s.value_or(t.default_read_bytes_per_s);
  std::string source = v.read_bytes_per_s ? v.read_source : "assumed; --measure-read measures it";
  double cached = v.resident_fraction.value_or(0);
  double seconds = static_cast<double>(bytes) * (1.0 - cached) / std::max(rate, 1.0);
  Vars vars{{"duration", FormatApproxDuration(seconds)},
            {"bytes", FormatBytes(bytes)},
            {"rate", FormatRate(rate)},
            {"rate_source", source},
            {"cached", v.resident_fraction ? fmt::format("{:.0f}%", cached * 100) : "unknown"},
            {"root", v.checkpoint->root.string()}};
  e.Add("load-time", seconds > t.load_warn_seconds ? CheckStatus::kWarn : CheckStatus::kOk, vars);
  if (!v.mem_available) {
    e.Skip("ram-for-mmap", "MemAvailable unknown");
    return;
  }
  Vars ram{{"bytes", FormatBytes(bytes)}, {"available", FormatBytes(*v.mem_available)}};
  e.Add("ram-for-mmap", bytes > *v.mem_available ? CheckStatus::kWarn : CheckStatus::kOk, ram);
}

}  // namespace spinup::doctor
