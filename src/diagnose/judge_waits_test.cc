// A span during which other ranks began two or more later phases was a wait on them (judge.cc
// MarkWaits): it is neither slow nor the slowest phase. vLLM V1's engine core opens launch and
// says nothing more until the KV cache is sized, while its workers load, compile and profile.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

// One vLLM line at 10:MM:SS behind a process tag.
std::string V(std::string_view tag, int s, std::string_view where, std::string_view msg) {
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "08-20 10:%02d:%02d", s / 60, s % 60);
  return std::string(tag) + " INFO " + stamp + " [" + std::string(where) + "] " + std::string(msg) +
         "\n";
}

constexpr std::string_view kCore = "(EngineCore_0 pid=250)";
constexpr std::string_view kTp0 = "(VllmWorker TP0 pid=280)";
constexpr std::string_view kTp1 = "(VllmWorker TP1 pid=281)";

// A TP=2 start whose workers load for `load_s` (TP1 `skew_s` later), compile for 27 s and capture
// for 6 s; the engine core prints only at its start and once the KV cache is sized.
std::string TwoWorkers(int load_s, int skew_s) {
  std::string log =
      V("(APIServer pid=1)", 3, "api_server.py:1805", "vLLM API server version 0.10.1") +
      V(kCore, 19, "core.py:636", "Waiting for init message from front-end.") +
      V(kCore, 19, "core.py:74", "Initializing a V1 LLM engine (v0.10.1) with config: model='m'");
  for (auto tag : {kTp0, kTp1}) {
    log += V(tag, 29, "gpu_model_runner.py:1953", "Starting to load model m...");
  }
  const int t0 = 29 + load_s;
  const int t1 = t0 + skew_s;
  log += V(kTp0, t0, "gpu_model_runner.py:2007",
           "Model loading took 13.9 GiB and " + std::to_string(load_s) + ".0 seconds");
  log += V(kTp1, t1, "gpu_model_runner.py:2007",
           "Model loading took 13.9 GiB and " + std::to_string(load_s + skew_s) + ".0 seconds");
  for (auto tag : {kTp0, kTp1}) {
    log += V(tag, t1 + 6, "backends.py:559", "Dynamo bytecode transform time: 6.48 s");
    log += V(tag, t1 + 26, "monitor.py:34", "torch.compile takes 26.89 s in total");
    log += V(tag, t1 + 29, "gpu_worker.py:276", "Available KV cache memory: 50.37 GiB");
  }
  log += V(kCore, t1 + 29, "kv_cache_utils.py:849", "GPU KV cache size: 550,112 tokens");
  log += V(kCore, t1 + 29, "kv_cache_utils.py:853",
           "Maximum concurrency for 32,768 tokens per request: 16.79x");
  for (auto tag : {kTp0, kTp1}) {
    log += V(tag, t1 + 35, "gpu_model_runner.py:2708",
             "Graph capturing finished in 6 secs, took 0.61 GiB");
  }
  log += V(kCore, t1 + 36, "core.py:214",
           "init engine (profile, create kv cache, warmup model) took 60.1 seconds");
  log += V("(APIServer pid=1)", t1 + 37, "api_server.py:1880",
           "Starting vLLM API server 0 on http://0.0.0.0:8000");
  log += "(APIServer pid=1) INFO:     Application startup complete.\n";
  return log;
}

const TimelineEntry* Find(const Verdict& v, std::string_view rank, Phase phase) {
  for (const auto& e : v.timeline) {
    if (e.rank == rank && e.phase == phase) return &e;
  }
  return nullptr;
}

TEST(JudgeWaits, AnEngineCoreWaitingOnItsWorkersIsNotTheSlowestPhase) {
  // The engine core's launch spans 80 s of its workers' load and compile: a normal start.
  const Verdict v = testing::ExplainLog(TwoWorkers(22, 0));
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* launch = Find(v, "EngineCore_0", Phase::kLaunch);
  ASSERT_NE(launch, nullptr);
  EXPECT_TRUE(launch->waiting);
  EXPECT_FALSE(launch->slow);
  EXPECT_NE(v.headline.find("slowest phase compile"), std::string::npos) << v.headline;
  EXPECT_EQ(v.headline.find("over its budget"), std::string::npos) << v.headline;
}

TEST(JudgeWaits, ASlowWorkersOwnLoadIsStillTheSlowestPhase) {
  // TP1 loads 5 min longer than TP0, which goes on into the profile run: one later phase during
  // TP1's load is no wait, and that load is the start's slowest phase.
  const Verdict v = testing::ExplainLog(TwoWorkers(22, 300));
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* load = Find(v, "TP1", Phase::kWeightLoad);
  ASSERT_NE(load, nullptr);
  EXPECT_FALSE(load->waiting);
  EXPECT_NE(v.headline.find("slowest phase weight_load"), std::string::npos) << v.headline;
}

TEST(JudgeWaits, AWorkersSpanLeftOpenInAReadyStartEndsWhereTheStartWentOn) {
  // A TPU worker's compile has no end line of its own: the engine core's next line closes it, so
  // the 24 min compile is the slowest phase, not the worker's 2 min load.
  const std::string w = "(RayWorkerWrapper pid=18822) INFO 06-11 ";
  const Verdict v = testing::ExplainLog(
      "INFO 06-11 09:02:27 [core.py:70] Initializing a V1 LLM engine (v0.9.1) with config: "
      "model='m'\n" +
      w + "09:02:58 [parallel_state.py:1065] rank 0 in world size 8 is assigned as DP rank 0\n" +
      w + "09:03:02 [tpu_model_runner.py:1062] Loading model from scratch...\n" + w +
      "09:05:14 [default_loader.py:272] Loading weights took 132.00 seconds\n" + w +
      "09:05:15 [tpu_model_runner.py:1313] Compiling the model with different input shapes.\n" +
      "INFO 06-11 09:29:48 [core.py:171] init engine (profile, create kv cache, warmup model) "
      "took 1474.02 seconds\n"
      "INFO 06-11 09:29:49 [api_server.py:1349] Starting vLLM API server 0 on "
      "http://0.0.0.0:8000\n"
      "INFO:     Application startup complete.\n");
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* compile = Find(v, "Worker-18822", Phase::kCompile);
  ASSERT_NE(compile, nullptr);
  ASSERT_TRUE(compile->seconds);
  EXPECT_NEAR(*compile->seconds, 24 * 60 + 33, 1);
  EXPECT_NE(v.headline.find("slowest phase compile"), std::string::npos) << v.headline;
}

TEST(JudgeWaits, ACoordinatorsSpanThatAWorkersCaptureFillsIsAWait) {
  // The engine core sizes the KV cache, then its worker captures graphs for 15 min: the core's
  // kv_cache span is the wait, the capture is the slowest phase.
  const std::string w = "(VllmWorker rank=0 pid=55301) INFO 07-28 ";
  const Verdict v = testing::ExplainLog(
      "(EngineCore_0 pid=9) INFO 07-28 10:00:21 [core.py:69] Initializing a V1 LLM engine "
      "(v0.9.1) with config: model='m'\n" +
      w + "10:00:45 [gpu_model_runner.py:1745] Starting to load model m...\n" + w +
      "10:03:34 [gpu_model_runner.py:1777] Model loading took 42.9 GiB and 160.1 seconds\n" +
      "(EngineCore_0 pid=9) INFO 07-28 10:03:59 [kv_cache_utils.py:716] GPU KV cache size: "
      "126,336 tokens\n" +
      w + "10:04:01 [gpu_model_runner.py:2063] Capturing CUDA graph shapes: 100%\n" + w +
      "10:19:40 [gpu_model_runner.py:2075] Graph capturing finished in 939 secs, took 2.87 GiB\n" +
      "(EngineCore_0 pid=9) INFO 07-28 10:19:41 [core.py:172] init engine (profile, create kv "
      "cache, warmup model) took 966.30 seconds\n"
      "(APIServer pid=1) INFO:     Application startup complete.\n");
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* kv = Find(v, "EngineCore_0", Phase::kKvCache);
  ASSERT_NE(kv, nullptr);
  EXPECT_TRUE(kv->waiting);
  EXPECT_NE(v.headline.find("slowest phase cuda_graph"), std::string::npos) << v.headline;
}

TEST(JudgeWaits, ASilentRankInStepWithAPeerThatCompilesIsNotTheSlowestPhase) {
  // Only TP0 logs its 6 min compile; TP1 says nothing between its load and the capture. TP1's
  // span after its load covers TP0's compile: it compiled too, and compile is the slowest phase.
  std::string log =
      V("(APIServer pid=1)", 3, "api_server.py:1805", "vLLM API server version 0.10.1") +
      V(kCore, 19, "core.py:74", "Initializing a V1 LLM engine (v0.10.1) with config: model='m'");
  for (auto tag : {kTp0, kTp1}) {
    log += V(tag, 29, "gpu_model_runner.py:1953", "Starting to load model m...");
    log += V(tag, 59, "gpu_model_runner.py:2007", "Model loading took 13.9 GiB and 30.0 seconds");
  }
  log += V(kTp0, 65, "backends.py:559", "Dynamo bytecode transform time: 4.48 s");
  log += V(kTp0, 465, "monitor.py:34", "torch.compile takes 400.2 s in total");
  log += V(kTp0, 468, "gpu_worker.py:276", "Available KV cache memory: 50.37 GiB");
  log += V(kCore, 470, "kv_cache_utils.py:849", "GPU KV cache size: 550,112 tokens");
  for (auto tag : {kTp0, kTp1}) {
    log += V(tag, 476, "gpu_model_runner.py:2708",
             "Graph capturing finished in 6 secs, took 0.61 GiB");
  }
  log += V(kCore, 477, "core.py:214",
           "init engine (profile, create kv cache, warmup model) took 458.1 seconds");
  log += "(APIServer pid=1) INFO:     Application startup complete.\n";
  const Verdict v = testing::ExplainLog(log);
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_NE(v.headline.find("slowest phase compile"), std::string::npos) << v.headline;
  for (const auto& e : v.timeline) {
    if (e.rank == "TP1" && e.phase != Phase::kCompile && e.seconds && *e.seconds > 300) {
      EXPECT_TRUE(e.waiting) << PhaseName(e.phase);
    }
  }
}

}  // namespace
}  // namespace spinup
