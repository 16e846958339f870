#include "live/ready_gate.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "proc/health.h"

namespace spinup {
namespace {

class FakeRunner final : public FirstRequestRunner {
 public:
  void Start(const proc::FirstRequestOptions& o) override {
    ++starts;
    engine = o.engine;
  }
  std::optional<proc::FirstRequestAnswer> Poll() override { return answer; }
  void Stop() override { ++stops; }
  int starts = 0;
  int stops = 0;
  std::string engine;
  std::optional<proc::FirstRequestAnswer> answer;
};

Verdict Ready(const std::string& engine = "sglang", int attempts = 1) {
  Verdict v;
  v.state = State::kReady;
  v.phase = Phase::kReady;
  v.engine = engine;
  v.attempts = attempts;
  v.headline = "READY";
  return v;
}

struct Gate {
  explicit Gate(ProbeMode mode, std::string engine = "") {
    auto r = std::make_unique<FakeRunner>();
    runner = r.get();
    proc::FirstRequestOptions o;
    o.port = 30000;
    gate = std::make_unique<ReadyGate>(mode, o, std::move(engine), std::move(r));
  }
  FakeRunner* runner;
  std::unique_ptr<ReadyGate> gate;
};

TEST(ReadyGate, ReadyWaitsForTheFirstRequest) {
  Gate g(ProbeMode::kAuto);
  Verdict v = Ready();
  g.gate->Apply(v, 1000);
  EXPECT_EQ(v.state, State::kProgressing);
  EXPECT_EQ(v.phase, Phase::kWarmup);
  EXPECT_EQ(g.runner->starts, 1);
  EXPECT_EQ(g.runner->engine, "sglang");
  proc::FirstRequestAnswer a;
  a.served = a.answered = true;
  a.http_status = 200;
  a.request = "POST /generate";
  a.seconds = 0.25;
  g.runner->answer = a;
  v = Ready();
  g.gate->Apply(v, 2000);
  EXPECT_EQ(v.state, State::kReady);
  ASSERT_TRUE(v.first_request_seconds);
  EXPECT_DOUBLE_EQ(*v.first_request_seconds, 0.25);
  EXPECT_EQ(g.runner->starts, 1);  // one request per attempt
}

TEST(ReadyGate, AFailedFirstRequestIsACrashInWarmupWithTheResponse) {
  Gate g(ProbeMode::kGenerate);
  Verdict v = Ready("");
  g.gate->Apply(v, 0);
  proc::FirstRequestAnswer a;
  a.answered = true;
  a.http_status = 500;
  a.request = "POST /v1/completions";
  a.body = R"({"error":"CUDA error"})";
  a.error = "POST /v1/completions answered HTTP 500: {\"error\":\"CUDA error\"}";
  g.runner->answer = a;
  v = Ready("");
  g.gate->Apply(v, 1000);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWarmup);
  EXPECT_NE(v.headline.find("the first request failed"), std::string::npos);
  ASSERT_FALSE(v.errors.empty());
  EXPECT_NE(v.errors.back().find("CUDA error"), std::string::npos);
  // It stays the verdict of this attempt; a restart probes again.
  v = Ready("");
  v.state = State::kProgressing;
  g.gate->Apply(v, 2000);
  EXPECT_EQ(v.state, State::kCrashed);
  v = Ready("", 2);
  g.runner->answer.reset();
  g.gate->Apply(v, 3000);
  EXPECT_EQ(v.state, State::kProgressing);
  EXPECT_EQ(g.runner->starts, 2);
}

TEST(ReadyGate, NoAnswerIsAStallInWarmup) {
  proc::FirstRequestAnswer a;
  a.error = "POST /generate: no answer (Read timeout)";
  Verdict v = Ready();
  ApplyFirstRequest(v, a, 60);
  EXPECT_EQ(v.state, State::kStalled);
  EXPECT_EQ(v.phase, Phase::kWarmup);
}

TEST(ReadyGate, HealthNoneAndUnknownEngineLeaveReadyAlone) {
  for (ProbeMode m : {ProbeMode::kHealth, ProbeMode::kNone}) {
    Gate g(m);
    Verdict v = Ready();
    g.gate->Apply(v, 0);
    EXPECT_EQ(v.state, State::kReady);
    EXPECT_EQ(g.runner->starts, 0);
  }
  Gate g(ProbeMode::kAuto);
  Verdict v = Ready("");  // auto: the engine is not known
  g.gate->Apply(v, 0);
  EXPECT_EQ(v.state, State::kReady);
  Gate forced(ProbeMode::kAuto, "vllm");
  v = Ready("");
  forced.gate->Apply(v, 0);
  EXPECT_EQ(v.state, State::kProgressing);
  EXPECT_EQ(forced.runner->engine, "vllm");
}

TEST(ReadyGate, FinishDoesNotStartOrWait) {
  Gate g(ProbeMode::kGenerate);
  Verdict v = Ready();
  g.gate->Finish(v, 0);
  EXPECT_EQ(g.runner->starts, 0);
  EXPECT_EQ(v.state, State::kProgressing);  // not served: not ready
  EXPECT_GE(g.runner->stops, 1);
}

TEST(ProbeMode, Parses) {
  EXPECT_EQ(*ParseProbeMode("generate"), ProbeMode::kGenerate);
  EXPECT_EQ(*ParseProbeMode(""), ProbeMode::kAuto);
  EXPECT_FALSE(ParseProbeMode("tcp").ok());
}

TEST(FirstRequest, ModelIdAndProblems) {
  EXPECT_EQ(*proc::FirstModelId(R"({"object":"list","data":[{"id":"m1"},{"id":"m2"}]})"), "m1");
  EXPECT_FALSE(proc::FirstModelId(R"({"data":[]})"));
  EXPECT_FALSE(proc::FirstModelId("not json"));
  EXPECT_FALSE(proc::FirstModelId(R"({"data":[{"id":3}]})"));
  EXPECT_FALSE(proc::GenerationProblem("POST /generate", 200, R"({"text":"!"})"));
  EXPECT_FALSE(
      proc::GenerationProblem("POST /v1/completions", 200, R"({"choices":[{"text":"!"}]})"));
  EXPECT_TRUE(proc::GenerationProblem("POST /v1/completions", 200, R"({"choices":[]})"));
  EXPECT_TRUE(proc::GenerationProblem("POST /generate", 200, R"({"error":"x","text":""})"));
  auto p = proc::GenerationProblem("POST /generate", 503, std::string(5000, 'x'));
  ASSERT_TRUE(p);
  EXPECT_LT(p->size(), 400u);  // one line, capped
}

// A vLLM-like server: no /generate, the OpenAI routes only.
TEST(FirstRequest, FallsBackToCompletionsWithTheListedModel) {
  httplib::Server server;
  std::string seen_model;
  server.Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"data":[{"id":"llama-70b"}]})", "application/json");
  });
  server.Post("/v1/completions", [&](const httplib::Request& req, httplib::Response& res) {
    auto j = nlohmann::json::parse(req.body, nullptr, false);
    seen_model = j.value("model", "");
    if (j.value("max_tokens", 0) != 1) res.status = 400;
    res.set_content(R"({"choices":[{"text":"!"}]})", "application/json");
  });
  int port = server.bind_to_any_port("127.0.0.1");
  ASSERT_GT(port, 0);
  std::thread t([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  proc::FirstRequestOptions o;
  o.port = static_cast<uint16_t>(port);
  o.engine = "sglang";  // tries /generate first, gets 404, falls back
  auto a = proc::FirstRequestProbe(o).Run();
  EXPECT_TRUE(a.served) << a.error;
  EXPECT_EQ(a.request, "POST /v1/completions");
  EXPECT_EQ(seen_model, "llama-70b");
  server.stop();
  t.join();
  // Nothing listens any more: not answered, and said so.
  a = proc::FirstRequestProbe(o).Run();
  EXPECT_FALSE(a.served);
  EXPECT_FALSE(a.answered);
  EXPECT_NE(a.error.find("no answer"), std::string::npos) << a.error;
}

}  // namespace
}  // namespace spinup
