// Renderers for the doctor report: grouped text for people, one JSON object (docs/doctor.md).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/one_line.h"
#include "doctor/doctor.h"

namespace spinup::doctor {

std::string DoctorReportText(const DoctorReport& r) {
  std::string out = fmt::format("spinup doctor: {} server, model {}\n", r.engine,
                                r.model.empty() ? "(none)" : OneLine(r.model));
  for (const auto& s : r.sources) out += fmt::format("  read {}\n", OneLine(s));
  struct Section {
    CheckStatus status;
    const char* heading;
    const char* mark;
  };
  const Section sections[] = {{CheckStatus::kFail, "FAIL", "x"},
                              {CheckStatus::kWarn, "WARN", "!"},
                              {CheckStatus::kOk, "OK", "+"},
                              {CheckStatus::kSkipped, "NOT CHECKED", "-"}};
  for (const auto& s : sections) {
    size_t n = r.Count(s.status);
    if (n == 0) continue;
    out += fmt::format("\n{} ({})\n", s.heading, n);
    for (const auto& c : r.checks) {
      if (c.status != s.status) continue;
      out += fmt::format("  {} [{}] {}: {}\n", s.mark, c.group, c.title, OneLine(c.evidence));
      if (!c.fix.empty()) out += fmt::format("      fix: {}\n", OneLine(c.fix));
    }
  }
  size_t warns = r.Count(CheckStatus::kWarn);
  out += fmt::format("\n{} failed, {} warning{}, {} ok, {} not checked\n",
                     r.Count(CheckStatus::kFail), warns, warns == 1 ? "" : "s",
                     r.Count(CheckStatus::kOk), r.Count(CheckStatus::kSkipped));
  return out;
}

std::string DoctorReportJson(const DoctorReport& r) {
  using nlohmann::json;
  json j;
  j["schema"] = "spinup.doctor/1";
  j["engine"] = r.engine;
  j["model"] = r.model;
  j["sources"] = r.sources;
  j["summary"] = {{"fail", r.Count(CheckStatus::kFail)},
                  {"warn", r.Count(CheckStatus::kWarn)},
                  {"ok", r.Count(CheckStatus::kOk)},
                  {"skipped", r.Count(CheckStatus::kSkipped)}};
  j["checks"] = json::array();
  for (const auto& c : r.checks) {
    j["checks"].push_back({{"id", c.id},
                           {"group", c.group},
                           {"title", c.title},
                           {"status", CheckStatusName(c.status)},
                           {"evidence", c.evidence},
                           {"fix", c.fix.empty() ? json(nullptr) : json(c.fix)},
                           {"source", c.source}});
  }
  if (r.kv) {
    const KvEstimate& k = *r.kv;
    j["kv_cache"] = {{"kind", k.kind},
                     {"bytes_per_token", k.bytes_per_token},
                     {"gpu_bytes", k.gpu_bytes},
                     {"fraction", k.fraction},
                     {"weights_per_rank_bytes", k.weights_per_rank},
                     {"kv_budget_bytes", k.kv_budget_bytes},
                     {"tokens", k.tokens},
                     {"context", k.context},
                     {"max_context", k.max_context}};
  } else {
    j["kv_cache"] = nullptr;
  }
  // Replace invalid UTF-8 (from untrusted command lines) instead of throwing.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spinup::doctor
