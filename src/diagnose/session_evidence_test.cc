// What a log's own evidence says beyond its phase lines: which rank a collective timeout waited
// for, a person's stated wait, a TGI shard failing in its process group, a stop after a loop
// (issue 10, red-team round twenty-six), written from the engines' sources.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::string FirstCause(const Verdict& v) {
  return v.findings.empty() ? std::string("-") : v.findings.front().id;
}

std::string Watchdog(int rank) {
  return "[rank" + std::to_string(rank) +
         "]:[E912 10:13:45.551223017 ProcessGroupNCCL.cpp:607] "
         "[Rank " +
         std::to_string(rank) +
         "] Watchdog caught collective operation timeout: "
         "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
         "600041 milliseconds before timing out.\n";
}

const std::string kLoaded =
    "INFO 09-12 10:00:00 api_server.py:528] vLLM API server version 0.6.1.post2\n"
    "INFO 09-12 10:00:10 model_runner.py:1008] Starting to load model m...\n"
    "INFO 09-12 10:03:44 model_runner.py:1078] Loading model weights took 32.8813 GB\n"
    "(VllmWorkerProcess pid=7101) INFO 09-12 10:03:45 model_runner.py:1078] Loading model "
    "weights took 32.8813 GB\n";

// Ranks 0, 2 and 3 time out in a collective after the load; rank 1 never does: it is the one
// they waited for.
TEST(SessionEvidence, TheRankMissingFromACollectiveTimeoutFellBehind) {
  const Verdict v = Explain(kLoaded + Watchdog(0) + Watchdog(2) + Watchdog(3));
  EXPECT_EQ(FirstCause(v), "rank_load_skew") << v.headline;
  // Every rank that timed out: no rank is singled out.
  EXPECT_NE(FirstCause(Explain(kLoaded + Watchdog(0) + Watchdog(1) + Watchdog(2))),
            "rank_load_skew");
}

// Before the load the first all-reduce hangs on the transport, whichever ranks the excerpt shows.
TEST(SessionEvidence, AMissingRankBeforeTheLoadIsNoSkew) {
  const std::string init =
      "[2025-04-02 09:00:11 TP0] Init torch distributed begin.\n"
      "[2025-04-02 09:00:11 TP1] Init torch distributed begin.\n";
  EXPECT_NE(FirstCause(Explain(init + Watchdog(0) + Watchdog(2))), "rank_load_skew");
}

// "Stuck on this line for 12 min" in torch.compile, with no clock of the log's own to say so: the
// compile ran that long at least, which is a cold compile.
TEST(SessionEvidence, AStatedWaitMakesTheOpenPhaseSlow) {
  const std::string log =
      "INFO 04-17 20:11:06 [gpu_model_runner.py:1347] Model loading took 33.1 GiB and 43.5 "
      "seconds\n"
      "INFO 04-17 20:11:19 [backends.py:430] Dynamo bytecode transform time: 12.88 s\n"
      "INFO 04-17 20:11:25 [backends.py:136] Cache the graph of shape None for later use\n"
      "\n";
  const Verdict quiet = Explain(log);
  EXPECT_NE(FirstCause(quiet), "cold_jit") << quiet.headline;
  const Verdict v = Explain(log + "been stuck on this line for 12 min now, cache dir is empty\n");
  EXPECT_EQ(v.phase, Phase::kCompile) << v.headline;
  EXPECT_EQ(FirstCause(v), "cold_jit");
}

// "Left it overnight, still there in the morning": a wait the writer states without a number.
TEST(SessionEvidence, StillThereOvernightIsAStall) {
  const std::string log =
      "INFO 07-29 21:13:40 pynccl.py:63] vLLM is using nccl==2.20.5\n"
      "INFO 07-29 21:13:41 custom_all_reduce_utils.py:202] generating GPU P2P access cache in "
      "/root/.cache/vllm/gpu_p2p_access_cache_for_0,1.json\n"
      "\n";
  EXPECT_NE(Explain(log).state, State::kStalled);
  const Verdict v = Explain(log +
                            "that's the last line. left it overnight, still there in the "
                            "morning, 2 procs at 100%\n");
  EXPECT_EQ(v.state, State::kStalled) << v.headline;
}

// TGI's shard builds its NCCL process group in initialize_torch_distributed: a failure there is
// in distributed_init, though the launcher's "Starting shard" began the load.
TEST(SessionEvidence, ATgiShardFailingInItsProcessGroupFailedInDistributedInit) {
  const std::string log =
      "2025-02-11T14:00:07.555020Z  INFO shard-manager: text_generation_launcher: Starting shard "
      "rank=0\n"
      "2025-02-11T14:00:12.166435Z ERROR text_generation_launcher: Error when initializing model\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/text_generation_server/utils/dist.py\", "
      "line 70, in initialize_torch_distributed\n"
      "    torch.distributed.all_reduce(torch.zeros(1, device=device), group=process_group)\n"
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
      "NCCLUtils.hpp:275, unhandled system error\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kDistributedInit);
}

// Two starts died on the port; the third got into its load and was stopped by the operator: the
// loop was over, so this is a stop, not the loop's crash.
TEST(SessionEvidence, AStopPastWhereTheLoopCrashedIsAStop) {
  auto attempt = [](int pid, const std::string& time, const std::string& line) {
    return "Jul 07 " + time + " h vllm[" + std::to_string(pid) + "]: " + line + "\n";
  };
  std::string log;
  for (int i = 0; i < 2; ++i) {
    const std::string minute = i == 0 ? "13:10" : "13:11";
    log += "Jul 07 " + minute + ":00 h systemd[1]: Started vLLM.\n";
    log += attempt(7000 + i, minute + ":01",
                   "INFO 07-07 " + minute + ":01 api_server.py:712] vLLM API server version 0.9.2");
    log += attempt(7000 + i, minute + ":05", "OSError: [Errno 98] Address already in use");
    log += "Jul 07 " + minute +
           ":06 h systemd[1]: vllm.service: Main process exited, "
           "code=exited, status=1/FAILURE\n";
    log += "Jul 07 " + minute +
           ":11 h systemd[1]: vllm.service: Scheduled restart job, restart "
           "counter is at " +
           std::to_string(i + 1) + ".\n";
  }
  log += "Jul 07 13:12:00 h systemd[1]: Started vLLM.\n";
  log += attempt(7100, "13:12:01",
                 "INFO 07-07 13:12:01 api_server.py:712] vLLM API server "
                 "version 0.9.2");
  log += attempt(7100, "13:12:20",
                 "INFO 07-07 13:12:20 model_runner.py:1008] Starting to load "
                 "model m...");
  log +=
      "Jul 07 13:12:54 h systemd[1]: Stopping vLLM...\n"
      "Jul 07 13:12:57 h systemd[1]: Stopped vLLM.\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kStopped) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
}

// A start that came up and then died, or was stopped: still a ready start, and the verdict says
// what the server did next (red-team round twenty-nine).
TEST(SessionEvidence, WhatAReadyServerDidNext) {
  const std::string up =
      "INFO 09-12 10:00:00 api_server.py:528] vLLM API server version 0.6.1.post2\n"
      "INFO 09-12 10:00:10 model_runner.py:1008] Starting to load model m...\n"
      "INFO 09-12 10:01:44 model_runner.py:1078] Loading model weights took 14.9 GB\n"
      "INFO:     Application startup complete.\n"
      "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"
      "INFO 09-12 10:02:00 metrics.py:351] Avg prompt throughput: 10.2 tokens/s\n";
  Verdict v = Explain(up);
  EXPECT_EQ(v.state, State::kReady);
  EXPECT_EQ(v.after_ready, "");
  // A sticky CUDA error poisons the process: it died while serving.
  v = Explain(up +
              "ERROR 09-12 10:05:00 engine.py:1] RuntimeError: CUDA error: an illegal memory "
              "access was encountered\n");
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(v.after_ready, "died") << v.headline;
  EXPECT_EQ(FirstCause(v), "illegal_memory_access");
  // A request's own error is the request's.
  v = Explain(up + "ERROR 09-12 10:05:00 serving.py:1] ValueError: prompt is too long\n");
  EXPECT_EQ(v.after_ready, "");
  v = Explain(up + "^C\nINFO:     Shutting down\n");
  EXPECT_EQ(v.state, State::kReady);
  EXPECT_EQ(v.after_ready, "stopped") << v.headline;
}

// A collective that timed out after forty completed ones: the transport carried them, so the
// hang is not PCIe peer-to-peer.
TEST(SessionEvidence, AWatchdogAfterCompletedWorkIsNotP2p) {
  const std::string capture =
      kLoaded +
      "INFO 09-12 10:03:50 model_runner.py:1400] Capturing cudagraphs for decoding. This may "
      "lead to unexpected consequences if the model is not static.\n";
  auto watchdog = [](int seq) {
    return "[rank1]:[E912 10:13:51.3 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught "
           "collective operation timeout: WorkNCCL(SeqNum=" +
           std::to_string(seq) +
           ", OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600048 "
           "milliseconds before timing out.\n";
  };
  EXPECT_EQ(FirstCause(Explain(capture + watchdog(41))), "cuda_graph_hang");
  EXPECT_EQ(FirstCause(Explain(capture + watchdog(2))), "nccl_p2p");
}

// nvidia-smi's own failure pasted above the server's: the server's quoted "Failed to infer device
// type" only says that no device was found, the unquoted NVML line says why; without that line
// the consequence is still named.
TEST(SessionEvidence, WhatFailedComesBeforeTheQuotedConsequence) {
  const std::string server =
      "INFO 01-15 10:02:13 [api_server.py:1034] vLLM API server version 0.8.4\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py\", line 1121, "
      "in create_engine_config\n"
      "    device_config = self.create_device_config()\n"
      "RuntimeError: Failed to infer device type\n";
  const std::string smi =
      "$ nvidia-smi\n"
      "Failed to initialize NVML: Driver/library version mismatch\n";
  EXPECT_EQ(FirstCause(Explain(smi + server)), "cuda_build_mismatch");
  EXPECT_EQ(FirstCause(Explain(server)), "no_gpu_visible");
}

// systemd's SIGKILL of a run whose stop timed out is its own kill, no unexplained one: no
// host-RAM OOM is named for it; the same SIGKILL with no stop job before it still names one.
TEST(SessionEvidence, SystemdsKillOfAStopThatTimedOutIsNoOom) {
  auto unit = [](const std::string& t, const std::string& msg) {
    return "Mar 03 " + t + " gpu07 systemd[1]: " + msg + "\n";
  };
  const std::string start =
      unit("09:00:12", "Started vllm.service - vLLM server.") +
      "Mar 03 09:00:15 gpu07 vllm[2987]: INFO 03-03 09:00:15 [api_server.py:1805] vLLM API "
      "server version 0.10.1\n";
  const std::string kill =
      unit("09:16:25", "vllm.service: Killing process 2987 (vllm) with signal SIGKILL.") +
      unit("09:16:25", "vllm.service: Main process exited, code=killed, status=9/KILL");
  auto names_host_oom = [](const Verdict& v) {
    for (const auto& f : v.findings) {
      if (f.id == "host_oom") return true;
    }
    return false;
  };
  const Verdict stopped =
      Explain(start + unit("09:14:55", "Stopping vllm.service - vLLM server...") +
              unit("09:16:25", "vllm.service: State 'stop-sigterm' timed out. Killing.") + kill);
  EXPECT_FALSE(names_host_oom(stopped)) << stopped.headline;
  EXPECT_TRUE(names_host_oom(Explain(start + kill)));
}

}  // namespace
}  // namespace spinup
