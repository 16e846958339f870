// `--json`: one JSON object per line, each with `time` (Unix ms) and `type` — "phase",
// "progress", "signal" or "verdict" — and that type's fields. The schema is documented in
// docs/events.md; the structs are encoded by the one codec in json_codec.h.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "live/clock.h"
#include "spinup/sink.h"

namespace spinup {

class JsonLinesSink final : public Sink {
 public:
  JsonLinesSink(std::ostream& out, Clock& clock) : out_(out), clock_(clock) {}
  void OnLogEvent(const LogEvent& event) override;
  void OnSample(const Sample& sample) override;
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& final_verdict) override;

 private:
  std::ostream& out_;
  Clock& clock_;
  std::string last_verdict_key_;
  std::string last_progress_key_;
  std::string last_warm_key_;
};

}  // namespace spinup
