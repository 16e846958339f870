// When a phase began, from lines that say it themselves: a line that says how long its phase ran,
// on a rank a line printed at the phase's end already put in that phase (tracker.cc
// RedateOpenSpan), and lines without a time of their own between two stamped ones (DateUndated).
#include <gtest/gtest.h>

#include <map>
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

TEST(TrackerRedate, UnstampedLinesAfterAStampedOneCameBeforeTheNextStamp) {
  // Triton stamps its own lines; TensorRT-LLM's C++ runtime does not. The engine loaded for the
  // 3.6 minutes between the two stamps, then the KV cache was sized in a moment.
  const Verdict v = testing::ExplainLog(
      "I1120 10:14:02.504326 1 libtensorrtllm.cc:114] \"TRITONBACKEND_ModelInitialize: "
      "tensorrt_llm (version 1)\"\n"
      "[TensorRT-LLM][INFO] Loaded engine size: 65298 MiB\n"
      "[TensorRT-LLM][INFO] Memory usage when calculating max tokens in paged kv cache: total: "
      "79.10 GiB, available: 6.85 GiB\n"
      "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 6.16 GiB for max tokens in paged KV cache "
      "(12608).\n"
      "I1120 10:17:41.551902 1 model_lifecycle.cc:839] \"successfully loaded 'tensorrt_llm'\"\n"
      "I1120 10:17:41.618402 1 grpc_server.cc:2558] \"Started GRPCInferenceService at "
      "0.0.0.0:8001\"\n");
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  std::map<Phase, double> seconds;
  for (const auto& e : v.timeline) seconds[e.phase] += e.seconds.value_or(0);
  EXPECT_NEAR(seconds[Phase::kWeightLoad], 219, 1);
  EXPECT_LT(seconds[Phase::kKvCache], 1);
  EXPECT_NE(v.headline.find("slowest phase weight_load"), std::string::npos) << v.headline;
}

}  // namespace
}  // namespace spinup
