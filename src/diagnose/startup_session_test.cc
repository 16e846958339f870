// The failure classes of issue 10, each as a mechanism with synthetic cases: the clock, engine-
// generic fatal errors and traceback frames, never unknown once an engine is known, wrapped
// formats (JSON lines), restarts in pasted journalctl text, ready means ready, causes need
// evidence, and the same verdict live and offline.
#include "diagnose/startup_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "logs/line_parser.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

const RuleSet& Rules() { return testing::BuiltinRules(); }
Verdict Explain(const std::string& log, std::optional<int64_t> now = std::nullopt) {
  return testing::ExplainLog(log, now);
}

bool HasFinding(const Verdict& v, const std::string& id) {
  return std::any_of(v.findings.begin(), v.findings.end(),
                     [&](const Finding& f) { return f.id == id; });
}

// 1. Clock: year-less lines before the first dated one take its year, never the reference year.
TEST(SessionClock, YearlessLinesAreAnchoredToTheNearestDatedLine) {
  Verdict v = Explain(
      // Old SGLang printed its vLLM import's lines, year-less, before its own dated ones.
      "INFO 03-09 12:00:01 __init__.py:190] Automatically detected platform cuda.\n"
      "[2025-03-09 12:00:10 TP0] Load weight begin. avail mem=70 GB\n"
      "[2025-03-09 12:00:20 TP0] Load weight end. type=X, avail mem=30 GB\n");
  ASSERT_TRUE(v.phase_seconds.has_value());
  EXPECT_LT(*v.phase_seconds, 60) << v.headline;  // not 8759 hours
  for (const auto& t : v.timeline) {
    if (t.seconds) {
      EXPECT_LT(*t.seconds, 60) << PhaseName(t.phase);
    }
  }
}

// Around New Year: December's year-less lines before January's dated one are the old year's, and
// so is one December line among January's (processes interleave at midnight). Each phase here
// lasts a minute or so, never a year, and the log ends 70 s after the load began.
TEST(SessionClock, YearlessLinesAroundNewYearTakeTheYearTheyWerePrintedIn) {
  Verdict before = Explain(
      "INFO 12-31 23:59:10 [core.py:70] Initializing a V1 LLM engine (v0.9.0) with config: x\n"
      "INFO 12-31 23:59:20 [gpu_model_runner.py:1] Starting to load model x...\n"
      "[2026-01-01 00:00:30 TP0] Load weight begin. avail mem=78.00 GB\n");
  ASSERT_TRUE(before.phase_seconds.has_value()) << before.headline;
  EXPECT_EQ(*before.phase_seconds, 70) << before.headline;
  Verdict among = Explain(
      "INFO 01-01 00:00:01 [core.py:70] Initializing a V1 LLM engine (v0.9.0) with config: x\n"
      "INFO 12-31 23:59:59 [gpu_model_runner.py:1] Starting to load model x...\n"
      "INFO 01-01 00:01:00 [default_loader.py:1] Loading weights took 60.00 seconds\n"
      "INFO 01-01 00:01:10 [gpu_model_runner.py:1] Model loading took 15.27 GiB and 61.00 "
      "seconds\n");
  for (const auto& t : among.timeline) {
    if (t.seconds) {
      EXPECT_GE(*t.seconds, 0) << PhaseName(t.phase);
      EXPECT_LE(*t.seconds, 120) << PhaseName(t.phase);
    }
  }
  EXPECT_LE(among.stalled_seconds.value_or(0), 120) << among.headline;
}

// A step back gives no negative duration, an impossible year is ignored, and nothing lasts longer
// than the span the log itself covers (here 1 h 10 s).
TEST(SessionClock, AClockThatStepsBackNeverGivesANegativeOrAbsurdDuration) {
  Verdict v = Explain(
      "[2026-03-09 12:00:10 TP0] Load weight begin. avail mem=70 GB\n"
      "[2026-03-09 11:00:00 TP0] Load weight end. type=X, avail mem=30 GB\n"
      "[9999-01-01 00:00:00 TP0] Capture cuda graph begin.\n");
  for (const auto& t : v.timeline) {
    if (t.seconds) {
      EXPECT_GE(*t.seconds, 0);
      EXPECT_LE(*t.seconds, 3610);
    }
  }
  if (v.stalled_seconds) {
    EXPECT_LE(*v.stalled_seconds, 3610);
  }
}

// A line more than 6 hours ahead of the log that follows it is another paste's (collect_env's
// import line in a bug report, stamped months after the log): nothing lasts from its clock.
TEST(SessionClock, AnotherPastesLaterStampGivesNoPhaseItsTime) {
  Verdict v = Explain(
      "INFO 06-12 09:58:01 [__init__.py:244] Automatically detected platform cuda.\n"
      "INFO 01-09 03:40:14 model_runner.py:1094] Starting to load model m...\n"
      "INFO 01-09 03:43:18 model_runner.py:1099] Loading model weights took 56.7101 GB\n"
      "INFO 01-09 03:43:35 model_runner.py:1415] Capturing cudagraphs for decoding.\n"
      "INFO 01-09 03:44:35 model_runner.py:1415] still capturing\n");
  EXPECT_EQ(v.phase, Phase::kCudaGraph) << v.headline;
  ASSERT_TRUE(v.phase_seconds.has_value()) << v.headline;
  EXPECT_LE(*v.phase_seconds, 61) << v.headline;
  for (const auto& t : v.timeline) {
    if (t.seconds) {
      EXPECT_LE(*t.seconds, 300) << PhaseName(t.phase);
    }
  }
}

TEST(SessionClock, TheEnginesOwnElapsedFigureIsPreferred) {
  Verdict v = Explain(
      "[2026-03-09 12:00:10 TP0] Load weight begin. avail mem=70 GB\n"
      "[2026-03-09 12:00:30 TP0] Load weight end. elapsed=4.58 s, type=X, avail mem=30 GB\n");
  bool found = false;
  for (const auto& t : v.timeline) {
    if (t.phase == Phase::kWeightLoad && t.seconds) {
      EXPECT_DOUBLE_EQ(*t.seconds, 4.58);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

// vLLM V1 says how long the capture took on the line that ends it, with no line at its start: the
// capture began that long before, and the KV-cache sizing before it did not take its time.
TEST(SessionClock, ALineThatSaysHowLongItsPhaseRanDatesItsStart) {
  Verdict v = Explain(
      "(EngineCore_DP0 pid=9) INFO 10-01 10:00:11 [gpu_model_runner.py:2602] Starting to load "
      "model m...\n"
      "(EngineCore_DP0 pid=9) INFO 10-01 10:00:31 [gpu_model_runner.py:2653] Model loading took "
      "15.3 GiB and 18.1 seconds\n"
      "(EngineCore_DP0 pid=9) INFO 10-01 10:00:45 [kv_cache_utils.py:1087] GPU KV cache size: "
      "292,000 tokens\n"
      "(EngineCore_DP0 pid=9) INFO 10-01 10:01:05 [gpu_model_runner.py:3480] Graph capturing "
      "finished in 20 secs, took 0.5 GiB\n"
      "(EngineCore_DP0 pid=9) INFO 10-01 10:01:05 [core.py:210] init engine (profile, create kv "
      "cache, warmup model) took 34.0 seconds\n"
      "(APIServer pid=1) INFO:     Application startup complete.\n");
  ASSERT_EQ(v.state, State::kReady) << v.headline;
  std::map<Phase, double> seconds;
  for (const auto& t : v.timeline) seconds[t.phase] += t.seconds.value_or(0);
  EXPECT_NEAR(seconds[Phase::kCudaGraph], 20, 1);
  EXPECT_NEAR(seconds[Phase::kKvCache], 14, 1);
}

// A request served, a health check or the engine's periodic stats say the server was up, not when
// it came up: the wait for a client after the start's last progress is no phase's time.
TEST(SessionClock, TheWaitBeforeTheFirstRequestIsNoPhasesTime) {
  const std::string start =
      "INFO 05-01 10:00:00 api_server.py:712] vLLM API server version 0.6.3\n"
      "INFO 05-01 10:00:10 model_runner.py:1056] Starting to load model m...\n"
      "INFO 05-01 10:00:20 model_runner.py:1067] Loading model weights took 14.9 GiB\n"
      "INFO 05-01 10:00:25 gpu_executor.py:122] # GPU blocks: 2000, # CPU blocks: 512\n";
  for (const std::string served :
       {"INFO 05-01 10:01:40 metrics.py:349] Avg prompt throughput: 0.0 tokens/s, Avg generation "
        "throughput: 0.0 tokens/s, Running: 0 reqs, Pending: 0 reqs\n",
        "INFO:     127.0.0.1:51234 - \"POST /v1/completions HTTP/1.1\" 200 OK\n"
        "INFO 05-01 10:01:40 logger.py:37] Received request cmpl-1: prompt: 'hi', params: x\n",
        "INFO 05-01 10:01:40 metrics.py:1] x\nINFO:     10.0.0.1:1 - \"GET /health HTTP/1.1\" "
        "200\n"}) {
    Verdict v = Explain(start + served);
    EXPECT_EQ(v.state, State::kReady) << served;
    for (const auto& t : v.timeline) {
      EXPECT_FALSE(t.slow) << PhaseName(t.phase) << " " << served;
      if (t.phase == Phase::kKvCache) {
        EXPECT_LT(t.seconds.value_or(0), 1.0) << served;
      }
    }
  }
}

// 2. Fatal errors, engine-generic; the crash's phase from the deepest traceback frame.
TEST(SessionCrash, PhaseFromTheDeepestFrameWhenNoPhaseLinePrecedes) {
  Verdict v = Explain(
      "[2026-03-09 12:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
      "  File \"/x/scheduler.py\", line 1, in run_scheduler_process\n"
      "  File \"/x/tp_worker.py\", line 2, in _init_model_runner\n"
      "  File \"/x/model_runner.py\", line 3, in init_torch_distributed\n"
      "RuntimeError: connect failed\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kDistributedInit);
}

TEST(SessionCrash, EngineErrorLinesEndTheAttempt) {
  // TensorRT-LLM's [ERROR], a TGI shard failure, a C++ abort: each a crash.
  EXPECT_EQ(Explain("[TensorRT-LLM][INFO] Loaded engine size: 12858 MiB\n"
                    "[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine\n")
                .state,
            State::kCrashed);
  Verdict tgi = Explain(
      "2024-05-01T01:17:02.618817Z  INFO text_generation_launcher: Starting shard rank=0\n"
      "2024-05-01T01:17:12.618817Z ERROR text_generation_launcher: Shard 0 failed to start\n");
  EXPECT_EQ(tgi.state, State::kCrashed);
  EXPECT_EQ(tgi.phase, Phase::kWeightLoad);
  EXPECT_EQ(Explain("[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n"
                    "terminate called after throwing an instance of 'c10::Error'\n")
                .state,
            State::kCrashed);
}

// 3. Never unknown once an engine is recognised; heartbeats are evidence of a phase.
TEST(SessionUnknown, AnEngineLineIsNeverUnknown) {
  Verdict v = Explain("INFO 03-09 12:00:01 [api_server.py:1] vLLM API server version 0.9.0\n");
  EXPECT_EQ(v.engine, "vllm");
  EXPECT_NE(v.state, State::kUnknown);
  EXPECT_EQ(Explain("hello\nworld\n").state, State::kUnknown);
  Verdict tgi = Explain(
      "2024-05-01T01:17:02.618817Z  INFO text_generation_launcher: Waiting for shard 0 to be "
      "ready...\n");
  EXPECT_EQ(tgi.phase, Phase::kWeightLoad);
}

// Old SGLang imports vLLM, whose lines (in vLLM's format) come first: SGLang's own lines
// correct the engine. A second source cannot flip it (a journal beside the file).
TEST(SessionUnknown, TheSourceThatNamedTheEngineMayCorrectIt) {
  const std::string old_sglang =
      "INFO 03-06 10:05:08 __init__.py:190] Automatically detected platform cuda.\n"
      "[2025-03-06 10:05:10] server_args=ServerArgs(model_path='m')\n"
      "[2025-03-06 10:05:12 TP0] Init torch distributed begin.\n";
  EXPECT_EQ(Explain(old_sglang).engine, "sglang");
  EXPECT_EQ(Explain("INFO 03-06 10:05:08 __init__.py:190] Automatically detected platform cuda.\n"
                    "usage: launch_server.py [-h] --model-path MODEL_PATH\n"
                    "launch_server.py: error: unrecognized arguments: --enable-reasoning\n")
                .engine,
            "sglang");

  SessionOptions o;
  o.reference_year = 2026;
  StartupSession two(Rules(), o);
  two.OnLogText(0, "INFO 03-09 12:00:01 [api_server.py:1] vLLM API server version 0.9.0\n",
                std::nullopt);
  two.OnLogText(1, "[2026-03-09 12:00:02] server_args=ServerArgs(model_path='m')\n", std::nullopt);
  EXPECT_EQ(two.Evaluate(std::nullopt).engine, "vllm");
}

// A usage error: the headline quotes the error, not the "try '--help'" trailer after it.
TEST(SessionCrash, AUsageErrorIsQuotedBeforeItsHelpTrailer) {
  Verdict v = Explain(
      "error: unexpected argument '--num-shards' found\n\n"
      "Usage: text-generation-launcher --num-shard <NUM_SHARD>\n\n"
      "For more information, try '--help'.\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kLaunch);
  EXPECT_NE(v.headline.find("unexpected argument '--num-shards'"), std::string::npos) << v.headline;
  EXPECT_TRUE(HasFinding(v, "bad_command"));
}

// 4. Wrapped formats: JSON lines are read through their message, level and timestamp.
TEST(SessionWrapped, JsonLinesAreReadThroughTheirFields) {
  Verdict v = Explain(
      "{\"timestamp\":\"2023-06-02T14:12:35.0Z\",\"level\":\"INFO\",\"fields\":{\"message\":"
      "\"Starting shard rank=0\"},\"target\":\"text_generation_launcher\"}\n"
      "{\"timestamp\":\"2023-06-02T14:12:37.2Z\",\"level\":\"ERROR\",\"fields\":{\"message\":"
      "\"Shard 0 failed to start:\\nbad\"},\"target\":\"text_generation_launcher\"}\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
  // Docker's json-file driver wraps the engine's own line.
  Verdict d = Explain(
      "{\"log\":\"[2026-03-09 12:00:00 TP0] Init torch distributed begin.\\n\",\"stream\":"
      "\"stderr\",\"time\":\"2026-03-09T12:00:00.1Z\"}\n");
  EXPECT_EQ(d.engine, "sglang");
  EXPECT_EQ(d.phase, Phase::kDistributedInit);
}

// A paste copied twice (into the comment, or into a thread twice) is one start: its stamped lines
// come again with the same stamps. A restart's are stamped later, also when the log is too short
// to tell the copy by its first line coming back after a while.
TEST(SessionRestarts, APasteCopiedTwiceIsOneStartARestartIsStampedLater) {
  auto run = [](int minute) {
    const std::string t = "[2025-04-21 13:" + std::to_string(10 + minute) + ":45] ";
    return "Traceback (most recent call last):\n"
           "  File \"/sglang/srt/model_executor/model_runner.py\", line 484, in load_model\n"
           "ValueError: TP rank 1 could finish the model loading, but there are other ranks that "
           "didn't finish loading.\n" +
           t + "Received sigquit from a child process. It usually means the child failed.\n";
  };
  Verdict copied = Explain(run(0) + run(0));
  EXPECT_EQ(copied.state, State::kCrashed) << copied.headline;
  EXPECT_EQ(copied.attempts, 1);
  Verdict thrice = Explain(run(0) + run(0) + run(0));
  EXPECT_EQ(thrice.state, State::kCrashed) << thrice.headline;
  Verdict restarted = Explain(run(0) + run(1));
  EXPECT_EQ(restarted.state, State::kCrashLoop) << restarted.headline;
  EXPECT_EQ(restarted.attempts, 2);
  // The same stamped banner, then another error: a start that stamps few lines, run again.
  auto banner_then = [](const std::string& error) {
    return "INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
           "Traceback (most recent call last):\n"
           "  File \"/usr/local/bin/vllm\", line 8, in <module>\n" +
           error + "\n";
  };
  const std::string first = banner_then("ValueError: invalid literal for int(): 'auto'");
  EXPECT_EQ(Explain(first + first).state, State::kCrashed);
  EXPECT_EQ(Explain(first + banner_then("OSError: [Errno 98] Address already in use")).state,
            State::kCrashLoop);
  // Stamped lines first, then a death without times: the stamped opening line again, stamped the
  // same, is the copy's start.
  const std::string stamped_first =
      "[2026-06-15 19:57:33 TP5] Init torch distributed begin.\n"
      "[2026-06-15 19:57:34 TP0] sglang is using nccl==2.28.9\n"
      "Fatal Python error: Segmentation fault\n";
  EXPECT_EQ(Explain(stamped_first + stamped_first).state, State::kCrashed);
  // An opening line without a time: the stamped lines after it, all had, tell the copy.
  const std::string timeless_first =
      "[TensorRT-LLM][INFO] Initializing MPI with thread mode 1\n"
      "I1220 01:42:16.245480 100348 python_be.cc:2199] TRITONBACKEND_ModelInstanceInitialize: "
      "preprocessing_0_0 (CPU device 0)\n"
      "[TensorRT-LLM][INFO] Loaded engine size: 12858 MiB\n"
      "[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine\n";
  EXPECT_EQ(Explain(timeless_first + timeless_first).state, State::kCrashed);
  // Without times the two cannot be told apart: the same lines again are a restart.
  const std::string timeless = run(0).substr(0, run(0).rfind('['));
  EXPECT_EQ(Explain(timeless + timeless).state, State::kCrashLoop);
}

// 5. Restarts in pasted journalctl text: a crash loop with each attempt's error.
// Run `i` of a unit failing on its config, as journalctl prints it: the server's lines, systemd's
// exit and, with `counter`, the restart it schedules.
std::string JournalRun(int i, bool started_line, int counter) {
  const std::string m = std::to_string(10 + i);
  std::string log;
  if (started_line)
    log += "Mar 09 12:" + m + ":00 gpu1 systemd[1]: Started sglang.service - SGLang.\n";
  log += "Mar 09 12:" + m + ":05 gpu1 python[1]: [2026-03-09 12:" + m +
         ":05] server_args=ServerArgs(model_path='m')\n";
  log += "Mar 09 12:" + m + ":09 gpu1 python[1]: ValueError: bad config\n";
  log += "Mar 09 12:" + m +
         ":10 gpu1 systemd[1]: sglang.service: Main process exited, code=exited, "
         "status=1/FAILURE\n";
  if (started_line) {
    log +=
        "Mar 09 12:" + m + ":10 gpu1 systemd[1]: sglang.service: Failed with result 'exit-code'.\n";
  }
  if (counter > 0) {
    log += "Mar 09 12:" + m +
           ":20 gpu1 systemd[1]: sglang.service: Scheduled restart job, restart counter is at " +
           std::to_string(counter) + ".\n";
  }
  return log;
}

TEST(SessionRestarts, PastedJournalctlRestartsAreACrashLoop) {
  std::string log;
  for (int i = 0; i < 3; ++i) log += JournalRun(i, true, i < 2 ? i + 1 : 0);
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 3);
  EXPECT_NE(v.headline.find("ValueError: bad config"), std::string::npos) << v.headline;
}

// systemd's start limit refuses the restart it had just scheduled ("restart counter is at 2", then
// "Start request repeated too quickly"): two starts ran, not three.
TEST(SessionRestarts, TheStartLimitRefusesTheLastScheduledRestart) {
  std::string log = JournalRun(0, false, 1) + JournalRun(1, false, 2);
  log += "Mar 09 12:11:20 gpu1 systemd[1]: sglang.service: Start request repeated too quickly.\n";
  log += "Mar 09 12:11:20 gpu1 systemd[1]: sglang.service: Failed with result 'exit-code'.\n";
  Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 2);
  EXPECT_NE(v.headline.find("ValueError: bad config"), std::string::npos) << v.headline;
}

// kubelet's event "Started container (x5 over 12m)": five starts, whatever the log shows.
TEST(SessionRestarts, KubeletStartCountIsTheAttempts) {
  Verdict v = Explain(
      "[2026-03-09 12:00:05] server_args=ServerArgs(model_path='m')\n"
      "[2026-03-09 12:00:09] ValueError: bad config\n"
      "  Normal   Started    3m (x5 over 12m)     kubelet            Started container sglang\n");
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.restarts, 4);  // four restarts: five starts, one of them in the log
  EXPECT_NE(v.headline.find("5 attempts"), std::string::npos) << v.headline;
}

// A person running the command again at a shell prompt: no supervisor's restart loop is named.
TEST(SessionRestarts, ARunByHandIsNoRestartLoop) {
  auto run = [](const std::string& m) {
    return "[2025-03-10 10:" + m + ":00] server_args=ServerArgs(model_path='m', tp_size=1)\n" +
           "[2025-03-10 10:" + m +
           ":11 TP0] Capture cuda graph begin. This can take up to several minutes. avail "
           "mem=1.10 GB\n" +
           "[2025-03-10 10:" + m +
           ":14 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
           "Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 160 MiB.\n";
  };
  const Verdict by_hand = Explain(
      run("00") + "root@h100:/sgl# python -m sglang.launch_server --model-path m\n" + run("03"));
  EXPECT_EQ(by_hand.attempts, 2);
  EXPECT_FALSE(HasFinding(by_hand, "restart_loop"));
  // The same runs with no prompt between them were restarted by something else: a loop.
  const Verdict looped = Explain(run("00") + run("03"));
  EXPECT_TRUE(HasFinding(looped, "restart_loop"));
}

TEST(SessionRestarts, AStopAskedForIsStoppedWithoutACause) {
  Verdict v = Explain(
      "Mar 09 12:00:00 gpu1 systemd[1]: Started sglang.service - SGLang.\n"
      "Mar 09 12:00:05 gpu1 python[1]: [2026-03-09 12:00:05 TP0] Load weight begin. avail mem=7 "
      "GB\n"
      "Mar 09 12:01:00 gpu1 systemd[1]: Stopping sglang.service - SGLang...\n"
      "Mar 09 12:01:01 gpu1 systemd[1]: sglang.service: Main process exited, code=killed, "
      "status=9/KILL\n");
  EXPECT_EQ(v.state, State::kStopped) << v.headline;
  EXPECT_TRUE(v.findings.empty());
}

// `systemctl restart && journalctl -f`: the stop job's lines (docker stop echoing the container's
// name) belong to the run before, which the journal does not show; the ^C ends the follower.
TEST(SessionRestarts, ARestartThenFollowIsOneStartAndTheCtrlCStopsOnlyTheFollower) {
  const std::string head =
      "[ops@gpu-07 ~]$ sudo systemctl restart tgi && journalctl -u tgi -f\n"
      "Sep 23 16:04:51 gpu-07 systemd[1]: Stopping TGI (docker)...\n"
      "Sep 23 16:04:52 gpu-07 docker[3114]: tgi\n"
      "Sep 23 16:04:52 gpu-07 systemd[1]: Stopped TGI (docker).\n"
      "Sep 23 16:04:52 gpu-07 systemd[1]: Started TGI (docker).\n"
      "Sep 23 16:04:53 gpu-07 docker[3190]: 2024-09-23T16:04:53.402118Z  INFO "
      "text_generation_launcher: Starting shard rank=0\n";
  const std::string ready =
      "Sep 23 16:05:17 gpu-07 docker[3190]: 2024-09-23T16:05:17.891216Z  INFO "
      "text_generation_router::server: router/src/server.rs:1884: Connected\n^C\n";
  Verdict v = Explain(head + ready);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(v.attempts, 1) << v.headline;
  EXPECT_TRUE(v.after_ready.empty()) << v.after_ready;
  // The same ^C under a prompt that runs the server in the foreground stops it.
  const Verdict fg = Explain(
      "$ docker run --gpus all ghcr.io/huggingface/text-generation-inference:2.3 --model-id m\n"
      "2024-09-23T16:04:53.402118Z  INFO text_generation_launcher: Starting shard rank=0\n"
      "2024-09-23T16:05:17.891216Z  INFO text_generation_router::server: "
      "router/src/server.rs:1884: Connected\n^C\n");
  EXPECT_EQ(fg.state, State::kReady) << fg.headline;
  EXPECT_EQ(fg.after_ready, "stopped") << fg.headline;
  // Still hung where the writer gave up following a start that stopped moving.
  const Verdict hung = Explain(head + "^C\n");
  EXPECT_NE(hung.state, State::kStopped) << hung.headline;
}

// The writer's sentence above the paste names an error ("Fails with an NCCL error"); compose's
// own lines, then the server's, follow: one start, not a crash before it.
TEST(SessionRestarts, AWritersRemarkAboveAWrappersLinesIsNoEarlierStart) {
  const Verdict v = Explain(
      "docker compose, 2x A6000. Fails with an NCCL error on startup. Single GPU works.\n\n"
      "$ docker compose up\n[+] Running 1/1\nAttaching to vllm-1\n"
      "vllm-1  | INFO 07-14 09:01:02 [__init__.py:244] Automatically detected platform cuda.\n"
      "vllm-1  | INFO 07-14 09:01:05 [api_server.py:1395] vLLM API server version 0.9.2\n"
      "vllm-1  | (VllmWorker rank=0 pid=211) ERROR 07-14 09:01:20 [multiproc_executor.py:487] "
      "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n");
  EXPECT_EQ(v.attempts, 1) << v.headline;
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
}

// 7. Causes need evidence: no host OOM without an OOM record or a SIGKILL; multi-node starts get
// rendezvous causes, single-node ones P2P.
TEST(SessionCauses, HostOomNeedsAnOomRecord) {
  const std::string start = "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n";
  EXPECT_FALSE(HasFinding(Explain(start + "RuntimeError: process ended\n"), "host_oom"));
  EXPECT_TRUE(HasFinding(Explain(start + "[123.4] Out of memory: Killed process 4242 (python3)\n"),
                         "host_oom"));
}

TEST(SessionCauses, MultiNodeGetsRendezvousSingleNodeGetsP2p) {
  const std::string single =
      "[2026-03-09 12:00:00] server_args=ServerArgs(model_path='m', tp_size=4)\n"
      "[2026-03-09 12:00:10 TP0] Init torch distributed begin.\n";
  const std::string multi =
      "[2026-03-09 12:00:00] server_args=ServerArgs(model_path='m', tp_size=16, nnodes=2, "
      "dist_init_addr='10.0.0.1:5000')\n"
      "[2026-03-09 12:00:10 TP0] Init torch distributed begin.\n";
  const auto later = ParseTimeArg("2026-03-09 12:30:00");
  Verdict s = Explain(single, later);
  Verdict m = Explain(multi, later);
  ASSERT_EQ(s.state, State::kStalled);
  ASSERT_FALSE(s.findings.empty());
  EXPECT_EQ(s.findings.front().id, "nccl_p2p");
  EXPECT_FALSE(HasFinding(s, "rendezvous"));
  ASSERT_FALSE(m.findings.empty());
  EXPECT_EQ(m.findings.front().id, "rendezvous");
  EXPECT_FALSE(HasFinding(m, "nccl_p2p"));
}

// Live: a source that ended (the log will say no more) is judged like a whole log offline.
TEST(SessionLive, AnEndedLogEndingInAnErrorIsACrashLiveToo) {
  SessionOptions o;
  o.reference_year = 2026;
  o.live = true;
  StartupSession s(Rules(), o);
  const int64_t t = 1773057600000;
  s.OnLogText(0, "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n", t);
  s.OnLogText(0, "RuntimeError: boom\n", t + 1000);
  EXPECT_NE(s.Evaluate(t + 1000).state, State::kCrashed);  // it may still say more
  s.OnSourceEnd(0, t + 2000);
  EXPECT_EQ(s.Evaluate(t + 2000).state, State::kCrashed);
}

// Live: the engine prints local time in its container's zone, which need not be the host's. The
// followed file's last write against its last line's stated time says which zone that is.
TEST(SessionLive, TheLogsZoneIsLearnedFromTheFilesLastWrite) {
  const std::string log =
      "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n"
      "[2026-03-09 12:00:30 TP0] Load weight end. type=X, avail mem=10 GB\n";
  const int64_t stated_end = 1773057630000;                      // 2026-03-09 12:00:30 read as UTC
  const int64_t written = stated_end - 8 * 3600 * 1000LL + 900;  // the engine's zone is UTC+8
  auto judge = [&](int64_t host_zone_s, bool learn) {
    SessionOptions o;
    o.reference_year = 2026;
    o.live = true;
    o.local_utc_offset_s = host_zone_s;
    StartupSession s(Rules(), o);
    if (learn) s.LearnZone(log, written);
    s.OnLogText(0, log, written + 60000);
    return s.Evaluate(written + 60000);
  };
  // The host's own zone (UTC here) would put the last line 8 h in the future; learned, a minute
  // ago.
  for (int64_t host_zone : {int64_t{0}, int64_t{-5 * 3600}, int64_t{8 * 3600}}) {
    Verdict v = judge(host_zone, true);
    ASSERT_TRUE(v.stalled_seconds.has_value());
    EXPECT_NEAR(*v.stalled_seconds, 60, 2) << host_zone;
  }
  Verdict unlearned = judge(10 * 3600, false);  // a host in UTC+10: two hours stale
  ASSERT_TRUE(unlearned.stalled_seconds.has_value());
  EXPECT_GT(*unlearned.stalled_seconds, 3600);  // what LearnZone is for
}

TEST(SessionLive, NoZoneIsLearnedFromAGapThatIsNoZone) {
  SessionOptions o;
  o.reference_year = 2026;
  o.live = true;
  const std::string log = "[2026-03-09 12:00:30 TP0] Load weight begin. avail mem=70 GB\n";
  const int64_t stated = 1773057630000;
  for (int64_t gap_ms : {int64_t{37 * 60 * 1000}, int64_t{15 * 3600 * 1000LL}}) {
    StartupSession s(Rules(), o);
    s.LearnZone(log, stated - gap_ms);  // 37 min: no zone; 15 h: beyond any zone
    s.OnLogText(0, log, stated);
    Verdict v = s.Evaluate(stated);
    ASSERT_TRUE(v.stalled_seconds.has_value());
    EXPECT_LT(*v.stalled_seconds, 5) << gap_ms;  // the host's zone (UTC) kept
  }
  StartupSession untimed(Rules(), o);
  untimed.LearnZone("Loading safetensors checkpoint shards:  50% 1/2\n", stated - 3600000);
  untimed.OnLogText(0, log, stated);
  EXPECT_LT(*untimed.Evaluate(stated).stalled_seconds, 5);  // a last line without a time
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A host that starts a backend engine (Triton loading a vLLM model) prints the host's banner,
// then the engine's: one start. The same host restarting, or a supervisor spawning again, is not.
TEST(SessionRestarts, ABackendEnginesBannerInsideItsHostIsTheSameStart) {
  const std::string triton =
      "I1120 10:00:00.100000 1 pinned_memory_manager.cc:277] \"Pinned memory pool is created at "
      "'0x7f0000000000' with size 268435456\"\n"
      "I1120 10:00:00.900000 1 model_lifecycle.cc:472] \"loading: vllm_model:1\"\n";
  const std::string vllm =
      "INFO 11-20 10:00:08 llm_engine.py:161] Initializing an LLM engine (v0.5.0) with config: "
      "model='facebook/opt-125m'\n"
      "INFO 11-20 10:00:12 model_runner.py:160] Loading model weights took 0.2389 GB\n";
  Verdict one = Explain(triton + vllm);
  EXPECT_EQ(one.attempts, 1) << one.headline;
  Verdict supervised =
      Explain(vllm + "2025-11-20 10:01:00,000 INFO spawned: 'vllm' with pid 4242\n" +
              "INFO 11-20 10:01:12 model_runner.py:160] Loading model weights took 0.2389 GB\n");
  EXPECT_EQ(supervised.attempts, 2) << supervised.headline;
}

}  // namespace
}  // namespace spinup
