// Builders of StartRecords for the history tests.
#pragma once

#include <utility>
#include <vector>

#include "history/record.h"

namespace spinup::testing {

// A start of `model` on `host` at `started_ms` whose phases run back to back for the given
// seconds on rank "TP0", then ready.
inline StartRecord MakeStart(int64_t id, int64_t started_ms,
                             const std::vector<std::pair<Phase, double>>& phases,
                             std::string host = "node1", std::string model = "/models/m") {
  StartRecord r;
  r.id = id;
  r.started_ms = started_ms;
  r.host = std::move(host);
  r.model = std::move(model);
  r.fingerprint = CheckpointFingerprint{1000, 2, "00000000000000aa"};
  r.engine = "sglang";
  r.engine_version = "0.4.1";
  r.flags.tp = 2;
  r.spinup_version = "0.1.0";
  r.state = State::kReady;
  r.source = "run";
  int64_t t = started_ms;
  for (const auto& [phase, secs] : phases) {
    auto end = t + static_cast<int64_t>(secs * 1000);
    r.phases.push_back(RecordedSpan{"TP0", phase, t, end, secs});
    t = end;
  }
  r.phases.push_back(RecordedSpan{"TP0", Phase::kReady, t, std::nullopt, std::nullopt});
  r.ready_ms = t;
  r.ended_ms = t;
  return r;
}

}  // namespace spinup::testing
