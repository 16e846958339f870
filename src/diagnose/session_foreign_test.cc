// Another program's traceback pasted below the server's log (a client's request sent before the
// server was up, a benchmark's connection error) is not the server's failure: its exception names
// the client's library, and the whole chain is taken back. A server's own traceback that raises a
// client library's exception through its frames (a hub download) is still its crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "diagnose/tracker.h"
#include "logs/log_stream.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

const RuleSet& Rules() { return testing::BuiltinRules(); }
Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

std::vector<LogEvent> Events(const std::string& text) {
  LogStream s(Rules(), LogStreamOptions{});
  std::vector<LogEvent> out;
  s.OnEvent([&](const LogEvent& e) { out.push_back(e); });
  s.Feed(text);
  return out;
}

bool Says(const Verdict& v, std::string_view text) {
  return std::any_of(v.evidence.begin(), v.evidence.end(),
                     [&](const std::string& line) { return line.find(text) != line.npos; });
}

// The verdict quotes `text` among its decisive lines or in its headline.
bool Quotes(const Verdict& v, std::string_view text) {
  return v.headline.find(text) != std::string::npos ||
         std::any_of(v.errors.begin(), v.errors.end(),
                     [&](const std::string& line) { return line.find(text) != line.npos; });
}

const std::string kVllmUp =
    "INFO 03-09 12:00:00 [api_server.py:1043] vLLM API server version 0.9.1\n"
    "INFO 03-09 12:00:09 [gpu_model_runner.py:1595] Starting to load model /models/m...\n"
    "INFO 03-09 12:01:05 [default_loader.py:272] Loading weights took 55.20 seconds\n"
    "INFO 03-09 12:01:30 [core.py:171] init engine (profile, create kv cache, warmup model) "
    "took 20.34 seconds\n"
    "INFO 03-09 12:01:31 [api_server.py:1289] Starting vLLM API server 0 on "
    "http://0.0.0.0:8000\n";

// The chain a client prints when nothing listens yet: the socket's error, then each library's.
const std::string kClientChain =
    "Traceback (most recent call last):\n"
    "  File \"/usr/lib/python3/site-packages/httpx/_transports/default.py\", line 101, in map\n"
    "    yield\n"
    "ConnectionRefusedError: [Errno 111] Connection refused\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/u/bench.py\", line 12, in <module>\n"
    "    out = client.chat.completions.create(model=\"m\", messages=msgs)\n"
    "  File \"/usr/lib/python3/site-packages/openai/_base_client.py\", line 1000, in request\n"
    "    raise APIConnectionError(request=request) from err\n"
    "openai.APIConnectionError: Connection error.\n";

// A client's exception line says so first, before the errors every exception line is; the
// server's own exception never says so.
TEST(SessionForeign, AClientExceptionLineSaysSoBeforeItsErrors) {
  auto events = Events(
      "openai.APIConnectionError: Connection error.\n"
      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', "
      "port=8000): Max retries exceeded with url: /v1/models\n"
      "RuntimeError: CUDA error: an illegal memory access was encountered\n");
  std::vector<std::vector<LogEvent::Kind>> by_line(4);
  for (const auto& e : events) {
    ASSERT_GE(e.line_no, 1u);
    ASSERT_LE(e.line_no, 3u);
    by_line[e.line_no].push_back(e.kind);
  }
  for (int line : {1, 2}) {
    ASSERT_GE(by_line[line].size(), 2u) << line;
    EXPECT_EQ(by_line[line].front(), LogEvent::Kind::kForeign) << line;
    EXPECT_EQ(by_line[line][1], LogEvent::Kind::kError) << line;
  }
  EXPECT_EQ(std::count(by_line[3].begin(), by_line[3].end(), LogEvent::Kind::kForeign), 0);
  EXPECT_GE(std::count(by_line[3].begin(), by_line[3].end(), LogEvent::Kind::kError), 1);
}

TEST(SessionForeign, AClientExceptionAloneIsNotTheServersError) {
  const std::string loading =
      "INFO 03-09 12:00:00 [api_server.py:1043] vLLM API server version 0.9.1\n"
      "INFO 03-09 12:00:09 [gpu_model_runner.py:1595] Starting to load model /models/m...\n";
  const Verdict v = Explain(loading + "openai.APIConnectionError: Connection error.\n");
  EXPECT_EQ(v.state, Explain(loading).state);
  EXPECT_FALSE(Quotes(v, "APIConnectionError"));
  EXPECT_TRUE(Says(v, "a client's error is not the server's: openai.APIConnectionError"));
}

TEST(SessionForeign, AClientsTracebackBelowTheLogIsNotTheServersCrash) {
  const Verdict before = Explain(kVllmUp);
  const Verdict after = Explain(kVllmUp + kClientChain);
  EXPECT_NE(after.state, State::kCrashed);
  EXPECT_EQ(after.state, before.state);
  EXPECT_EQ(after.phase, before.phase);
  EXPECT_FALSE(Quotes(after, "Connection refused"));
  EXPECT_FALSE(Quotes(after, "APIConnectionError"));
  // The same traceback ending in the server's own exception is its crash.
  std::string own = kClientChain;
  own.replace(own.find("openai.APIConnectionError"), 25, "RuntimeError");
  EXPECT_EQ(Explain(kVllmUp + own).state, State::kCrashed);
}

TEST(SessionForeign, AServersDownloadThroughAClientLibraryIsStillItsCrash) {
  const Verdict v = Explain(
      "INFO 03-09 12:00:00 [api_server.py:1043] vLLM API server version 0.9.1\n"
      "INFO 03-09 12:00:09 [gpu_model_runner.py:1595] Starting to load model /models/m...\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/site-packages/vllm/model_executor/model_loader/"
      "weight_utils.py\", line 300, in download_weights_from_hf\n"
      "    hf_folder = snapshot_download(\n"
      "  File \"/usr/lib/python3/site-packages/requests/adapters.py\", line 700, in send\n"
      "    raise ConnectionError(e, request=request)\n"
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): "
      "Max retries exceeded\n");
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
  EXPECT_TRUE(Quotes(v, "requests.exceptions.ConnectionError"));
  EXPECT_FALSE(Says(v, "client's error"));
}

// The engine core's parent repeats the error in a traceback of its own with no frame of the
// server's: that copy is taken back, but the error is still the one the verdict quotes, so it is
// never called a client's.
TEST(SessionForeign, AParentsCopyOfTheDownloadErrorIsNotCalledAClients) {
  const std::string error =
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='cas-bridge.xethub.hf.co', "
      "port=443): Read timed out.\n";
  const std::string core = "ERROR 08-02 11:17:44 [core.py:586] ";
  const Verdict v = Explain(
      "INFO 08-02 11:00:20 [gpu_model_runner.py:1770] Starting to load model "
      "Qwen/Qwen2.5-32B...\n" +
      core + "EngineCore failed to start.\n" + core + "Traceback (most recent call last):\n" +
      core +
      "  File \"/usr/lib/python3/dist-packages/vllm/model_executor/model_loader/weight_utils.py\", "
      "line 286, in download_weights_from_hf\n" +
      core + "    hf_folder = snapshot_download(\n" + core + error +
      "Process EngineCore_0:\nTraceback (most recent call last):\n"
      "  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap\n" +
      error);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_TRUE(Quotes(v, "requests.exceptions.ConnectionError"));
  EXPECT_FALSE(Says(v, "client's error"));
}

TEST(SessionForeign, OnlyTheClientsTracebackIsTakenBack) {
  // The server crashed first; the client's connection error pasted after it changes nothing.
  const std::string crash =
      "Traceback (most recent call last):\n"
      "  File \"/x/engine.py\", line 9, in run\n"
      "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens\n";
  const Verdict v = Explain(kVllmUp + crash + kClientChain);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_TRUE(Quotes(v, "max seq len"));
  EXPECT_FALSE(Quotes(v, "APIConnectionError"));
}

// The tracker's side: an attempt is given back as it was before the traceback's first header,
// unless a frame of the server's came in it or a line of the server's ended it.
LogEvent Event(LogEvent::Kind kind, std::string rule, std::optional<Phase> phase = std::nullopt) {
  LogEvent e;
  e.kind = kind;
  e.rule_id = std::move(rule);
  e.phase = phase;
  e.text = e.rule_id;
  return e;
}

size_t ErrorsAfter(std::vector<LogEvent> events) {
  StartupTracker t;
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, "vllm.load_begin", Phase::kWeightLoad));
  uint64_t line = 1;
  for (auto& e : events) {
    e.line_no = ++line;
    t.OnLogEvent(e);
  }
  return t.state().attempts.back().errors.size();
}

TEST(TrackerForeign, TheTracebackIsTakenBackUnlessTheServerShowedInIt) {
  using K = LogEvent::Kind;
  const auto header = Event(K::kError, "generic.traceback");
  const auto error = Event(K::kError, "generic.exception");
  const auto chain = Event(K::kInfo, "generic.traceback_chain");
  const auto foreign = Event(K::kForeign, "generic.client_exception");
  EXPECT_EQ(ErrorsAfter({header, error, chain, header, foreign}), 0u);
  EXPECT_EQ(ErrorsAfter({header, error, header, foreign}), 2u);  // no chain: a second traceback
  EXPECT_EQ(ErrorsAfter({header, Event(K::kFrame, "generic.frame_server"), foreign}), 1u);
  const auto phase_line = Event(K::kPhaseBegin, "vllm.kv_begin", Phase::kKvCache);
  EXPECT_EQ(ErrorsAfter({header, error, phase_line, foreign}), 2u);
  EXPECT_EQ(ErrorsAfter({error, foreign}), 1u);  // no traceback: nothing to take back
  // Every line printed twice (two handlers, a tee'd copy): the header twice opens one traceback,
  // so the whole chain is still taken back; a header after another line is a new traceback.
  EXPECT_EQ(ErrorsAfter({header, header, error, error, chain, chain, header, header, foreign}), 0u);
  EXPECT_EQ(ErrorsAfter({header, error, header, header, foreign}), 2u);  // the first stays
}

TEST(SessionForeign, AClientChainWithEveryLinePrintedTwiceIsStillTheClients) {
  std::string doubled;
  for (const std::string& text : {kVllmUp, kClientChain}) {
    size_t at = 0;
    while (at < text.size()) {
      const size_t end = text.find('\n', at);
      const std::string line = text.substr(at, end - at + 1);
      doubled += line + line;
      at = end + 1;
    }
  }
  const Verdict twice = Explain(doubled);
  EXPECT_EQ(twice.state, Explain(kVllmUp + kClientChain).state);
  EXPECT_NE(twice.state, State::kCrashed);
  EXPECT_FALSE(Quotes(twice, "Connection refused"));
}

}  // namespace
}  // namespace spinup
