// Output when stdout is not a terminal: one plain line per state change ("14:31:02 progressing
// weight_load 45% 105/234 GB 780 MB/s ETA 2m10s"), and at the end the verdict with its evidence,
// errors and known causes. Easy to grep, safe in a log file.
#pragma once

#include <ostream>
#include <string>

#include "live/clock.h"
#include "spinup/sink.h"

namespace spinup {

class PlainLinesSink final : public Sink {
 public:
  PlainLinesSink(std::ostream& out, Clock& clock) : out_(out), clock_(clock) {}
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& final_verdict) override;

 private:
  std::ostream& out_;
  Clock& clock_;
  std::string last_key_;
  int last_percent_decile_ = -1;
  std::string last_warm_key_;
  bool evidence_shown_ = false;
};

// The end-of-watch report shared by the plain and terminal views: headline, evidence, errors,
// findings with fixes.
void WriteVerdictReport(std::ostream& out, const Verdict& v);

}  // namespace spinup
