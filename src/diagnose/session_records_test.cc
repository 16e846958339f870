// Records pasted beside a log (a pod's row and age, a supervisor's back-off, systemd's start
// timeout), pipeline stages that hold each other, and a shell's trace of its own commands (issue
// 10, red-team rounds ninety-five to ninety-seven).
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::string FirstCause(const Verdict& v) {
  return v.findings.empty() ? std::string() : v.findings.front().id;
}

// TGI downloading its first file, then nothing more.
const std::string kTgiDownload =
    "2024-07-19T08:02:11.402991Z  INFO text_generation_launcher: Args { model_id: "
    "\"meta-llama/Meta-Llama-3-70B-Instruct\", num_shard: Some(4) }\n"
    "2024-07-19T08:02:11.403377Z  INFO download: text_generation_launcher: Starting download "
    "process.\n"
    "2024-07-19T08:02:16.991843Z  INFO text_generation_launcher: Download file: "
    "model-00001-of-00030.safetensors\n";

TEST(SessionRecords, APodsAgeAboveTheLogCountsFromItsFirstLine) {
  const std::string row =
      "$ kubectl -n llm get pods\n"
      "NAME                             READY   STATUS    RESTARTS   AGE\n"
      "tgi-llama3-70b-6f9d8c7b5-xk2pl   0/1     Running   0          81m\n";
  const Verdict above = Explain(row + kTgiDownload);
  EXPECT_EQ(above.state, State::kStalled) << above.headline;
  // Without the row the log alone shows a download of five seconds: in progress.
  const Verdict alone = Explain(kTgiDownload);
  EXPECT_EQ(alone.state, State::kInProgress) << alone.headline;
}

// vLLM loading, cut off: a container's log with no word of how it ended.
const std::string kVllmLoading =
    "INFO 06-12 10:47:23 [api_server.py:1287] vLLM API server version 0.9.1\n"
    "INFO 06-12 10:47:37 [core.py:70] Initializing a V1 LLM engine (v0.9.1) with config: "
    "model='Qwen/Qwen2.5-32B-Instruct'\n"
    "(VllmWorker rank=0 pid=211) INFO 06-12 10:47:44 [gpu_model_runner.py:1595] Starting to load "
    "model Qwen/Qwen2.5-32B-Instruct...\n"
    "Loading safetensors checkpoint shards:  18% Completed | 3/17 [00:07<00:36,  2.60s/it]\n";

TEST(SessionRecords, ABackOffBelowTheLogEndsItsRun) {
  const Verdict v = Explain(kVllmLoading +
                            "$ kubectl get events | tail -1\n"
                            "38s   Warning   BackOff    pod/vllm-qwen-7d9f8b5c6-tm4zr   Back-off "
                            "restarting failed container vllm in pod vllm-qwen-7d9f8b5c6-tm4zr\n");
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad) << v.headline;
  EXPECT_EQ(v.headline.find("is starting"), std::string::npos) << v.headline;
  // Without it the log just ends while loading.
  EXPECT_EQ(Explain(kVllmLoading).state, State::kInProgress);
}

// SGLang with two pipeline stages: PP0 finished its capture, PP1's has not moved.
TEST(SessionRecords, APipelineStageBehindHoldsTheStart) {
  const Verdict v = Explain(
      "[2025-07-19 21:04:41] server_args=ServerArgs(model_path='m', tp_size=2, pp_size=2)\n"
      "[2025-07-19 21:05:45 PP0 TP0] Memory pool end. avail mem=7.61 GB\n"
      "[2025-07-19 21:05:45 PP1 TP0] Memory pool end. avail mem=7.34 GB\n"
      "[2025-07-19 21:05:46 PP0 TP0] Capture cuda graph begin. This can take up to several "
      "minutes. avail mem=7.55 GB\n"
      "[2025-07-19 21:05:46 PP1 TP0] Capture cuda graph begin. This can take up to several "
      "minutes. avail mem=7.28 GB\n"
      "[2025-07-19 21:05:57 PP0 TP0] Capture cuda graph end. Time elapsed: 11.02 s. mem "
      "usage=0.65 GB. avail mem=6.90 GB.\n"
      "[2025-07-19 21:05:57 PP0 TP1] Capture cuda graph end. Time elapsed: 11.08 s. mem "
      "usage=0.65 GB. avail mem=6.90 GB.\n"
      "Stuck like this for 35 minutes.\n");
  EXPECT_EQ(v.state, State::kStalled) << v.headline;
  EXPECT_EQ(v.phase, Phase::kCudaGraph) << v.headline;
}

// A unit that waits for READY=1: each start comes up, and systemd times it out all the same.
TEST(SessionRecords, SystemdTimingOutAStartThatWasUpIsTypeNotify) {
  std::string log;
  for (int i = 0; i < 2; ++i) {
    const std::string pid = std::to_string(771200 + i);
    const std::string m = std::to_string(i * 5);
    log += "Mar 12 02:0" + m + ":01 gpu-11 systemd[1]: Starting vllm.service - vLLM...\n";
    log += "Mar 12 02:0" + m + ":05 gpu-11 vllm[" + pid + "]: INFO 03-12 02:0" + m +
           ":05 api_server.py:585] vLLM API server version 0.7.3\n";
    log += "Mar 12 02:0" + m + ":30 gpu-11 vllm[" + pid + "]: INFO:     Application startup " +
           "complete.\n";
    log += "Mar 12 02:0" + std::to_string(i * 5 + 4) +
           ":01 gpu-11 systemd[1]: vllm.service: " + "start operation timed out. Terminating.\n";
    log += "Mar 12 02:0" + std::to_string(i * 5 + 4) +
           ":05 gpu-11 systemd[1]: vllm.service: " + "Failed with result 'timeout'.\n";
    log += "Mar 12 02:0" + std::to_string(i * 5 + 4) + ":07 gpu-11 systemd[1]: vllm.service: " +
           "Scheduled restart job, restart counter is at " + std::to_string(i + 1) + ".\n";
  }
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(FirstCause(v), "notify_never_sent") << v.headline;
}

// A retry loop under `set -x`: the trace of each echo is the command, its output the next line.
TEST(SessionRecords, AShellsTraceOfAnEchoIsNoAttempt) {
  std::string log;
  for (int i = 1; i <= 3; ++i) {
    const std::string at = "INFO 12-02 09:0" + std::to_string(i * 2) + ":03 ";
    log += at + "api_server.py:585] vLLM API server version 0.6.4.post1\n";
    log +=
        "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): "
        "address already in use\n";
    if (i < 3) {
      const std::string said =
          "vllm exited with 1, retrying in 10s (attempt " + std::to_string(i + 1) + "/3)";
      log += "+ echo '" + said + "'\n" + said + "\n";
    }
  }
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 3) << v.headline;
}

// A writer's sentence, then compose's log of a container dying at import three times: each
// block ends in compose's exit record, so none is the writer's quote of the error.
TEST(SessionRecords, ComposeExitRecordsMakeEveryBlockARun) {
  std::string block =
      "sglang-1  | Traceback (most recent call last):\n"
      "sglang-1  |   File \"<frozen runpy>\", line 198, in _run_module_as_main\n"
      "sglang-1  |   File \"/usr/local/lib/python3.11/site-packages/sglang/srt/layers/"
      "activation.py\", line 47, in <module>\n"
      "sglang-1  |     from sgl_kernel import gelu_and_mul\n"
      "sglang-1  | ImportError: libnuma.so.1: cannot open shared object file: No such file or "
      "directory\n"
      "sglang-1 exited with code 1\n";
  const Verdict v =
      Explain("Our compose file builds FROM python:3.11-slim and pip installs sglang.\n" + block +
              block + block);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 3) << v.headline;
}

// A command typed again after the first died at import is a run of its own, as is a start after
// a first one that stalled in its download below the writer's opening sentence.
TEST(SessionRecords, ASecondCommandOrPodIsASecondRun) {
  const Verdict typed = Explain(
      "first attempt was in my own venv:\n"
      "(trt) jdoe@node12:~$ trtllm-serve m --tp_size 2\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/jdoe/trt/bin/trtllm-serve\", line 5, in <module>\n"
      "ImportError: bindings.so: undefined symbol: _ZN3c105ErrorC2E\n"
      "root@node12:/app# trtllm-serve m --tp_size 2\n"
      "[TensorRT-LLM] TensorRT-LLM version: 0.20.0\n"
      "[06/10/2025-15:47:14] [TRT-LLM] [I] Using LLM with PyTorch backend\n"
      "[06/10/2025-15:48:47] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: CUDA "
      "out of memory. Tried to allocate 1.25 GiB.\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB.\n");
  EXPECT_EQ(typed.attempts, 2) << typed.headline;
  EXPECT_EQ(FirstCause(typed), "gpu_oom") << typed.headline;
  std::string pods = "k8s pod, first pod pulls from the hub:\n";
  for (const char* at : {"07:41", "09:02"}) {
    pods +=
        std::string("INFO 03-03 ") + at + ":21 api_server.py:912] vLLM API server version 0.7.3\n";
    pods +=
        std::string("INFO 03-03 ") + at + ":36 model_runner.py:1110] Starting to load model m...\n";
    if (std::string_view(at) == "07:41") {
      pods +=
          "model-00001-of-00008.safetensors:  41%|####      | 809M/1.95G [00:31<10:12, 1.87MB/s]\n";
    }
  }
  pods +=
      "ERROR 03-03 09:02:40 engine.py:400] ValueError: Loading m requires you to execute the "
      "configuration file in that repo on your local machine.\n";
  const Verdict v = Explain(pods);
  EXPECT_EQ(v.attempts, 2) << v.headline;
}

}  // namespace
}  // namespace spinup
