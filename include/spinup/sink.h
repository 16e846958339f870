// A Sink renders what the tracker and judge produce. Producers never format output themselves:
// the terminal view, plain lines, JSON lines, Prometheus metrics, the HTML report and sd_notify are
// each one Sink in src/sink/. Calls come from one thread, in time order.
#pragma once

#include "spinup/startup.h"

namespace spinup {

class Sink {
 public:
  virtual ~Sink() = default;
  // A log line matched a rule (phase change, progress bar, error, ...).
  virtual void OnLogEvent(const LogEvent& /*event*/) {}
  // A /proc + GPU + port sample was taken.
  virtual void OnSample(const Sample& /*sample*/) {}
  // The judge re-evaluated the startup (once per interval, and after decisive events).
  virtual void OnVerdict(const Verdict& /*verdict*/) {}
  // The watch ended (ready, crashed, stalled with --until verdict, timeout, or interrupted).
  virtual void Finish(const Verdict& /*final_verdict*/) {}
};

}  // namespace spinup
