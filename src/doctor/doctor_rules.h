// doctor's knowledge as data (rules/doctor/doctor.json, compiled in): thresholds, the wording of
// every check (evidence per outcome, fix, source of truth) and the flag/model rules of group 7.
// The C++ checks measure; what counts as too small and what to tell people lives here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace spinup::doctor {

struct Thresholds {
  uint64_t shm_min_bytes = 1ull << 30;
  uint64_t nofile_min = 65536;
  uint64_t memlock_min_bytes = 64ull << 20;
  uint64_t cache_free_min_bytes = 2ull << 30;
  double load_warn_seconds = 300;
  double default_read_bytes_per_s = 1e9;
  double sglang_default_mem_fraction = 0.85;
  double sglang_mamba_full_memory_ratio = 0.9;
  double vllm_default_gpu_memory_utilization = 0.9;
  uint64_t vllm_activation_reserve_bytes = 2ull << 30;
  int64_t context_round_tokens = 1024;
  uint64_t gpu_orphan_used_bytes = 2ull << 30;  // used with no process listed: an orphan
  std::vector<std::string> gpu_holder_ignore;   // comm names that legitimately hold /dev/nvidia*
};

// One check's wording; {name} placeholders are filled from the check's variables.
struct CheckText {
  std::string group, title, ok, warn, fail, fix, source;
};

// A static flag/model combination (docs/doctor.md, "Flag rules"). Every listed condition must
// hold for the rule to fire; "require_*" are what must be present, and missing ones are named.
struct FlagRule {
  std::string id, title;
  std::string engine = "any";                        // "sglang", "vllm" or "any"
  std::vector<std::string> model;                    // traits: hybrid_linear, mla, moe, mtp
  std::vector<std::string> flags_present;            // all present
  std::vector<std::string> flags_absent;             // all absent
  std::vector<std::string> unless_flags;             // any present: the rule does not apply
  std::map<std::string, std::string> require_flags;  // flag -> value ("" = present)
  std::map<std::string, std::string> require_env;    // variable -> value ("" = set)
  std::vector<std::string> env_absent;               // all unset
  int nnodes_gt = 0;
  std::string dist_init_addr_matches;  // RE2, searched
  std::string severity = "warn";       // "warn" or "fail"
  std::string evidence, fix, source;
};

struct DoctorRules {
  Thresholds thresholds;
  std::map<std::string, CheckText> checks;
  std::vector<FlagRule> flag_rules;
};

// `name` is used in error messages ("doctor.json: flag_rules[2]: ...").
Result<DoctorRules> ParseDoctorRules(std::string_view json_text, std::string_view name);
// Adds a rules file to `into`: thresholds it names replace, checks replace by id, flag rules
// append. How `--rules FILE` extends the compiled-in data without a rebuild.
[[nodiscard]] Status MergeDoctorRules(std::string_view json_text, std::string_view name,
                                      DoctorRules& into);
// The compiled-in rules/doctor/*.json.
Result<DoctorRules> EmbeddedDoctorRules();

using Vars = std::map<std::string, std::string>;
// Replaces each {name} with vars[name]; an unknown name stays as written.
std::string Render(std::string_view tmpl, const Vars& vars);

}  // namespace spinup::doctor
