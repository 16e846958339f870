// A line that says how long its phase ran, on a rank a line printed at the phase's end already put
// in that phase (tracker.cc RedateOpenSpan): the phase began that long before, not at that line.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

std::string V(std::string_view tag, std::string_view stamp, std::string_view msg) {
  return std::string(tag) + " INFO 08-20 " + std::string(stamp) + " [x.py:1] " + std::string(msg) +
         "\n";
}

TEST(TrackerRedate, CaptureTimeOfARankWithoutTheBarIsItsCudaGraphPhase) {
  // Only TP0 prints the capture's bar; TP1's first capture line is custom all-reduce's
  // registration at the capture's end. Its 200 s are capture time, not KV-cache time.
  const std::string t0 = "(VllmWorker TP0 pid=280)";
  const std::string t1 = "(VllmWorker TP1 pid=281)";
  std::string log;
  for (const auto& t : {t0, t1}) log += V(t, "10:01:38", "torch.compile takes 33.89 s in total");
  for (const auto& t : {t0, t1}) log += V(t, "10:01:41", "Available KV cache memory: 50.37 GiB");
  log += t0 + " Capturing CUDA graph shapes: 100%|##########| 67/67 [03:20<00:00,  0.33it/s]\n";
  for (const auto& t : {t0, t1}) log += V(t, "10:05:01", "Registering 8643 cuda graph addresses");
  for (const auto& t : {t0, t1}) {
    log += V(t, "10:05:01", "Graph capturing finished in 200 secs, took 0.61 GiB");
  }
  log += "(APIServer pid=1) INFO:     Application startup complete.\n";
  const Verdict v = testing::ExplainLog(log);
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  for (const auto& e : v.timeline) {
    if (e.rank == "TP1" && e.phase == Phase::kKvCache) {
      EXPECT_LT(e.seconds.value_or(0), 10) << "TP1 kv_cache";
    }
  }
  EXPECT_NE(v.headline.find("slowest phase cuda_graph"), std::string::npos) << v.headline;
}

}  // namespace
}  // namespace spinup
