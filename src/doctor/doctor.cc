#include "doctor/doctor.h"

#include <algorithm>
#include <cmath>

namespace spinup::doctor {

std::string_view CheckStatusName(CheckStatus status) {
  switch (status) {
    case CheckStatus::kOk:
      return "ok";
    case CheckStatus::kWarn:
      return "warn";
    case CheckStatus::kFail:
      return "fail";
    case CheckStatus::kSkipped:
      return "skipped";
  }
  return "ok";
}

size_t DoctorReport::Count(CheckStatus status) const {
  return static_cast<size_t>(std::count_if(
      checks.begin(), checks.end(), [&](const CheckResult& c) { return c.status == status; }));
}

int DoctorExitCode(const DoctorReport& report) {
  return report.Count(CheckStatus::kFail) > 0 ? 1 : 0;
}

void Emitter::Add(const std::string& id, CheckStatus status, const Vars& vars) {
  CheckResult r;
  r.id = id;
  r.status = status;
  auto it = rules_.checks.find(id);
  if (it == rules_.checks.end()) {
    // Rules data without this check: still say something rather than hide the result.
    r.group = "other";
    r.title = id;
    r.evidence = vars.count("detail") ? vars.at("detail") : id;
    report_.checks.push_back(std::move(r));
    return;
  }
  const CheckText& t = it->second;
  r.group = t.group;
  r.title = t.title;
  r.source = t.source;
  const std::string& tmpl = status == CheckStatus::kFail   ? (t.fail.empty() ? t.warn : t.fail)
                            : status == CheckStatus::kWarn ? (t.warn.empty() ? t.fail : t.warn)
                                                           : t.ok;
  r.evidence = Render(tmpl, vars);
  if (status == CheckStatus::kWarn || status == CheckStatus::kFail) r.fix = Render(t.fix, vars);
  report_.checks.push_back(std::move(r));
}

void Emitter::Skip(const std::string& id, std::string why) {
  CheckResult r;
  r.id = id;
  r.status = CheckStatus::kSkipped;
  auto it = rules_.checks.find(id);
  r.group = it == rules_.checks.end() ? "other" : it->second.group;
  r.title = it == rules_.checks.end() ? id : it->second.title;
  r.source = it == rules_.checks.end() ? "" : it->second.source;
  r.evidence = std::move(why);
  report_.checks.push_back(std::move(r));
}

int GpusNeeded(const ServerCommand& cmd) {
  int64_t per_replica = int64_t{cmd.tp} * cmd.pp;
  bool dp_attention = cmd.engine == Engine::kSglang && cmd.has_flag("--enable-dp-attention");
  int64_t total = dp_attention ? per_replica : per_replica * cmd.dp;
  int64_t nodes = std::max(1, cmd.nnodes);
  return static_cast<int>(std::min<int64_t>((total + nodes - 1) / nodes, 1 << 20));
}

KvEstimate EstimateKv(const ModelShape& m, const ServerCommand& cmd, uint64_t gpu_bytes,
                      uint64_t weights, const Thresholds& t) {
  KvEstimate k;
  double dtype = KvDtypeBytes(cmd.kv_cache_dtype, cmd.dtype);
  k.bytes_per_token = KvBytesPerToken(m, cmd.tp, cmd.pp, dtype);
  k.kind = m.mla() ? "MLA"
                   : (m.hybrid_linear ? "hybrid, " + std::to_string(m.attention_layers) + " of " +
                                            std::to_string(m.layers) + " layers attention"
                                      : "GQA");
  k.gpu_bytes = gpu_bytes;
  k.weights_per_rank = weights;
  bool vllm = cmd.engine == Engine::kVllm;
  k.fraction = cmd.mem_fraction.value_or(vllm ? t.vllm_default_gpu_memory_utilization
                                              : t.sglang_default_mem_fraction);
  double budget = static_cast<double>(gpu_bytes) * k.fraction - static_cast<double>(weights);
  if (vllm) {
    budget -= static_cast<double>(t.vllm_activation_reserve_bytes);
  } else if (m.hybrid_linear) {
    // SGLang splits what is left between the linear-attention state pool and the KV cache by
    // --mamba-full-memory-ratio (state : KV).
    double ratio = t.sglang_mamba_full_memory_ratio;
    if (const std::string* r = cmd.flag("--mamba-full-memory-ratio")) {
      ratio = std::strtod(r->c_str(), nullptr);
    }
    if (ratio >= 0 && std::isfinite(ratio)) budget /= 1.0 + ratio;
  }
  k.kv_budget_bytes = static_cast<int64_t>(std::max(-9e18, std::min(9e18, budget)));
  if (k.bytes_per_token > 0 && budget > 0) {
    k.tokens = static_cast<int64_t>(std::min(budget / k.bytes_per_token, 9e15));
  }
  k.context = cmd.context_length.value_or(m.max_position);
  int64_t round = std::max<int64_t>(1, t.context_round_tokens);
  k.max_context = k.tokens >= round ? k.tokens / round * round : k.tokens;
  if (k.context > 0) k.max_context = std::min(k.max_context, k.context);
  return k;
}

DoctorReport RunChecks(const HostView& view, const DoctorRules& rules) {
  DoctorReport report;
  report.engine = std::string(EngineName(view.command.engine));
  report.model = view.command.model.value_or("");
  Emitter e(rules, report);
  CheckCommand(view, e);
  CheckFlagRules(view, e);
  CheckCheckpoint(view, e);
  CheckMemory(view, e);
  CheckLoad(view, e);
  CheckGpus(view, e);
  CheckP2p(view, e);
  CheckHost(view, e);
  return report;
}

}  // namespace spinup::doctor
