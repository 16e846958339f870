// The headline quotes the failure itself: not a parent's relay of it (TGI's launcher saying the
// webserver or a shard failed, after the router's or the shard's own error), and, where a whole
// traceback was kept as one line (a launcher's copy of a shard's stderr), the exception at its end.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::string Tgi(int s, std::string_view level, std::string_view msg) {
  return "2024-05-01T01:00:" + std::string(s < 10 ? "0" : "") + std::to_string(s) + ".618817Z  " +
         std::string(level) + " text_generation_launcher: " + std::string(msg) + "\n";
}

const std::string kTgiUp = Tgi(0, "INFO", "Args { model_id: \"m\", num_shard: Some(2) }") +
                           Tgi(1, "INFO", "Starting shard rank=0") +
                           Tgi(5, "INFO", "Shard ready in 4.1s rank=0") +
                           Tgi(6, "INFO", "Starting Webserver");

TEST(SessionRelayHeadline, TgiLauncherRelayIsNotTheHeadline) {
  // The router's bind error, then the launcher's summary of it: the bind error is the headline.
  const Verdict v = Explain(
      kTgiUp +
      Tgi(7, "ERROR", "Failed to bind to 0.0.0.0:80: Address already in use (os error 98)") +
      Tgi(8, "ERROR", "Webserver Crashed") + Tgi(9, "INFO", "Shutting down shards") +
      "Error: WebserverFailed\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("Address already in use"), std::string::npos) << v.headline;
  EXPECT_EQ(v.headline.find("WebserverFailed"), std::string::npos) << v.headline;
}

TEST(SessionRelayHeadline, TritonModelWaitingOnTheFailedOneIsNotTheHeadline) {
  // The engine model's own failure, then the ensemble that depended on it: the headline quotes
  // the failure, not the model that waited on it.
  const Verdict v = Explain(
      "I0409 15:12:01.100000 20417 model_lifecycle.cc:469] loading: tensorrt_llm:1\n"
      "E0409 15:12:03.712601 20417 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version "
      "1: Internal: Assertion failed: tensorParallelism * pipelineParallelism == mpiSize\n"
      "E0409 15:12:03.712793 20417 model_repository_manager.cc:579] Invalid argument: ensemble "
      "'ensemble' depends on 'tensorrt_llm' which has no loaded version. Model 'tensorrt_llm' "
      "loading failed with error: version 1 is at UNAVAILABLE state: Internal: Assertion failed\n"
      "error: creating server: Internal - failed to load all models\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("failed to load 'tensorrt_llm'"), std::string::npos) << v.headline;
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "parallel_layout");
}

TEST(SessionRelayHeadline, ARelayThatNamesItsShardNamesTheFailingRank) {
  // Four shards loading; the launcher's copy of one shard's error has no rank, its "Shard 2 failed
  // to start" names the shard: the headline says which one failed, not all four.
  std::string log = Tgi(0, "INFO", "Args { model_id: \"m\", num_shard: Some(4) }");
  for (int r = 0; r < 4; ++r) log += Tgi(1, "INFO", "Starting shard rank=" + std::to_string(r));
  log += Tgi(9, "ERROR", "Error when initializing model") +
         "safetensors_rust.SafetensorError: Error while deserializing header: "
         "MetadataIncompleteBuffer\n" +
         Tgi(10, "ERROR", "Shard 2 failed to start") + Tgi(10, "INFO", "Shutting down shards") +
         "Error: ShardCannotStart\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("on shard2"), std::string::npos) << v.headline;
  EXPECT_EQ(v.headline.find("shard0"), std::string::npos) << v.headline;
}

TEST(SessionRelayHeadline, RelayAloneIsStillQuoted) {
  // Nothing but the launcher's lines: its summary is all the log says, so it is quoted.
  const Verdict v = Explain(kTgiUp + Tgi(8, "ERROR", "Webserver Crashed") +
                            Tgi(9, "INFO", "Shutting down shards") + "Error: WebserverFailed\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("Webserver"), std::string::npos) << v.headline;
}

TEST(SessionRelayHeadline, ExceptionAtTheEndOfAJoinedTraceback) {
  // TGI's JSON output keeps a shard's stderr in one message: the assertion at its end is quoted.
  const std::string json =
      "{\"timestamp\": \"2024-05-01T01:00:10.000000Z\", \"level\": \"ERROR\", \"fields\": "
      "{\"message\": \"Shard complete standard error output:\\n\\nTraceback (most recent call "
      "last):\\n  File \\\"/opt/conda/lib/python3.11/site-packages/text_generation_server/utils/"
      "dist.py\\\", line 52, in initialize_torch_distributed\\n    assert WORLD_SIZE <= "
      "torch.cuda.device_count()\\nAssertionError: Each process is one gpu\"}, \"target\": "
      "\"text_generation_launcher\"}\n";
  const Verdict v = Explain(kTgiUp + json + Tgi(11, "ERROR", "Shard 1 failed to start") +
                            "Error: ShardCannotStart\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("AssertionError: Each process is one gpu"), std::string::npos)
      << v.headline;
}

TEST(SessionRelayHeadline, VllmRelayThatPointsAtTheRootStaysWhenNothingElseSaysMore) {
  // A relay whose words point at a root cause the excerpt lacks is still the best line to quote.
  const Verdict v = Explain(
      "INFO 03-09 12:00:00 [api_server.py:1043] vLLM API server version 0.9.1\n"
      "INFO 03-09 12:00:09 [gpu_model_runner.py:1595] Starting to load model /models/m...\n"
      "ERROR 03-09 12:00:20 [core.py:515] EngineCore failed to start.\n"
      "RuntimeError: Engine core initialization failed. See root cause above. Failed core "
      "proc(s): {}\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("Engine core initialization failed"), std::string::npos) << v.headline;
}

// An excerpt that ends inside its traceback, before the exception: the headline can quote only the
// header, and says where the excerpt stops (the last frame: its function, its file's last parts).
TEST(SessionRelayHeadline, AnExcerptEndingInsideItsTracebackSaysWhere) {
  const std::string head =
      "[2025-09-22 10:00:00] server_args=ServerArgs(model_path='m', tp_size=2)\n"
      "[2025-09-22 10:00:03 TP0] Load weight begin. avail mem=78.00 GB\n"
      "[2025-09-22 10:00:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
      "  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2989, in "
      "run_scheduler_process\n"
      "    scheduler = Scheduler(\n"
      "  File \"/sgl/python/sglang/srt/model_loader/loader.py\", line 366, in load_model\n"
      "    model = _initialize_model(\n";
  const Verdict cut = Explain(head);
  EXPECT_EQ(cut.state, State::kCrashed);
  EXPECT_NE(
      cut.headline.find("(the log ends inside it, at load_model (model_loader/loader.py:366))"),
      std::string::npos)
      << cut.headline;
  // With its exception the headline quotes that, and says nothing of where the log ends.
  const Verdict whole = Explain(head + "RuntimeError: weight model.norm.weight does not exist\n");
  EXPECT_NE(whole.headline.find("RuntimeError: weight"), std::string::npos) << whole.headline;
  EXPECT_EQ(whole.headline.find("the log ends inside it"), std::string::npos) << whole.headline;
}

// A start that came up and died later quotes its death as a crash's error is chosen: the exception,
// not the heading the engine logged it under, nor the front-end's pointer to it.
TEST(SessionRelayHeadline, DiedWhileServingQuotesTheException) {
  const Verdict v = Explain(
      "(EngineCore_DP0 pid=2) INFO 09-12 10:02:15 [core.py:218] init engine (profile, create kv "
      "cache, warmup model) took 48.72 seconds\n"
      "(APIServer pid=1) INFO:     Application startup complete.\n"
      "(APIServer pid=1) INFO:     10.0.0.5:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
      "(EngineCore_DP0 pid=2) ERROR 09-12 10:20:11 [core.py:710] EngineCore encountered a fatal "
      "error.\n"
      "(EngineCore_DP0 pid=2) ERROR 09-12 10:20:11 [core.py:710] Traceback (most recent call "
      "last):\n"
      "(EngineCore_DP0 pid=2) ERROR 09-12 10:20:11 [core.py:710] torch.OutOfMemoryError: CUDA out "
      "of memory. Tried to allocate 4.00 GiB.\n"
      "(APIServer pid=1) ERROR 09-12 10:20:11 [async_llm.py:480] "
      "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace "
      "(above) for the root cause.\n");
  EXPECT_EQ(v.state, State::kReady);
  EXPECT_NE(v.headline.find("then died while serving: [EngineCore_DP0] torch.OutOfMemoryError"),
            std::string::npos)
      << v.headline;
}

// An exception whose class name does not end in Error, known by its module path, is the error.
TEST(SessionRelayHeadline, QualifiedExceptionWithoutErrorInItsName) {
  const Verdict v = Explain(
      "INFO 07-15 10:00:31 [gpu_model_runner.py:1801] Model loading took 15.62 GiB and 18.3 "
      "seconds\n"
      "ERROR 07-15 10:00:34 [core.py:519] EngineCore failed to start.\n"
      "ERROR 07-15 10:00:34 [core.py:519] Traceback (most recent call last):\n"
      "ERROR 07-15 10:00:34 [core.py:519] triton.runtime.errors.OutOfResources: out of resource: "
      "shared memory, Required: 114688, Hardware limit: 101376.\n"
      "RuntimeError: Engine core initialization failed. See root cause above. Failed core "
      "proc(s): {}\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_NE(v.headline.find("triton.runtime.errors.OutOfResources: out of resource"),
            std::string::npos)
      << v.headline;
}

TEST(SessionServingHeadline, EngineCoreExitAfterTheServerShutsDownIsNoDeath) {
  // vLLM 0.10-0.11 print "died unexpectedly" on every exit; after "Shutting down FastAPI HTTP
  // server." it is the shutdown's, not a death while serving.
  const std::string up =
      "(APIServer pid=1) INFO 10-15 02:59:59 [api_server.py:1971] Starting vLLM API server 0 on "
      "http://0.0.0.0:8000\n"
      "(APIServer pid=1) INFO:     Application startup complete.\n"
      "(APIServer pid=1) INFO:     10.42.1.1:48830 - \"GET /health HTTP/1.1\" 200 OK\n";
  const std::string died =
      "(APIServer pid=1) ERROR 10-15 03:00:09 [core_client.py:564] Engine core proc "
      "EngineCore_DP0 died unexpectedly, shutting down client.\n";
  const Verdict stopped =
      Explain(up +
              "(APIServer pid=1) INFO 10-15 03:00:09 [launcher.py:101] Shutting down FastAPI HTTP "
              "server.\n" +
              died);
  EXPECT_EQ(stopped.state, State::kReady);
  EXPECT_EQ(stopped.headline.find("died while serving"), std::string::npos) << stopped.headline;
  const Verdict killed = Explain(up + died);  // no shutdown first: it died while serving
  EXPECT_NE(killed.headline.find("died while serving"), std::string::npos) << killed.headline;
}

// A start in progress that the writer says has sat there longer than its log shows: the headline
// gives the writer's count beside the log's, as the verdict weighed it.
TEST(SessionRelayHeadline, AnInProgressStartQuotesTheWritersWait) {
  const std::string log =
      "[2025-07-02 03:14:50 TP0] Capture cuda graph begin. This can take up to several minutes. "
      "avail mem=32.41 GB\n"
      "[2025-07-02 03:14:53 TP0] Entering DeepGEMM JIT Pre-Compile session. It may take a long "
      "time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`.\n";
  const Verdict told = Explain("It has been sitting on this for 18 minutes, is it hung?\n" + log);
  EXPECT_EQ(told.state, State::kInProgress) << told.headline;
  EXPECT_NE(told.headline.find("(the report says 18 min so far)"), std::string::npos)
      << told.headline;
  const Verdict plain = Explain(log);
  EXPECT_EQ(plain.headline.find("the report says"), std::string::npos) << plain.headline;
}

}  // namespace
}  // namespace spinup
