// Logs of several programs (a compose stack, an unfiltered journal, a pod's containers): only the
// program that prints the engine's lines is the server. Another program's ready, exit or error is
// not the server's; a program's lines count while no program has shown the engine's yet.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "logs/log_stream.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::vector<LogEvent> Events(const std::string& text) {
  LogStream s(testing::BuiltinRules(), LogStreamOptions{});
  std::vector<LogEvent> out;
  s.OnEvent([&](const LogEvent& e) { out.push_back(e); });
  s.Feed(text);
  s.Finish();
  return out;
}

constexpr const char* kLoading =
    "app-1  | INFO 06-02 14:40:39 [gpu_model_runner.py:1770] Starting to load model /m/x...\n"
    "app-1  | Loading safetensors checkpoint shards:  27% Completed | 8/30 [00:29<01:20,  "
    "3.66s/it]\n";

TEST(SessionPrograms, AnotherServicesReadyIsNotTheServers) {
  const Verdict v =
      Explain(std::string(kLoading) + "chat-1  | INFO:     Application startup complete.\n");
  EXPECT_EQ(v.state, State::kInProgress) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
}

TEST(SessionPrograms, AnotherServicesCrashAndExitAreNotTheServers) {
  const Verdict v = Explain(std::string(kLoading) +
                            "chat-1  | RuntimeError: CUDA failed with error out of memory\n"
                            "chat-1 exited with code 3\n");
  EXPECT_EQ(v.state, State::kInProgress) << v.headline;
}

TEST(SessionPrograms, TheServersOwnExitStillEndsTheStart) {
  const Verdict v = Explain(std::string(kLoading) +
                            "app-1  | RuntimeError: CUDA error: an illegal memory access\n"
                            "app-1 exited with code 1\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
}

// Compose printed the container's exit and then its lines again: its restart policy started it
// anew.
TEST(SessionPrograms, AContainerThatPrintsAfterItsExitRestarted) {
  std::string log;
  for (int i = 0; i < 3; ++i) {
    // Each run at its own time: the same stamped lines again would be a paste copied twice.
    const std::string at = "06-02 14:4" + std::to_string(i) + ":39";
    log += "app-1  | INFO " + at + " [api_server.py:1] vLLM API server version 0.4.3\n" +
           "app-1  | ERROR " + at + " [engine.py:1] RuntimeError: CUDA error: an illegal memory\n" +
           "app-1 exited with code 1\n";
  }
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 3);
}

// Before any program printed the engine's lines, nothing says whose a line is: it counts.
TEST(SessionPrograms, LinesBeforeTheServerIsKnownCount) {
  const Verdict v = Explain("app-1  | RuntimeError: CUDA error: an illegal memory access\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
}

// A name that says what it is: a web UI's lines are never the server's, even before the engine's.
TEST(SessionPrograms, AKnownOtherProgramIsNeverTheServer) {
  const Verdict v = Explain(
      "Nov 20 10:00:01 h nginx[2211]: nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address "
      "already in use)\n"
      "Nov 20 10:01:02 h vllm[2198]: INFO 11-20 10:01:02 api_server.py:530] Starting vLLM API "
      "server on http://127.0.0.1:8000\n"
      "Nov 20 10:01:02 h vllm[2198]: INFO:     Application startup complete.\n");
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(v.attempts, 1);
  EXPECT_TRUE(v.findings.empty()) << v.findings.front().id;
}

// The words that make a name another program's are data: a --rules file adds its own (any case).
TEST(SessionPrograms, ARulesFileNamesMoreOtherPrograms) {
  // Before the server's first line, a program not known as another may be the server.
  const std::string log = "asr-whisper-1  | RuntimeError: no model file\n" + std::string(kLoading);
  auto errors = [&](const RuleSet& rules) {
    LogStream s(rules, LogStreamOptions{});
    int n = 0;
    s.OnEvent([&](const LogEvent& e) { n += e.kind == LogEvent::Kind::kError; });
    s.Feed(log);
    s.Finish();
    return n;
  };
  Result<RuleSet> more = RuleSet::LoadEmbedded();
  ASSERT_TRUE(more.ok());
  ASSERT_TRUE(more->AddFile("more.json", R"({"programs": {"others": ["Whisper"]}})").ok());
  ASSERT_TRUE(more->Compile().ok());
  EXPECT_GT(errors(testing::BuiltinRules()), 0);  // a program that may be the server's
  EXPECT_EQ(errors(*more), 0);
  const std::vector<std::string>& others = more->knowledge().programs.others;
  EXPECT_NE(std::find(others.begin(), others.end(), "whisper"), others.end());
  EXPECT_NE(std::find(others.begin(), others.end(), "nginx"), others.end());  // still there
}

// systemd 250 and later name the unit after "Starting": another unit's starts are not the server's.
TEST(SessionPrograms, AnotherUnitsStartLinesAreNotTheServers) {
  std::string log = "Mar 03 08:00:41 h systemd[1]: Started vllm.service - vLLM.\n";
  for (int i = 1; i <= 3; ++i) {
    const std::string at = "Mar 03 08:0" + std::to_string(i) + ":41 h ";
    log += at + "systemd[1]: Starting nginx.service - A high performance web server...\n" + at +
           "systemd[1]: nginx.service: Control process exited, code=exited, status=1/FAILURE\n" +
           at + "systemd[1]: nginx.service: Scheduled restart job, restart counter is at " +
           std::to_string(i) + ".\n";
  }
  log +=
      "Mar 03 08:04:41 h vllm[7]: INFO 03-03 08:04:41 [api_server.py:1] Starting vLLM API server "
      "on http://0.0.0.0:8000\n"
      "Mar 03 08:04:41 h vllm[7]: INFO:     Application startup complete.\n";
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  EXPECT_EQ(v.attempts, 1);
}

// A client's prompt echoed by --enable-log-requests: the errors it quotes are the client's text.
TEST(SessionPrograms, AnEchoedPromptIsOnlyARequest) {
  const auto events = Events(
      "INFO 11-17 09:00:40 [logger.py:71] Received request chatcmpl-1: prompt: 'torch.OutOfMemory"
      "Error: CUDA out of memory. Tried to allocate 2.00 GiB', params: SamplingParams(n=1)\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, LogEvent::Kind::kRequestServed);
  EXPECT_EQ(events[0].rule_id, "vllm.request_log");
}

}  // namespace
}  // namespace spinup
