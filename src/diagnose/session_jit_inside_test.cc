// A JIT build inside a later phase (SGLang's capture building FlashInfer's kernels with ninja,
// DeepGEMM's JIT in it): the build is compile in the timeline and in the verdict, while kernels
// loaded from the cache leave the phase as it was (issue 10, red-team round ninety-two).
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

Phase Slowest(const Verdict& v) { return testing::SlowestPhase(v); }

// SGLang up to its capture, then FlashInfer's JIT inside it.
const std::string kUpToCapture =
    "[2025-06-30 21:04:19] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)\n"
    "[2025-06-30 21:04:19 TP0] Init torch distributed begin.\n"
    "[2025-06-30 21:04:19 TP0] Init torch distributed ends. mem usage=0.00 GB\n"
    "[2025-06-30 21:04:20 TP0] Load weight begin. avail mem=30.91 GB\n"
    "[2025-06-30 21:04:24 TP0] Load weight end. type=Qwen3ForCausalLM, avail mem=15.42 GB\n"
    "[2025-06-30 21:04:24 TP0] KV Cache is allocated. #tokens: 70412\n"
    "[2025-06-30 21:04:24 TP0] Memory pool end. avail mem=5.41 GB\n"
    "[2025-06-30 21:04:25 TP0] Capture cuda graph begin. This can take up to several minutes.\n"
    "Capturing batches (bs=8 avail_mem=5.30 GB):   0%|          | 0/4 [00:00<?, ?it/s]\n"
    "2025-06-30 21:04:26,311 - INFO - flashinfer.jit: Loading JIT ops: batch_prefill\n";

const std::string kBuildSteps =
    "[1/2] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c prefill.cu\n"
    "[2/2] c++ prefill.cuda.o -shared -o batch_prefill.so\n";

TEST(SessionJitInside, AColdBuildInsideTheCaptureIsTheSlowestPhase) {
  const Verdict v =
      Explain(kUpToCapture + kBuildSteps +
              "2025-06-30 21:10:52,640 - INFO - flashinfer.jit: Finished loading JIT ops: "
              "batch_prefill\n"
              "Capturing batches (bs=1 avail_mem=5.18 GB): 100%|##########| 4/4 [06:28<00:00]\n"
              "[2025-06-30 21:10:53 TP0] Capture cuda graph end. Time elapsed: 388.21 s.\n"
              "[2025-06-30 21:10:54] INFO:     Uvicorn running on http://0.0.0.0:30000\n"
              "[2025-06-30 21:10:56] The server is fired up and ready to roll!\n");
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(Slowest(v), Phase::kCompile) << v.headline;
  double capture_s = 0;
  for (const TimelineEntry& e : v.timeline) {
    if (e.phase == Phase::kCudaGraph && e.seconds) capture_s += *e.seconds;
  }
  EXPECT_LT(capture_s, 10);  // the capture's own part, around the build's six minutes
}

TEST(SessionJitInside, AStartThatStopsInTheBuildHangsInCompile) {
  const Verdict v = Explain(kUpToCapture + kBuildSteps +
                            "[2025-06-30 22:10:00] (writer) nothing after this for an hour\n");
  EXPECT_EQ(v.phase, Phase::kCompile) << v.headline;
}

TEST(SessionJitInside, KernelsLoadedFromTheCacheLeaveTheCaptureAsItWas) {
  const Verdict v = Explain(kUpToCapture +
                            "2025-06-30 21:04:26,315 - INFO - flashinfer.jit: Loading JIT ops: "
                            "batch_decode\n");
  EXPECT_EQ(v.phase, Phase::kCudaGraph) << v.headline;
}

TEST(SessionJitInside, AFailedBuildInsideTheCaptureCrashesInCompile) {
  const Verdict v = Explain(kUpToCapture + kBuildSteps +
                            "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n"
                            "ninja: build stopped: subcommand failed.\n"
                            "[2025-06-30 21:04:29 TP0] Scheduler hit an exception: Traceback (most "
                            "recent call last):\n"
                            "RuntimeError: Ninja build failed. Ninja output:\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kCompile) << v.headline;
}

// DeepGEMM compiled its kernels, then the capture ran out of memory: no frame or line of a build
// in the failure, so the capture is where it died.
TEST(SessionJitInside, AnOomAfterTheBuildIsTheCaptures) {
  const Verdict v =
      Explain(kUpToCapture +
              "[2025-06-30 21:04:30 TP0] Try DeepGEMM JIT Compiling for <GEMM_NT_F8F8BF16> "
              "N=2112, K=7168, num_groups=1 with all Ms.\n"
              "[2025-06-30 21:04:40 TP0] Scheduler hit an exception: Traceback (most recent call "
              "last):\n"
              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kCudaGraph) << v.headline;
}

}  // namespace
}  // namespace spinup
