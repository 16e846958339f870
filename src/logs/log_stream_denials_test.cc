// Lines that take back what another rule's match says: a denial on the line (LogRule::cancels)
// and a ready line on a port no server in the paste was launched on (LogStream::NoteServerPort).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logs/log_stream.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

std::vector<std::string> RuleIds(const std::string& text) {
  LogStream s(testing::BuiltinRules(), LogStreamOptions{});
  std::vector<std::string> ids;
  s.OnEvent([&](const LogEvent& e) { ids.push_back(e.rule_id); });
  s.Feed(text);
  s.Finish();
  return ids;
}

bool Has(const std::vector<std::string>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// "no OOMKilled" is no OOM record; "was OOMKilled" is one.
TEST(LogStreamDenials, AWritersDenialOfAnOomKillCancelsTheRecord) {
  const std::string head =
      "INFO 07-08 10:41:02 [__init__.py:244] Automatically detected platform cuda.\n";
  EXPECT_TRUE(Has(RuleIds(head + "the container was OOMKilled again\n"), "oom_record.killed"));
  const auto denied =
      RuleIds(head + "the container just gets SIGKILLed, no OOMKilled in lastState\n");
  EXPECT_FALSE(Has(denied, "oom_record.killed"));
  EXPECT_TRUE(Has(denied, "generic.not_oom_record"));
}

// LiteLLM's Uvicorn on :4000 beside a vLLM launched on port 8000 is not vLLM's ready line; the
// server's own on :8000 is. With no launch port known, any Uvicorn line counts as before.
TEST(LogStreamDenials, AReadyLineOnAnotherPortIsAnotherPrograms) {
  const std::string head =
      "INFO 09-23 10:02:14 api_server.py:495] vLLM API server version 0.6.1.post2\n"
      "INFO 09-23 10:02:14 api_server.py:496] args: Namespace(host='127.0.0.1', port=8000, "
      "model='m')\n";
  EXPECT_FALSE(Has(
      RuleIds(head + "INFO:     Uvicorn running on http://0.0.0.0:4000 (Press CTRL+C to quit)\n"),
      "vllm.uvicorn_running"));
  EXPECT_TRUE(Has(
      RuleIds(head + "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"),
      "vllm.uvicorn_running"));
  EXPECT_TRUE(
      Has(RuleIds("INFO 09-23 10:02:14 api_server.py:495] vLLM API server version 0.6.1\n"
                  "INFO:     Uvicorn running on http://0.0.0.0:4000 (Press CTRL+C to quit)\n"),
          "vllm.uvicorn_running"));
}

}  // namespace
}  // namespace spinup
