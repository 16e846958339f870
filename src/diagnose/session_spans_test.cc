// Where the timeline's spans begin and end when the engine's lines leave a gap or report a time
// of their own (issue 10, red-team round twenty-five), written from the engines' sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

Phase Slowest(const Verdict& v) { return testing::SlowestPhase(v); }

const TimelineEntry* Find(const Verdict& v, Phase phase) {
  for (const TimelineEntry& e : v.timeline) {
    if (e.phase == phase) return &e;
  }
  return nullptr;
}

// vLLM 0.6 with Ray: the API server's banner, then ten minutes before the remote worker's first
// line (its node was still pulling the image). That wait was the launch's.
TEST(SessionSpans, TheWaitBeforeTheFirstPhaseLineIsTheLaunchs) {
  const std::string log =
      "INFO 11-05 02:10:00 api_server.py:528] vLLM API server version 0.6.3.post1\n"
      "INFO 11-05 02:10:05 llm_engine.py:237] Initializing an LLM engine (v0.6.3.post1) with "
      "config: model='m', tensor_parallel_size=8\n"
      "(RayWorkerWrapper pid=3112, ip=10.20.0.12) INFO 11-05 02:20:17 selector.py:115] Using "
      "XFormers backend.\n"
      "INFO 11-05 02:20:19 pynccl.py:63] vLLM is using nccl==2.20.5\n"
      "INFO 11-05 02:20:22 model_runner.py:1056] Starting to load model m...\n"
      "INFO 11-05 02:21:00 model_runner.py:1067] Loading model weights took 28.4412 GB\n"
      "INFO 11-05 02:21:10 api_server.py:232] Started server process [1]\n"
      "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* launch = Find(v, Phase::kLaunch);
  ASSERT_NE(launch, nullptr);
  ASSERT_TRUE(launch->seconds);
  EXPECT_NEAR(*launch->seconds, 619, 1);
  EXPECT_TRUE(launch->slow);
  EXPECT_EQ(Slowest(v), Phase::kLaunch);
}

// Without a banner the log's first line is no start: nothing before the first phase line is timed.
TEST(SessionSpans, AnExcerptWithoutItsBannerHasNoLaunchSpan) {
  const std::string log =
      "INFO 11-05 02:10:00 config.py:899] Defaulting to use ray for distributed inference\n"
      "INFO 11-05 02:20:19 pynccl.py:63] vLLM is using nccl==2.20.5\n"
      "INFO 11-05 02:20:22 model_runner.py:1056] Starting to load model m...\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(Find(v, Phase::kLaunch), nullptr) << v.headline;
}

// vLLM V1 downloads a Hub checkpoint inside its load and says so when done: those seconds are the
// download's, and the load's own figure ("Model loading took ... 1348 seconds") counts them too.
TEST(SessionSpans, AHubDownloadInsideTheLoadIsItsOwnPhase) {
  const std::string log =
      "INFO 04-09 07:00:12 [api_server.py:1043] vLLM API server version 0.8.3\n"
      "(VllmWorker rank=0 pid=1803) INFO 04-09 07:00:31 [gpu_model_runner.py:1258] Starting to "
      "load model Qwen/QwQ-32B...\n"
      "(VllmWorker rank=0 pid=1803) INFO 04-09 07:22:47 [weight_utils.py:281] Time spent "
      "downloading weights for Qwen/QwQ-32B: 1335.112840 seconds\n"
      "(VllmWorker rank=0 pid=1803) INFO 04-09 07:23:00 [gpu_model_runner.py:1273] Model loading "
      "took 15.4058 GiB and 1348.402311 seconds\n"
      "INFO 04-09 07:24:31 [api_server.py:1090] Starting vLLM API server on http://0.0.0.0:8000\n"
      "INFO:     Application startup complete.\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* download = Find(v, Phase::kDownload);
  ASSERT_NE(download, nullptr);
  ASSERT_TRUE(download->seconds);
  EXPECT_NEAR(*download->seconds, 1335, 1);
  double load = 0;
  for (const TimelineEntry& e : v.timeline) {
    if (e.phase == Phase::kWeightLoad && e.seconds) load = std::max(load, *e.seconds);
  }
  EXPECT_NEAR(load, 13, 1);  // 1348 s less the download
  EXPECT_EQ(Slowest(v), Phase::kDownload);
}

// A Ray worker on another node prints only its rank line and "Loading weights took N seconds"
// (the rest deduplicated): its load began N seconds before, not at that line.
TEST(SessionSpans, LoadingWeightsTookDatesTheLoadBack) {
  const std::string log =
      "INFO 07-22 03:10:33 [api_server.py:1043] vLLM API server version 0.9.2\n"
      "(RayWorkerWrapper pid=7712, ip=10.244.5.9) INFO 07-22 03:10:57 [parallel_state.py:1076] "
      "rank 8 in world size 16 is assigned as DP rank 0, PP rank 1, TP rank 0, EP rank 0\n"
      "(RayWorkerWrapper pid=7712, ip=10.244.5.9) INFO 07-22 03:38:19 [default_loader.py:272] "
      "Loading weights took 1641.02 seconds\n";
  const Verdict v = Explain(log);
  const TimelineEntry* dist = Find(v, Phase::kDistributedInit);
  ASSERT_NE(dist, nullptr) << v.headline;
  ASSERT_TRUE(dist->seconds);
  EXPECT_LT(*dist->seconds, 5);
  const TimelineEntry* load = Find(v, Phase::kWeightLoad);
  ASSERT_NE(load, nullptr);
  ASSERT_TRUE(load->start_ms && dist->start_ms);
  EXPECT_LT(*load->start_ms - *dist->start_ms, 5000);
}

// A scheduler's cancel (plain or for its time limit) in a log no engine wrote to says nothing of
// a start; after an engine's lines it is a stop (a stall when it came long after the last
// progress).
TEST(SessionSpans, ASlurmCancelIsAStopOnlyOfAStartThatBegan) {
  const std::string cancel =
      "slurmstepd: error: *** JOB 77120 ON gpu-h01 CANCELLED AT 2025-03-02T08:14:44 DUE TO TIME "
      "LIMIT ***\n";
  EXPECT_EQ(Explain("+ srun --nodes=1 ray start --head --block\n" + cancel).state, State::kUnknown);
  const std::string load =
      "INFO 03-02 07:00:00 api_server.py:712] vLLM API server version 0.7.3\n"
      "INFO 03-02 07:00:20 model_runner.py:1110] Starting to load model m...\n";
  EXPECT_EQ(Explain(load + cancel).state, State::kStalled);  // 74 min after the load began
  const std::string soon =
      "slurmstepd: error: *** JOB 77120 ON gpu-h01 CANCELLED AT 2025-03-02T07:01:30 DUE TO TIME "
      "LIMIT ***\n";
  const Verdict v = Explain(load + soon);
  EXPECT_EQ(v.state, State::kStopped) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
}

// A terminal session: trtllm-build, then `mpirun ... trtllm-serve` typed at the prompt. The
// serve's banner has no time of its own; the build that finished before it is the start's first
// step, and its time counts.
TEST(SessionSpans, ABuildThenAServeTypedAtThePromptIsOneStart) {
  const std::string build =
      "root@gpu-node-07:/workspace# time trtllm-build --checkpoint_dir /ckpt --output_dir /eng\n"
      "[01/22/2025-09:14:27] [TRT-LLM] [I] Build TensorRT engine Unnamed Network 0\n"
      "[01/22/2025-09:33:13] [TRT] [I] Engine generation completed in 1126.32 seconds.\n"
      "[01/22/2025-09:33:42] [TRT-LLM] [I] Total time of building all engines: 00:19:15\n"
      "\nreal    19m42.118s\n";
  const std::string serve =
      "[TensorRT-LLM] TensorRT-LLM version: 0.16.0\n"
      "[01/22/2025-09:34:31] [TRT-LLM] [I] Using MpiCommSession to bind to external MPI "
      "processes\n"
      "[TensorRT-LLM][INFO] Rank 0 is using GPU 0\n"
      "[01/22/2025-09:35:02] [TRT-LLM] [I] get signal from executor worker\n"
      "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n";
  const Verdict v = Explain(
      build + "root@gpu-node-07:/workspace# mpirun -n 1 --allow-run-as-root trtllm-serve /eng\n" +
      serve);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(v.attempts, 1) << v.headline;
  EXPECT_EQ(Slowest(v), Phase::kCompile) << v.headline;
}

}  // namespace
}  // namespace spinup
