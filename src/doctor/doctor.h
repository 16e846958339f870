// `spinup doctor`: the known causes of failed or hung starts, checked before the start. RunChecks
// is a pure function of a HostView (gathered, or built by a test) and the rules data; renderers
// turn its report into text or JSON (schema: docs/doctor.md). It never needs a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "doctor/doctor_rules.h"
#include "doctor/host_view.h"

namespace spinup::doctor {

enum class CheckStatus { kOk, kWarn, kFail, kSkipped };
std::string_view CheckStatusName(CheckStatus status);  // "ok", "warn", "fail", "skipped"

struct CheckResult {
  std::string id;     // "port-free", a flag rule's id, ...
  std::string group;  // checkpoint, memory, load, gpus, p2p, host, flags
  std::string title;
  CheckStatus status = CheckStatus::kOk;
  std::string evidence;  // one line
  std::string fix;       // warn/fail only
  std::string source;    // where the knowledge comes from
};

// The KV-cache arithmetic behind the kv-cache check.
struct KvEstimate {
  std::string kind;            // "MLA", "GQA", "hybrid (N of M layers attention)"
  double bytes_per_token = 0;  // on one rank
  uint64_t gpu_bytes = 0;      // per GPU
  double fraction = 0;         // memory fraction / utilisation used
  uint64_t weights_per_rank = 0;
  int64_t kv_budget_bytes = 0;  // for the per-token cache, after weights and reserves
  int64_t tokens = 0;           // that fit (max_total_num_tokens / GPU KV cache size)
  int64_t context = 0;          // requested (flag, or the model's max_position_embeddings)
  int64_t max_context = 0;      // largest that fits, rounded down
};

// Pure: engine defaults and reserves come from `t`.
KvEstimate EstimateKv(const ModelShape& shape, const ServerCommand& cmd, uint64_t gpu_bytes,
                      uint64_t weights_per_rank, const Thresholds& t);

struct DoctorReport {
  std::string engine;
  std::string model;
  std::vector<std::string> sources;  // unit files read, when --unit
  std::vector<CheckResult> checks;
  std::optional<KvEstimate> kv;
  size_t Count(CheckStatus status) const;
};

DoctorReport RunChecks(const HostView& view, const DoctorRules& rules);

// Exit status: 1 when a check failed, else 0.
int DoctorExitCode(const DoctorReport& report);

std::string DoctorReportText(const DoctorReport& report);
std::string DoctorReportJson(const DoctorReport& report);

// ---- internals shared by the check files ----
class Emitter {
 public:
  Emitter(const DoctorRules& rules, DoctorReport& report) : rules_(rules), report_(report) {}
  void Add(const std::string& id, CheckStatus status, const Vars& vars);
  // A check that could not run: why, in plain words.
  void Skip(const std::string& id, std::string why);
  const Thresholds& t() const { return rules_.thresholds; }
  const DoctorRules& rules() const { return rules_; }
  DoctorReport& report() { return report_; }

 private:
  const DoctorRules& rules_;
  DoctorReport& report_;
};

void CheckCommand(const HostView& v, Emitter& e);
void CheckCheckpoint(const HostView& v, Emitter& e);
void CheckMemory(const HostView& v, Emitter& e);
void CheckLoad(const HostView& v, Emitter& e);
void CheckGpus(const HostView& v, Emitter& e);
void CheckP2p(const HostView& v, Emitter& e);
void CheckHost(const HostView& v, Emitter& e);
void CheckFlagRules(const HostView& v, Emitter& e);

// GPUs this node uses (tp x pp x dp / nnodes; SGLang's DP attention shares the TP GPUs).
int GpusNeeded(const ServerCommand& cmd);

}  // namespace spinup::doctor
