// Replays a saved `watch --json` / `run --json` event stream (docs/events.md) into sinks, so a
// startup can be rendered again after the fact (`spinup report`). The stream is untrusted: a line
// that is not JSON, has no known `type`, or does not decode is skipped with a one-line warning
// naming FILE:LINE; replay goes on.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "spinup/sink.h"
#include "spinup/status.h"

namespace spinup {

struct ReplayStats {
  size_t lines = 0;
  size_t events = 0;
  size_t skipped = 0;
  size_t verdicts = 0;
  bool saw_final = false;
};

// `set_time` is called with each event's `time` before the event reaches the sinks (sinks stamp
// verdicts with their clock; this is that clock during a replay). Ends with Finish on every sink:
// with the stream's final verdict, or its last verdict when the stream was cut short. A stream
// with no verdict at all is an error.
Result<ReplayStats> ReplayEventStream(std::istream& in, const std::string& name,
                                      const std::vector<Sink*>& sinks,
                                      const std::function<void(int64_t)>& set_time,
                                      std::ostream& warnings, size_t max_line_bytes = 16 << 20);

}  // namespace spinup
