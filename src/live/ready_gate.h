// `--probe generate`: the judge's READY becomes a verdict only once one minimal generation was
// served (src/proc/health.h). Until then the verdict is PROGRESSING in warmup; a first request
// that fails makes it CRASHED in warmup with the response as evidence, one that gets no answer
// STALLED in warmup. The latency goes to Verdict::first_request_seconds
// (spinup_first_request_seconds). A new attempt (a restart) probes again.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "live/verdict_stage.h"
#include "proc/health.h"
#include "spinup/status.h"

namespace spinup {

enum class ProbeMode {
  kAuto,      // generate when the engine is known (and a port is given), else health
  kGenerate,  // health, then one generation
  kHealth,    // /health (or /v1/models) answering 200 is enough
  kNone,      // no HTTP probe at all: the engine's own ready line
};
// "generate", "health", "none" (and "auto").
Result<ProbeMode> ParseProbeMode(std::string_view text);

// Runs one first request off the loop's thread. Tests fake it.
class FirstRequestRunner {
 public:
  virtual ~FirstRequestRunner() = default;
  virtual void Start(const proc::FirstRequestOptions& options) = 0;
  // The answer once the request finished.
  virtual std::optional<proc::FirstRequestAnswer> Poll() = 0;
  // Abandon a running request (returns at once or nearly).
  virtual void Stop() = 0;
};
std::unique_ptr<FirstRequestRunner> MakeThreadFirstRequestRunner();

class ReadyGate final : public VerdictStage {
 public:
  // `engine`: the forced engine ("" = the verdict's). `base` carries host, port and timeouts.
  ReadyGate(ProbeMode mode, proc::FirstRequestOptions base, std::string engine,
            std::unique_ptr<FirstRequestRunner> runner);
  ~ReadyGate() override;
  void Apply(Verdict& verdict, int64_t now_ms) override;
  void Finish(Verdict& verdict, int64_t now_ms) override;

 private:
  bool Wanted(const Verdict& v) const;

  ProbeMode mode_;
  proc::FirstRequestOptions base_;
  std::string engine_;
  std::unique_ptr<FirstRequestRunner> runner_;
  int attempt_ = -1;
  bool started_ = false;
  bool finished_ = false;  // Finish(): no new request, no late answer
  int64_t started_ms_ = 0;
  std::optional<proc::FirstRequestAnswer> answer_;
};

// Pure: the verdict given the first request's outcome (nullopt: not answered yet).
void ApplyFirstRequest(Verdict& v, const std::optional<proc::FirstRequestAnswer>& answer,
                       double waited_s);

}  // namespace spinup
