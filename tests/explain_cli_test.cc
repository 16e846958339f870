// `spinup explain` end to end: exit codes, JSON keys, stdin, --now, --rules, errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;

const char* kHang =
    "[2026-03-09 12:01:50 TP0] Init torch distributed begin.\n"
    "[2026-03-09 12:01:50 TP1] Init torch distributed begin.\n";

TEST(ExplainCli, InProgressThenStalledWithNow) {
  testing::TempDir dir;
  testing::WriteFile(dir / "a.log", kHang);
  auto r = RunSpinup({"explain", (dir / "a.log").string()});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_EQ(r.out.rfind("IN PROGRESS: the log ends in distributed_init on TP0\u2013TP1", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("Not known"), std::string::npos);
  r = RunSpinup({"explain", (dir / "a.log").string(), "--now", "2026-03-09T12:11:42Z"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(
      r.out.rfind(
          "STALLED in distributed_init on TP0\u2013TP1 for 9 min 52 s; normal is under 30 s", 0),
      0u)
      << r.out;
  EXPECT_NE(r.out.find("NCCL_P2P_DISABLE=1"), std::string::npos);
}

TEST(ExplainCli, JsonFromStdinHasTheDocumentedKeys) {
  std::string log =
      std::string(kHang) +
      "[2026-03-09 12:01:52 TP0] Init torch distributed ends. elapsed=2.0 s\n"
      "[2026-03-09 12:01:55 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
      "RuntimeError: boom\n";
  auto r = RunSpinup({"explain", "-", "--json"}, log);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k :
       {"engine", "outcome", "phase", "attempts", "ranks", "timeline", "errors", "findings"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  EXPECT_EQ(j["engine"], "sglang");
  EXPECT_EQ(j["outcome"], "crashed");
  EXPECT_EQ(j["phase"], "weight_load");  // after distributed init ended, weights come next
  EXPECT_EQ(j["attempts"], 1);
  EXPECT_EQ(j["ranks"]["TP0"]["phase"], "weight_load");
  ASSERT_FALSE(j["timeline"].empty());
  auto t0 = j["timeline"][0];
  for (const char* k : {"rank", "phase", "start", "end", "seconds", "slow"})
    EXPECT_TRUE(t0.contains(k)) << k;
  EXPECT_EQ(t0["start"], "2026-03-09T12:01:50");
  EXPECT_FALSE(j["errors"].empty());
}

TEST(ExplainCli, ReadyExitsZeroAndEngineCanBeForced) {
  auto r = RunSpinup({"explain", "-", "--engine", "sglang"},
                     "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("READY", 0), 0u);
}

// A start that got up after a slow phase says so at the top level, not only per timeline entry:
// scripts tell slow-then-ready from ready with `.slow_phases`.
TEST(ExplainCli, SlowPhasesListWhatRanPastItsBudget) {
  const std::string head = "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=78.00 GB\n";
  auto run = [&](const std::string& load_end, const std::string& ready_at) {
    auto r =
        RunSpinup({"explain", "-", "--json"},
                  head + "[2026-03-09 " + load_end +
                      " TP0] Load weight end. type=LlamaForCausalLM, avail mem=60.00 GB\n" +
                      "[2026-03-09 " + ready_at + "] The server is fired up and ready to roll!\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  auto slow = run("12:25:00", "12:26:00");
  EXPECT_EQ(slow["outcome"], "ready");
  EXPECT_EQ(slow["slow_phases"], nlohmann::json::array({"weight_load"}));
  auto quick = run("12:00:20", "12:00:40");
  EXPECT_EQ(quick["outcome"], "ready");
  EXPECT_TRUE(quick["slow_phases"].is_array());
  EXPECT_TRUE(quick["slow_phases"].empty()) << quick["slow_phases"];
}

TEST(ExplainCli, UserRulesAndTheirErrors) {
  testing::TempDir dir;
  testing::WriteFile(dir / "bad.json",
                     "{\n  \"rules\": [\n    {\"id\": \"x\" \"regex\": \"y\"}\n  ]\n}\n");
  auto r = RunSpinup({"explain", "-", "--rules", (dir / "bad.json").string()}, "x\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("spinup: " + (dir / "bad.json").string() + ":3: ", 0), 0u) << r.err;

  testing::WriteFile(dir / "good.json", R"({"engine": "toy", "rules": [
      {"id": "toy.load", "regex": "^toy loading", "emit": "phase_begin", "phase": "weight_load"},
      {"id": "toy.up", "regex": "^toy up", "emit": "ready"}]})");
  r = RunSpinup({"explain", "-", "--rules", (dir / "good.json").string(), "--json"},
                "2026-03-09T12:00:00Z toy loading\n2026-03-09T12:00:09Z toy up\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["engine"], "toy");
  EXPECT_EQ(j["timeline"][0]["seconds"], 9.0);
}

TEST(ExplainCli, UsageErrors) {
  auto r = RunSpinup({"explain", "/no/such/log"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("spinup: /no/such/log: ", 0), 0u) << r.err;
  r = RunSpinup({"explain", "-", "--now", "soon"}, "");
  EXPECT_EQ(r.exit_code, 2);
  r = RunSpinup({"explain", "-", "--engine", "nosuch"}, "");
  EXPECT_EQ(r.exit_code, 2);
  r = RunSpinup({"explain"});
  EXPECT_EQ(r.exit_code, 2);
}

// Ray Serve counts the failed starts of a replica ("failed to start 3 times in a row"): three
// attempts, though the log shows one, and the text says both.
TEST(ExplainCli, RayServeFailedStartsCountAsAttempts) {
  const std::string log =
      "(ServeReplica:default:VLLMDeployment pid=2001) INFO 01-12 05:50:20 [llm_engine.py:234] "
      "Initializing a V0 LLM engine (v0.7.3) with config: model='m', tensor_parallel_size=2\n"
      "(ServeReplica:default:VLLMDeployment pid=2001) INFO 01-12 05:50:30 [model_runner.py:1110] "
      "Starting to load model /models/m...\n"
      "The deployment failed to start 3 times in a row. This may be due to a problem with its "
      "constructor or initial health check failing. See controller logs for details. Retrying "
      "after 1 seconds. Error:\n"
      "RuntimeError: NCCL error: unhandled cuda error\n";
  auto r = RunSpinup({"explain", "-"}, log);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("CRASH LOOP: 3 attempts, 3 crashed; the last in weight_load", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("attempts: 3 (1 in the log)"), std::string::npos) << r.out;
  r = RunSpinup({"explain", "-", "--json"}, log);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["attempts"], 1);
  EXPECT_EQ(j["restarts"], 2);
}

TEST(ExplainCli, BackoffCountAndPastedRunsGiveOneAttemptCount) {
  // The pod table's back-off (7 restarts, its latest run failed too), the previous run and the
  // current one: the headline's count and the attempts column agree.
  const std::string log =
      "NAME        READY   STATUS             RESTARTS        AGE\n"
      "vllm-0      0/1     CrashLoopBackOff   7 (2m31s ago)   21m\n"
      "$ kubectl logs vllm-0 -p\n"
      "(APIServer pid=1) INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
      "(VllmWorker TP0 pid=280) INFO 08-20 10:00:30 [gpu_model_runner.py:1953] Starting to load "
      "model m...\n"
      "(VllmWorker TP0 pid=280) ERROR 08-20 10:00:40 [multiproc_executor.py:559] "
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 270.00 MiB.\n"
      "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above.\n"
      "$ kubectl logs vllm-0\n"
      "(APIServer pid=1) INFO 08-20 10:03:00 [api_server.py:1805] vLLM API server version 0.10.1\n";
  auto r = RunSpinup({"explain", "-"}, log);
  EXPECT_EQ(r.out.rfind("CRASH LOOP: 9 attempts, 8 crashed; attempt 9 is starting", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("attempts: 9 (2 in the log)"), std::string::npos) << r.out;
  r = RunSpinup({"explain", "-", "--json"}, log);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["attempts"], 2);
  EXPECT_EQ(j["restarts"], 8);
}
}  // namespace
}  // namespace spinup
