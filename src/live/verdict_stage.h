// What only a live watch knows, added to the judge's verdict after it is made: the first request
// (ready means serving), the evidence gathered at a stall, the page-cache warm. Each is one
// VerdictStage; the Watcher runs them in order after every judgement. A stage never blocks the
// loop: slow work (an HTTP request, py-spy) runs on a thread of the stage's own, and the verdict
// picks up its result at a later judgement. Only Finish() may wait, and only a bounded time.
#pragma once

#include <cstdint>

#include "spinup/startup.h"

namespace spinup {

class VerdictStage {
 public:
  virtual ~VerdictStage() = default;
  // Each sample, before the judgement that uses it.
  virtual void OnSample(const Sample& /*sample*/) {}
  // Adds what the stage knows to `verdict` (and may change its state).
  virtual void Apply(Verdict& verdict, int64_t now_ms) = 0;
  // The watch is about to end and the server is still there: finish what needs it (bounded).
  virtual void Settle() {}
  // The watch ends: stop background work, waiting at most a bounded time for a result the final
  // verdict should carry, then Apply once more.
  virtual void Finish(Verdict& verdict, int64_t now_ms) { Apply(verdict, now_ms); }
};

}  // namespace spinup
