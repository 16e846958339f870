// Issue 10's generalisation, second round: each engine's wording across releases and each
// supervisor's way of saying "restarted", written from the engines' sources and the domain notes
// (../shared/docs/phase-lines-seen.md), not from corpus logs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::string FirstCause(const Verdict& v) { return v.findings.empty() ? "" : v.findings[0].id; }

const char* kVllmUpToLoad =
    "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
    "INFO 08-20 10:00:01 [core.py:75] Initializing a V1 LLM engine (v0.10.1) with config: m\n"
    "INFO 08-20 10:00:02 [gpu_model_runner.py:1953] Starting to load model m...\n"
    "INFO 08-20 10:00:30 [gpu_model_runner.py:2007] Model loading took 15.27 GiB and 21.02 "
    "seconds\n";

// A crash inside the compiler (inductor, dynamo tracing, vLLM's backend, Triton) is a compile crash
// even where the frames above it belong to the memory profile that triggered the first compile.
TEST(SessionFrames, CompilerFramesPlaceACrashInCompile) {
  std::string log = std::string(kVllmUpToLoad) +
                    "ERROR 08-20 10:00:50 [core.py:700] EngineCore failed to start.\n"
                    "Traceback (most recent call last):\n"
                    "  File \"/x/vllm/v1/worker/gpu_worker.py\", line 243, in "
                    "determine_available_memory\n"
                    "    self.model_runner.profile_run()\n"
                    "  File \"/x/vllm/compilation/backends.py\", line 620, in __call__\n"
                    "    self.split_gm = split_graph()\n"
                    "  File \"/x/torch/_inductor/compile_fx.py\", line 1200, in compile_fx\n"
                    "    return inner_compile(gm)\n"
                    "torch._inductor.exc.InductorError: CalledProcessError: gcc failed\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kCompile) << v.headline;
}

// Without compiler frames the same profile-run crash stays in kv_cache (the frames decide).
TEST(SessionFrames, AProfileRunCrashWithoutCompilerFramesIsKvCache) {
  std::string log = std::string(kVllmUpToLoad) +
                    "Traceback (most recent call last):\n"
                    "  File \"/x/vllm/v1/worker/gpu_worker.py\", line 243, in "
                    "determine_available_memory\n"
                    "    self.model_runner.profile_run()\n"
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.phase, Phase::kKvCache) << v.headline;
}

// vLLM 0.9's bar is "Capturing CUDA graph shapes", 0.10's "Capturing CUDA graphs (mixed ...)".
TEST(SessionWording, VllmGraphBarsOfBothReleasesAreCudaGraph) {
  for (const char* bar : {"Capturing CUDA graph shapes:  12%|#         | 8/67 [00:02<00:16]\n",
                          "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  45%|####5 "
                          "| 30/67 [00:05<00:06]\n"}) {
    std::string log =
        std::string(kVllmUpToLoad) +
        "INFO 08-20 10:00:52 [gpu_worker.py:276] Available KV cache memory: 50 GiB\n" + bar +
        "RuntimeError: CUDA error: an illegal memory access was encountered\n";
    Verdict v = Explain(log);
    EXPECT_EQ(v.phase, Phase::kCudaGraph) << bar << v.headline;
    EXPECT_EQ(FirstCause(v), "illegal_memory_access") << bar;
  }
}

// vLLM's engine is ready before its HTTP server binds: a bind failure after it is a crash.
TEST(SessionWording, APortInUseAfterTheEngineIsReadyIsACrash) {
  std::string log =
      std::string(kVllmUpToLoad) +
      "INFO 08-20 10:01:00 [core.py:210] init engine (profile, create kv cache, warmup model) took "
      "44.51 seconds\n"
      "INFO 08-20 10:01:01 [api_server.py:1] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
      "ERROR 08-20 10:01:01 [api_server.py:1] [Errno 98] error while attempting to bind on "
      "address ('0.0.0.0', 8000): address already in use\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(FirstCause(v), "port_in_use");
}

// The free-memory check runs as the worker starts, before distributed init or loading.
TEST(SessionWording, VllmFreeMemoryCheckIsAtLaunch) {
  Verdict v = Explain(
      "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
      "Traceback (most recent call last):\n"
      "  File \"/x/vllm/v1/worker/gpu_worker.py\", line 100, in init_device\n"
      "    raise ValueError(\n"
      "ValueError: Free memory on device cuda:0 (0.41/79.18 GiB) on startup is less than desired "
      "GPU memory utilization (0.9, 71.26 GiB).\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kLaunch) << v.headline;
}

// trtllm-serve (PyTorch backend): its Python logger prefix, and its phases in its own order.
TEST(SessionWording, TrtllmPytorchBackendPhases) {
  const std::string head =
      "[12/20/2025-04:20:01] [TRT-LLM] [I] ATTENTION RUNTIME FEATURES:  "
      "AttentionRuntimeFeatures()\n"
      "[12/20/2025-04:20:02] [TRT-LLM] [I] Prefetching 15.26GB checkpoint files.\n";
  Verdict load = Explain(head);
  EXPECT_EQ(load.engine, "trtllm");
  EXPECT_EQ(load.phase, Phase::kWeightLoad) << load.headline;

  Verdict graphs =
      Explain(head +
              "[12/20/2025-04:21:00] [TRT-LLM] [I] [Autotuner] Autotuning process "
              "starts ...\n"
              "[12/20/2025-04:21:37] [TRT-LLM] [I] [Autotuner] Autotuning process ends\n"
              "[12/20/2025-04:21:37] [TRT-LLM] [RANK 0] [I] Creating CUDA graph "
              "instances for 11 batch sizes.\n");
  EXPECT_EQ(graphs.phase, Phase::kCudaGraph) << graphs.headline;

  Verdict oom = Explain(head +
                        "[12/20/2025-04:20:30] [TRT-LLM] [E] Executor creation failed due to "
                        "insufficient GPU memory.\n");
  EXPECT_EQ(oom.state, State::kCrashed);
  EXPECT_EQ(FirstCause(oom), "gpu_oom");
}

// TGI: the router starts before it warms the shards up, and its own targets are prefixes too. The
// warm-up is the profiling prefill that sizes the KV cache, so it is kv_cache, as in vLLM.
TEST(SessionWording, TgiWarmupFailureIsInKvCache) {
  Verdict v = Explain(
      "2024-05-01T01:00:00.1Z  INFO text_generation_launcher: Args { model_id: \"m\" }\n"
      "2024-05-01T01:00:01.1Z  INFO shard-manager: text_generation_launcher: Starting shard "
      "rank=0\n"
      "2024-05-01T01:00:20.1Z  INFO shard-manager: text_generation_launcher: Shard ready in 19.1s "
      "rank=0\n"
      "2024-05-01T01:00:21.1Z  INFO text_generation_launcher: Starting Webserver\n"
      "2024-05-01T01:00:22.1Z  INFO text_generation_router::server: router/src/server.rs:1597: "
      "Warming up model\n"
      "2024-05-01T01:00:25.1Z ERROR warmup{max_input_length=4095}:warmup: text_generation_client: "
      "router/client/src/lib.rs:33: Server error: Not enough memory to handle 4096 prefill "
      "tokens. You need to decrease `--max-batch-prefill-tokens`\n"
      "2024-05-01T01:00:25.2Z ERROR text_generation_launcher: Webserver Crashed\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kKvCache) << v.headline;
  // Since v1.0 the warm-up's prefill runs before the KV cache is sized from what is left, so its
  // "Not enough memory to handle N prefill tokens" is the weights plus activations not fitting
  // (v0.9's "N total tokens with M prefill tokens" named the KV budget: kv_memory).
  EXPECT_EQ(FirstCause(v), "gpu_oom");
}

// Supervisors say "restarted" in their own words; each makes a crash a crash loop.
TEST(SessionRestarts, EverySupervisorsRestartWordingMakesACrashLoop) {
  const std::string crash =
      "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
      "Traceback (most recent call last):\n"
      "ValueError: bad config\n";
  for (const char* supervisor : {
           "    Restart Count:  5\n",
           "vllm-abc-1    0/1     CrashLoopBackOff   4 (30s ago)   2m49s\n",
           "vllm-abc-1    0/1     Error   3 (40s ago)   2m49s\n",
           "  Warning  BackOff  3m (x12 over 6m)  kubelet  Back-off restarting failed container "
           "vllm in pod vllm-0\n",
           "1a2b3c4d5e6f   vllm/vllm-openai  \"vllm serve m\"  3 minutes ago   Restarting (1) 8 "
           "seconds ago   vllm\n",
       }) {
    Verdict v = Explain(crash + supervisor);
    EXPECT_EQ(v.state, State::kCrashLoop) << supervisor << v.headline;
  }
  // A pod that is running with no restarts is no loop.
  Verdict calm = Explain(crash + "vllm-abc-1    1/1     Running   0   2m49s\n");
  EXPECT_EQ(calm.state, State::kCrashed) << calm.headline;
}

// A rank that ends its load late, after a faster peer died further on, ends it once: no new start.
// The same rank ending its load again a minute after the death is the next turn of a loop.
TEST(SessionWording, ALateRanksLoadEndIsNoRestart) {
  const std::string start =
      "[2025-09-18 11:02:30 TP0] Load weight begin. avail mem=44.28 GB\n"
      "[2025-09-18 11:02:30 TP1] Load weight begin. avail mem=44.28 GB\n"
      "[2025-09-18 11:02:41 TP0] Load weight end. type=Qwen3ForCausalLM, avail mem=14.28 GB\n"
      "[2025-09-18 11:02:42 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
      "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n"
      "[2025-09-18 11:02:42] Received sigquit from a child process. It usually means the child "
      "failed.\n";
  const Verdict late = Explain(
      start +
      "[2025-09-18 11:02:58 TP1] Load weight end. type=Qwen3ForCausalLM, avail mem=14.28 GB\n");
  EXPECT_EQ(late.attempts, 1) << late.headline;
  const Verdict again = Explain(
      start +
      "[2025-09-18 11:04:12 TP0] Load weight end. type=Qwen3ForCausalLM, avail mem=14.28 GB\n"
      "[2025-09-18 11:04:12 TP0] Scheduler hit an exception: Traceback (most recent call "
      "last):\n"
      "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n");
  EXPECT_EQ(again.attempts, 2) << again.headline;
}

// The log of a pod in back-off is its latest run's: RESTARTS 4 and that run make five attempts,
// not a sixth run that failed unseen.
TEST(SessionWording, TheLogOfAPodInBackOffIsItsLatestRun) {
  const Verdict v = Explain(
      "$ kubectl get pods\n"
      "NAME          READY   STATUS             RESTARTS      AGE\n"
      "mixtral-4lq2z 0/1     CrashLoopBackOff   4 (38s ago)   21m\n"
      "  Warning  BackOff    38s (x9 over 6m)     kubelet  Back-off restarting failed container "
      "vllm in pod mixtral-4lq2z\n"
      "$ kubectl logs mixtral-4lq2z --previous\n"
      "INFO 08-05 14:31:05 [api_server.py:1755] vLLM API server version 0.10.0\n"
      "(VllmWorker rank=0 pid=246) INFO 08-05 14:31:25 [gpu_model_runner.py:1843] Starting to "
      "load model m...\n");
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_NE(v.headline.find("5 attempts, 5 crashed"), std::string::npos) << v.headline;
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A warning elsewhere in the log that happens to match a cause's pattern does not outrank the
// cause of the line the crash is quoted by.
TEST(SessionCauses, TheQuotedErrorOutranksAPatternInAWarning) {
  Verdict v = Explain(
      "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
      "WARNING 08-20 10:00:01 [config.py:1] Sliding window attention is not supported for this "
      "backend; disabling it.\n"
      "INFO 08-20 10:00:02 [gpu_model_runner.py:1953] Starting to load model m...\n"
      "Traceback (most recent call last):\n"
      "  File \"/x/vllm/v1/worker/gpu_model_runner.py\", line 1, in load_model\n"
      "    x = y()\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.16 GiB.\n");
  ASSERT_FALSE(v.findings.empty()) << v.headline;
  EXPECT_EQ(v.findings[0].id, "gpu_oom");
}

// Hub access, offline mode and a stalled download are one cause; driver/kernel builds another.
TEST(SessionCauses, HubAndBuildMismatchCauses) {
  const std::string head =
      "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n";
  for (const char* err : {
           "huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo for "
           "url https://huggingface.co/m/resolve/main/config.json.\n",
           "OSError: We couldn't connect to 'https://huggingface.co' to load this file.\n",
       }) {
    Verdict v = Explain(head + "Traceback (most recent call last):\n" + err);
    EXPECT_EQ(FirstCause(v), "hf_download") << err;
  }
  for (const char* err : {
           "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
           "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n",
           "ImportError: /x/flash_attn_2_cuda.so: undefined symbol: "
           "cudaGetDriverEntryPointByVersion\n",
       }) {
    Verdict v = Explain(head + "Traceback (most recent call last):\n" + err);
    EXPECT_EQ(FirstCause(v), "cuda_build_mismatch") << err;
  }
  // A torch C++ symbol missing from an extension: it was built against another torch.
  Verdict v = Explain(head + "Traceback (most recent call last):\n" +
                      "ImportError: /x/vllm/_C.abi3.so: undefined symbol: "
                      "_ZN3c1017RegisterOperatorsD1Ev\n");
  EXPECT_EQ(FirstCause(v), "package_mismatch");
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// With tensor parallelism a worker that fails while loading crashed in weight_load, even when a
// healthier worker has already moved on and the engine core only relays "failed to start".
TEST(SessionRanks, ACrashIsWhereTheFailingWorkerWas) {
  const std::string log =
      "(VllmWorker rank=0 pid=30) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting to load "
      "model m...\n"
      "(VllmWorker rank=1 pid=31) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting to load "
      "model m...\n"
      "(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:05 [multiproc_executor.py:1] WorkerProc "
      "failed to start.\n"
      "(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:05 [multiproc_executor.py:1] "
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n"
      "(VllmWorker rank=0 pid=30) INFO 08-20 10:00:09 [gpu_model_runner.py:1] Model loading took "
      "15.27 GiB and 8.02 seconds\n"
      "(EngineCore_0 pid=20) ERROR 08-20 10:00:10 [core.py:700] EngineCore failed to start.\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWeightLoad) << v.headline;
  EXPECT_NE(v.headline.find("Worker_rank1"), std::string::npos) << v.headline;
}

// A rank whose later phase only rank 0's progress bar shows is not "behind".
TEST(SessionRanks, ARankThatEndedItsPhaseIsNotHeldBack) {
  const std::string log =
      "(VllmWorker rank=0 pid=30) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting to load "
      "model m...\n"
      "(VllmWorker rank=1 pid=31) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting to load "
      "model m...\n"
      "(VllmWorker rank=0 pid=30) INFO 08-20 10:00:09 [gpu_model_runner.py:1] Model loading took "
      "15.27 GiB and 8.02 seconds\n"
      "(VllmWorker rank=1 pid=31) INFO 08-20 10:00:09 [gpu_model_runner.py:1] Model loading took "
      "15.27 GiB and 8.02 seconds\n"
      "(VllmWorker rank=0 pid=30) Capturing CUDA graphs:  20%|##  | 13/67 [00:03<00:12]\n"
      "(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:20 [multiproc_executor.py:1] WorkerProc hit "
      "an exception.\n"
      "(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:20 [multiproc_executor.py:1] RuntimeError: "
      "NCCL error: unhandled cuda error\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kCudaGraph) << v.headline;
}

// The headline quotes the error itself, not the lines that announce it ("EngineCore failed to
// start.", a traceback's header, "See root cause above", a launcher's summary).
TEST(SessionHeadline, QuotesTheErrorNotItsAnnouncements) {
  std::string log = std::string(kVllmUpToLoad) +
                    "ERROR 08-20 10:00:31 [core.py:700] EngineCore failed to start.\n"
                    "ERROR 08-20 10:00:31 [core.py:700] Traceback (most recent call last):\n"
                    "ERROR 08-20 10:00:31 [core.py:700] ValueError: No available memory for the "
                    "cache blocks.\n"
                    "RuntimeError: Engine core initialization failed. See root cause above. "
                    "Failed core proc(s): {}\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_NE(v.headline.find("ValueError: No available memory"), std::string::npos) << v.headline;
  // Only the pointer is there: it is quoted rather than nothing.
  Verdict p = Explain(std::string(kVllmUpToLoad) +
                      "RuntimeError: Engine process failed to start. See stack trace for the root "
                      "cause.\n");
  EXPECT_NE(p.headline.find("Engine process failed to start"), std::string::npos) << p.headline;
}

// The kubelet's eviction is its own kill, not a person's stop: the start crashed, and the resource
// the node ran short of names the cause.
TEST(SessionKubelet, AnEvictionIsACrashNamedByTheResource) {
  for (const auto& [resource, cause] :
       {std::pair{"memory", "host_oom"}, std::pair{"ephemeral-storage", "disk_full"}}) {
    const std::string log =
        std::string("Status:  Failed\nReason:  Evicted\n") +
        "  Warning  Evicted  3m  kubelet  The node was low on resource: " + resource + ".\n" +
        "  Normal   Killing  3m  kubelet  Stopping container vllm\n" + kVllmUpToLoad +
        "Loading safetensors checkpoint shards:  16% Completed | 9/55 [04:40<36:18, 47.36s/it]\n"
        "KeyboardInterrupt: terminated\n";
    Verdict v = Explain(log);
    EXPECT_EQ(v.state, State::kCrashed) << resource << ": " << v.headline;
    EXPECT_EQ(FirstCause(v), cause) << resource << ": " << v.headline;
    EXPECT_NE(v.headline.find("low on resource"), std::string::npos) << v.headline;
  }
}

// Exit code 137 beside the kubelet's liveness kill, above a log that comes up: the probe killed the
// earlier container, no host OOM did.
TEST(SessionKubelet, AProbeKillsExitCodeAboveAReadyLogIsNoHostOom) {
  const std::string log =
      std::string("    Last State:     Terminated\n      Reason:       Error\n") +
      "      Exit Code:    137\n    Restart Count:  1\n" +
      "5m  Normal  Killing  pod/x  Container vllm failed liveness probe, will be restarted\n" +
      kVllmUpToLoad +
      "INFO 08-20 10:01:00 [api_server.py:1880] Starting vLLM API server on "
      "http://0.0.0.0:8000\nINFO:     Application startup complete.\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  for (const auto& f : v.findings) EXPECT_NE(f.id, "host_oom") << v.headline;
}

// A capture that compiles lazily (SGLang's DeepGEMM JIT, "typically 10-20 mins" cold) may take
// what compiling takes: twelve minutes reported there is no stall yet; without the JIT it is.
TEST(SessionBudgets, AJitInsideTheCaptureGivesItCompilesStallTime) {
  const std::string head =
      "it has been sitting on this for ~12 minutes now, is it hung?\n"
      "[2025-07-21 03:39:00 TP0] Load weight begin. avail mem=78.00 GB\n"
      "[2025-07-21 03:40:00 TP0] Load weight end. type=DeepseekV3ForCausalLM, avail mem=20.90 GB\n"
      "[2025-07-21 03:40:06 TP0] Capture cuda graph begin. This can take up to several minutes.\n";
  const std::string jit =
      "[2025-07-21 03:40:09 TP0] Entering DeepGEMM JIT Pre-Compile session. It may takes a long "
      "time (typically 10-20 mins)\n";
  EXPECT_EQ(Explain(head + jit).state, State::kInProgress) << Explain(head + jit).headline;
  EXPECT_EQ(Explain(head).state, State::kStalled) << Explain(head).headline;
}

// /dev/shm too small is why NCCL's setup failed: the NCCL error is its consequence, no PCIe P2P
// guess beside it (dev_shm "explains" nccl_p2p). Without the shm line the guess is made.
TEST(SessionCauses, ACauseThatExplainsTheFailureLeavesNoGuessBesideIt) {
  const std::string head =
      "[2025-01-27 21:04:06 TP0] Init torch distributed begin.\n"
      "[2025-01-27 21:04:06 TP1] Init torch distributed begin.\n";
  const std::string shm =
      "h:312:312 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
      "/dev/shm/nccl-Zb1kQe (size 9637888)\n";
  const std::string error =
      "[2025-01-27 21:04:09 TP0] Scheduler hit an exception: RuntimeError: NCCL error: unhandled "
      "system error (run with NCCL_DEBUG=INFO for details)\n";
  const Verdict v = Explain(head + shm + error);
  EXPECT_EQ(FirstCause(v), "dev_shm") << v.headline;
  for (const auto& f : v.findings) EXPECT_NE(f.id, "nccl_p2p") << v.headline;
  const Verdict guess = Explain(head + error);
  EXPECT_EQ(FirstCause(guess), "nccl_p2p") << guess.headline;
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A container that ended with no line of its own says why only in the pod's record beside the log:
// where the kubelet's events say it failed its probe, the headline says so; without them, only
// that it ended.
TEST(SessionWording, AProbeKillInThePodsEventsIsTheHeadlinesReason) {
  const std::string record =
      "$ kubectl get pods\n"
      "NAME        READY   STATUS    RESTARTS      AGE\n"
      "vllm-0      0/1     Running   3 (20s ago)   14m\n"
      "$ kubectl logs vllm-0 --previous\n";
  const std::string events =
      "Events:\n"
      "  Normal   Killing    20s (x3 over 12m)  kubelet  Container vllm failed liveness probe, "
      "will be restarted\n";
  const std::string log = std::string(kVllmUpToLoad).substr(0, 230);  // ends inside the load
  const Verdict killed = testing::ExplainLog(events + record + log);
  EXPECT_NE(killed.headline.find("failing its health probe"), std::string::npos) << killed.headline;
  const Verdict ended = testing::ExplainLog(record + log);
  EXPECT_EQ(ended.headline.find("failing its health probe"), std::string::npos) << ended.headline;
}

}  // namespace
}  // namespace spinup
