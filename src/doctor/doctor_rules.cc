#include "doctor/doctor_rules.h"

#include <nlohmann/json.hpp>

#include "logs/embedded_rules.h"

namespace spinup {
// Generated from rules/doctor/*.json (cmake/embed_rules.cmake with FUNC=EmbeddedDoctorFiles).
const std::vector<EmbeddedRulesFile>& EmbeddedDoctorFiles();
}  // namespace spinup

namespace spinup::doctor {
namespace {

using nlohmann::json;

template <typename T>
void Get(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end()) return;
  if constexpr (std::is_same_v<T, std::string>) {
    if (it->is_string()) out = it->get<std::string>();
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    if (!it->is_array()) return;
    for (const auto& v : *it) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    if (!it->is_object()) return;
    for (const auto& [k, v] : it->items()) {
      if (v.is_string()) out[k] = v.template get<std::string>();
    }
  } else {
    if (it->is_number()) out = it->template get<T>();
  }
}

void ParseThresholds(const json& j, Thresholds& t) {
  Get(j, "shm_min_bytes", t.shm_min_bytes);
  Get(j, "nofile_min", t.nofile_min);
  Get(j, "memlock_min_bytes", t.memlock_min_bytes);
  Get(j, "cache_free_min_bytes", t.cache_free_min_bytes);
  Get(j, "load_warn_seconds", t.load_warn_seconds);
  Get(j, "default_read_bytes_per_s", t.default_read_bytes_per_s);
  Get(j, "sglang_default_mem_fraction", t.sglang_default_mem_fraction);
  Get(j, "sglang_mamba_full_memory_ratio", t.sglang_mamba_full_memory_ratio);
  Get(j, "vllm_default_gpu_memory_utilization", t.vllm_default_gpu_memory_utilization);
  Get(j, "vllm_activation_reserve_bytes", t.vllm_activation_reserve_bytes);
  Get(j, "context_round_tokens", t.context_round_tokens);
  Get(j, "gpu_orphan_used_bytes", t.gpu_orphan_used_bytes);
  Get(j, "gpu_holder_ignore", t.gpu_holder_ignore);
}

}  // namespace

Result<DoctorRules> ParseDoctorRules(std::string_view text, std::string_view name) {
  DoctorRules r;
  Status st = MergeDoctorRules(text, name, r);
  if (!st.ok()) return st;
  return r;
}

Status MergeDoctorRules(std::string_view text, std::string_view name, DoctorRules& r) {
  json j = json::parse(text, nullptr, false);
  std::string where(name);
  if (!j.is_object()) return Status::Corrupt(where + ": not a JSON object");
  if (auto it = j.find("thresholds"); it != j.end() && it->is_object()) {
    ParseThresholds(*it, r.thresholds);
  }
  if (auto it = j.find("checks"); it != j.end() && it->is_object()) {
    for (const auto& [id, c] : it->items()) {
      if (!c.is_object()) return Status::Corrupt(where + ": checks." + id + ": not an object");
      CheckText t;
      Get(c, "group", t.group);
      Get(c, "title", t.title);
      Get(c, "ok", t.ok);
      Get(c, "warn", t.warn);
      Get(c, "fail", t.fail);
      Get(c, "fix", t.fix);
      Get(c, "source", t.source);
      if (t.group.empty()) return Status::Corrupt(where + ": checks." + id + ": no group");
      r.checks[id] = std::move(t);
    }
  }
  if (auto it = j.find("flag_rules"); it != j.end() && it->is_array()) {
    size_t i = 0;
    for (const auto& c : *it) {
      std::string at = where + ": flag_rules[" + std::to_string(i++) + "]";
      if (!c.is_object()) return Status::Corrupt(at + ": not an object");
      FlagRule f;
      Get(c, "id", f.id);
      Get(c, "title", f.title);
      Get(c, "engine", f.engine);
      Get(c, "model", f.model);
      Get(c, "flags_present", f.flags_present);
      Get(c, "flags_absent", f.flags_absent);
      Get(c, "unless_flags", f.unless_flags);
      Get(c, "require_flags", f.require_flags);
      Get(c, "require_env", f.require_env);
      Get(c, "env_absent", f.env_absent);
      Get(c, "nnodes_gt", f.nnodes_gt);
      Get(c, "dist_init_addr_matches", f.dist_init_addr_matches);
      Get(c, "severity", f.severity);
      Get(c, "evidence", f.evidence);
      Get(c, "fix", f.fix);
      Get(c, "source", f.source);
      if (f.id.empty() || f.evidence.empty())
        return Status::Corrupt(at + ": needs id and evidence");
      if (f.severity != "warn" && f.severity != "fail") {
        return Status::Corrupt(at + ": severity must be warn or fail");
      }
      r.flag_rules.push_back(std::move(f));
    }
  }
  return Status::Ok();
}

Result<DoctorRules> EmbeddedDoctorRules() {
  DoctorRules merged;
  for (const auto& f : EmbeddedDoctorFiles()) {
    Status st = MergeDoctorRules(f.contents, f.name, merged);
    if (!st.ok()) return st;
  }
  return merged;
}

std::string Render(std::string_view tmpl, const Vars& vars) {
  std::string out;
  out.reserve(tmpl.size() + 64);
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{') {
      size_t close = tmpl.find('}', i + 1);
      if (close != std::string_view::npos && close - i < 64) {
        auto it = vars.find(std::string(tmpl.substr(i + 1, close - i - 1)));
        if (it != vars.end()) {
          out += it->second;
          i = close;
          continue;
        }
      }
    }
    out.push_back(tmpl[i]);
  }
  return out;
}

}  // namespace spinup::doctor
