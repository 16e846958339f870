// Group 7: the command itself, and the static flag/model combinations of the rules data.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>

#include "doctor/doctor.h"

namespace spinup::doctor {
namespace {

bool HasTrait(const HostView& v, const std::string& trait) {
  if (!v.shape) return false;
  const ModelShape& m = *v.shape;
  if (trait == "hybrid_linear") return m.hybrid_linear;
  if (trait == "mla") return m.mla();
  if (trait == "moe") return m.moe();
  if (trait == "mtp") return m.mtp_layers > 0;
  return false;
}

// Whether the rule applies; `missing` gets what its require_* lists lack.
bool Applies(const FlagRule& r, const HostView& v, std::vector<std::string>& missing) {
  const ServerCommand& c = v.command;
  if (r.engine != "any" && r.engine != EngineName(c.engine)) return false;
  for (const auto& t : r.model) {
    if (!HasTrait(v, t)) return false;
  }
  for (const auto& f : r.flags_present) {
    if (!c.has_flag(f)) return false;
  }
  for (const auto& f : r.flags_absent) {
    if (c.has_flag(f)) return false;
  }
  for (const auto& f : r.unless_flags) {
    if (c.has_flag(f)) return false;
  }
  for (const auto& name : r.env_absent) {
    if (c.getenv(name) != nullptr) return false;
  }
  if (c.nnodes <= r.nnodes_gt) return false;
  if (!r.dist_init_addr_matches.empty()) {
    RE2 re(r.dist_init_addr_matches, RE2::Quiet);
    if (!re.ok() || !c.dist_init_addr || !RE2::PartialMatch(*c.dist_init_addr, re)) return false;
  }
  for (const auto& [flag, want] : r.require_flags) {
    const std::string* have = c.flag(flag);
    if (have == nullptr || (!want.empty() && *have != want)) {
      missing.push_back(want.empty() ? flag : fmt::format("{} {}", flag, want));
    }
  }
  for (const auto& [name, want] : r.require_env) {
    const std::string* have = c.getenv(name);
    if (have == nullptr || (!want.empty() && *have != want)) {
      missing.push_back(want.empty() ? name : fmt::format("{}={}", name, want));
    }
  }
  return true;
}

}  // namespace

void CheckCommand(const HostView& v, Emitter& e) {
  const ServerCommand& c = v.command;
  if (!c.problems.empty()) {
    e.Add("command", CheckStatus::kFail,
          {{"detail", fmt::format("{}", fmt::join(c.problems, "; "))}});
    return;
  }
  if (c.engine == Engine::kUnknown) {
    e.Add("command", CheckStatus::kWarn,
          {{"detail", "not an SGLang or vLLM server command: only the host checks ran"}});
    return;
  }
  e.Add("command", CheckStatus::kOk,
        {{"engine", std::string(EngineName(c.engine))},
         {"model", c.model.value_or("(none)")},
         {"tp", std::to_string(c.tp)},
         {"pp", std::to_string(c.pp)},
         {"dp", std::to_string(c.dp)},
         {"ep", std::to_string(c.ep)},
         {"port", std::to_string(c.port)}});
}

void CheckFlagRules(const HostView& v, Emitter& e) {
  const ServerCommand& c = v.command;
  for (const auto& r : e.rules().flag_rules) {
    std::vector<std::string> missing;
    if (!Applies(r, v, missing)) continue;
    bool has_requirements = !r.require_flags.empty() || !r.require_env.empty();
    if (has_requirements && missing.empty()) continue;  // the fix is already in place
    Vars vars{{"architecture", v.shape ? v.shape->architecture : ""},
              {"speculative", c.speculative.value_or("")},
              {"nnodes", std::to_string(c.nnodes)},
              {"dist_init_addr", c.dist_init_addr.value_or("")},
              {"missing", fmt::format("{} {} not set", fmt::join(missing, " and "),
                                      missing.size() == 1 ? "is" : "are")}};
    CheckResult res;
    res.id = r.id;
    res.group = "flags";
    res.title = r.title.empty() ? r.id : r.title;
    res.status = r.severity == "fail" ? CheckStatus::kFail : CheckStatus::kWarn;
    res.evidence = Render(r.evidence, vars);
    res.fix = Render(r.fix, vars);
    res.source = r.source;
    e.report().checks.push_back(std::move(res));
  }
}

}  // namespace spinup::doctor
