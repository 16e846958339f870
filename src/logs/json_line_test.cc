#include "logs/json_line.h"

#include <gtest/gtest.h>

#include <string>

namespace spinup {
namespace {

std::optional<std::string> Message(std::string_view line) {
  std::string msg;
  if (!ParseJsonLogLine(line, &msg)) return std::nullopt;
  return msg;
}

TEST(JsonLogLine, ReadsMessageLevelAndTime) {
  std::string msg;
  auto j = ParseJsonLogLine(
      R"({"timestamp":"2024-05-01T01:17:02.618817Z","level":"warn","fields":{"message":"x"},)"
      R"("message":"Shard 0 failed\nto start\n","target":"text_generation_launcher"})",
      &msg);
  ASSERT_TRUE(j);
  EXPECT_EQ(msg, "Shard 0 failed | to start");
  // For a reader that reads each of the message's lines as its own (LogStream).
  std::string lines;
  ASSERT_TRUE(ParseJsonLogLine(R"({"message":"Shard 0 failed\nto start\n"})", &lines, true));
  EXPECT_EQ(lines, "Shard 0 failed\nto start");
  EXPECT_EQ(j->level, "WARN");
  ASSERT_TRUE(j->time);
  EXPECT_EQ(j->time->hour, 1);
  EXPECT_EQ(j->time->minute, 17);
}

// python-json-logger (vLLM's VLLM_LOGGING_CONFIG_PATH): Python's asctime, and the traceback in
// "exc_info" after the message.
TEST(JsonLogLine, PythonJsonLoggerTimeAndTraceback) {
  std::string msg;
  auto j = ParseJsonLogLine(
      R"({"asctime": "2025-09-03 02:12:55,123", "levelname": "ERROR", "message": "WorkerProc hit )"
      R"(an exception.", "exc_info": "Traceback (most recent call last):\n  File \"x.py\", line 1, )"
      R"(in capture_model\nRuntimeError: boom"})",
      &msg, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(msg,
            "WorkerProc hit an exception.\nTraceback (most recent call last):\n  File \"x.py\", "
            "line 1, in capture_model\nRuntimeError: boom");
  ASSERT_TRUE(j->time);
  EXPECT_EQ(j->time->hour, 2);
  EXPECT_EQ(j->time->second, 55);
  EXPECT_EQ(j->time->millis, 123);
  EXPECT_EQ(j->level, "ERROR");
}

// The message fields in their order of preference; "fields" only when the top level has none.
TEST(JsonLogLine, PrefersFieldsInOrder) {
  EXPECT_EQ(Message(R"({"log":"c","msg":"b","message":"a"})"), "a");
  EXPECT_EQ(Message(R"({"MESSAGE":"d","log":"c"})"), "c");
  // Google Cloud Logging's export: the line is "textPayload".
  EXPECT_EQ(Message(R"({"textPayload":"g","severity":"ERROR"})"), "g");
  EXPECT_EQ(Message(R"({"textPayload":"g","MESSAGE":"d"})"), "d");
  // Grafana Loki's `logcli -o jsonl`, CloudWatch Logs' export, Azure Container Apps' console log.
  EXPECT_EQ(Message(R"({"labels":{"app":"vllm"},"line":"h","timestamp":"2025-05-10T08:12:01Z"})"),
            "h");
  EXPECT_EQ(Message(R"({"@timestamp":"2025-05-10 08:12:01.000","@message":"i"})"), "i");
  EXPECT_EQ(Message(R"({"TimeStamp":"2025-05-10T08:12:01Z","Log":"j"})"), "j");
  EXPECT_EQ(Message(R"({"line":42,"msg":"k"})"), "k");  // a line number is no message
  EXPECT_EQ(Message(R"({"fields":{"msg":"f","message":"e"},"level":"INFO"})"), "e");
  EXPECT_EQ(Message(R"({"fields":{"msg":"f"},"msg":"b"})"), "b");
  EXPECT_EQ(Message(R"({"fields":{"inner":{"message":"deep"}}})"), std::nullopt);
  // Datadog's API export and an Elasticsearch hit keep the event under an object of their own.
  EXPECT_EQ(Message(R"({"id":"Aw","type":"log","attributes":{"timestamp":1741100401000,)"
                    R"("status":"info","message":"m","attributes":{"container_name":"v"}}})"),
            "m");
  EXPECT_EQ(Message(R"({"_index":"logs","_source":{"@timestamp":"x","message":"s"}})"), "s");
  EXPECT_EQ(Message(R"({"other":{"message":"nested"}})"), std::nullopt);
  EXPECT_EQ(Message(R"({"list":[{"message":"in a list"}]})"), std::nullopt);
}

// As a parsed document would: a repeated key keeps its last value, and a field whose value is
// not a string does not count.
TEST(JsonLogLine, LastValueOfAKeyCountsAndOnlyStrings) {
  EXPECT_EQ(Message(R"({"message":"first","message":"second"})"), "second");
  EXPECT_EQ(Message(R"({"message":"first","message":7,"msg":"m"})"), "m");
  EXPECT_EQ(Message(R"({"message":{"text":"x"},"log":"l"})"), "l");
  EXPECT_EQ(Message(R"({"message":["x"],"log":"l"})"), "l");
  EXPECT_EQ(Message(R"({"message":null})"), std::nullopt);
  EXPECT_EQ(Message(R"({"fields":{"message":"a"},"fields":{"msg":"b"}})"), "b");
  EXPECT_EQ(Message(R"({"fields":{"message":"a"},"fields":"gone"})"), std::nullopt);
  EXPECT_EQ(Message(R"({"mes\u0073age":"escaped key"})"), "escaped key");
}

TEST(JsonLogLine, NotAnObjectOrBrokenIsPlainText) {
  EXPECT_EQ(Message(R"({"message":"a")"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"a"} trailing)"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"a",})"), std::nullopt);
  EXPECT_EQ(Message(R"(["message","a"])"), std::nullopt);
  EXPECT_EQ(Message("{}"), std::nullopt);
  EXPECT_EQ(Message(R"({"a":{"b":{"c":{"d":{"e":1}}}},"message":"too deep"})"), std::nullopt);
}

// Lines inside the subset read without nlohmann's lexer and lines outside it (\u escapes, UTF-8,
// exponents) read by it must give the answers nlohmann's parser alone gave.
TEST(JsonLogLine, FastSubsetAndFullParserAgree) {
  EXPECT_EQ(Message(R"({"message":"a\tb\\c\/d\"e","n":-0.5,"b":true,"z":null,"arr":[1,[2],{}]})"),
            "a\tb\\c/d\"e");
  EXPECT_EQ(Message(R"({ "message" : "spaced" , "level" : "info" })"), "spaced");
  EXPECT_EQ(Message(R"({"message":"caf\u00e9"})"), "caf\xc3\xa9");
  EXPECT_EQ(Message("{\"message\":\"caf\xc3\xa9\"}"), "caf\xc3\xa9");
  EXPECT_EQ(Message("{\"message\":\"bad \xff byte\"}"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"big","n":12345678901234567890123,"f":1.5e3})"), "big");
  EXPECT_EQ(Message(R"({"message":"overflow","n":1e400})"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"x","n":01})"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"x","n":1.})"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"x","n":-})"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"x" "level":"info"})"), std::nullopt);
  EXPECT_EQ(Message(R"({"message":"x","b":tru})"), std::nullopt);
  EXPECT_EQ(Message("{\"message\":\"tab\there\"}"), std::nullopt);  // a raw control byte
  EXPECT_EQ(Message(R"({"message":"bad \q escape"})"), std::nullopt);
}

// The differential check the fuzzer runs, on lines inside the subset (it must read them as
// nlohmann does) and outside it (it declines them).
TEST(JsonLogLine, SubsetAgreesWithTheFullParserLineByLine) {
  for (std::string_view line : {
           R"({"message":"a\tb","level":"warn","timestamp":"2024-05-01T01:17:02Z"})",
           R"({"fields":{"message":"inner"},"span":{"rank":3,"name":"shard-manager"}})",
           R"({"log":"x\n","n":[1,-2.5,{"k":null}],"t":true})",
           R"({"message":"caf\u00e9"})",
           R"({"message":"x","n":1e5})",
           R"({"message":"x" "level":"info"})",
           R"({"message":"x",})",
           "{\"message\":\"bad \xff byte\"}",
       }) {
    EXPECT_TRUE(JsonSubsetAgreesWithFullParser(line)) << line;
  }
}

// Strings are read a word at a time: a quote, escape, control byte or UTF-8 byte at every offset
// of the word must still be seen where it is (and the depth check must skip brackets in strings).
TEST(JsonLogLine, StringBytesAtEveryOffset) {
  for (size_t pad = 0; pad < 20; ++pad) {
    const std::string a(pad, 'a');
    EXPECT_EQ(Message("{\"message\":\"" + a + "\\\"q\"}"), a + "\"q") << pad;
    EXPECT_EQ(Message("{\"message\":\"" + a + "\\n\"}"), a) << pad;  // a last line break goes
    EXPECT_EQ(Message("{\"message\":\"" + a + "\tx\"}"), std::nullopt) << pad;
    EXPECT_EQ(Message("{\"message\":\"" + a + "\xc3\xa9\"}"), a + "\xc3\xa9") << pad;
    EXPECT_EQ(Message("{\"message\":\"" + a + "[[[[[{{{{\\\"]]\"}"), a + "[[[[[{{{{\"]]") << pad;
    EXPECT_EQ(Message("{\"message\":\"" + a), std::nullopt) << pad;  // unterminated
    for (const std::string& line :
         {"{\"message\":\"" + a + "\\\"q\"}", "{\"message\":\"" + a + "\x01\"}",
          "{\"message\":\"" + a + "\x7f\\/\"}", "{\"message\":\"" + a + "\xe2\x96\x88\"}"}) {
      EXPECT_TRUE(JsonSubsetAgreesWithFullParser(line)) << pad;
    }
  }
}

// tracing's span fields (TGI --json-output): the shard's number, from "span" before "spans" (whose
// innermost rank counts), named as the plain-text rules name it.
TEST(JsonLogLine, ReadsTheSpanRank) {
  auto rank = [](std::string_view line) -> std::string {
    std::string msg;
    auto j = ParseJsonLogLine(line, &msg);
    return j ? j->rank : "none";
  };
  EXPECT_EQ(
      rank(R"({"fields":{"message":"Starting shard"},"span":{"rank":1,"name":"shard-manager"},)"
           R"("spans":[{"rank":1,"name":"shard-manager"}]})"),
      "shard1");
  EXPECT_EQ(
      rank(R"({"message":"x","spans":[{"name":"a","rank":0},{"name":"shard-manager","rank":3}]})"),
      "shard3");
  EXPECT_EQ(rank(R"({"message":"x","span":{"rank":"2","name":"worker"},"spans":[{"rank":5}]})"),
            "rank2");
  EXPECT_EQ(rank(R"({"message":"x","span":{"name":"download"}})"), "");
  EXPECT_EQ(rank(R"({"message":"x","rank":4})"), "");
  EXPECT_EQ(rank(R"({"message":"x","span":{"rank":-1}})"), "");
  EXPECT_EQ(rank(R"({"message":"x","span":{"rank":{"n":1}},"fields":{"rank":2}})"), "");
}

// Docker's json-file driver around TGI's --json-output: the inner object is the line.
TEST(JsonLogLine, ReadsAJsonLineInsideAJsonLine) {
  std::string msg;
  auto j = ParseJsonLogLine(
      R"({"log":"{\"timestamp\":\"2024-05-01T01:00:07.618817Z\",\"level\":\"ERROR\",)"
      R"(\"fields\":{\"message\":\"Shard complete standard error output:\\n\\nKeyError\"},)"
      R"(\"span\":{\"rank\":1,\"name\":\"shard-manager\"}}\n","stream":"stdout",)"
      R"("time":"2024-05-01T01:00:08.000000000Z"})",
      &msg);
  ASSERT_TRUE(j);
  EXPECT_EQ(msg, "Shard complete standard error output: |  | KeyError");
  EXPECT_EQ(j->level, "ERROR");
  EXPECT_EQ(j->rank, "shard1");
  ASSERT_TRUE(j->time);
  EXPECT_EQ(j->time->second, 8);  // the wrapper's clock
  // An inner text that only looks like an object stays the message.
  EXPECT_EQ(Message(R"({"log":"{not json}"})"), "{not json}");
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// `journalctl -o json`: the time is "__REALTIME_TIMESTAMP" (microseconds since the epoch, a
// string), the program "SYSLOG_IDENTIFIER"; an RFC 3339 time field would win.
TEST(JsonLogLine, ReadsJournaldsTimeAndIdentifier) {
  std::string msg;
  auto j = ParseJsonLogLine(
      R"({"__REALTIME_TIMESTAMP":"1722289541791000","PRIORITY":"4","SYSLOG_IDENTIFIER":"systemd",)"
      R"("MESSAGE":"vllm.service: Failed with result 'timeout'."})",
      &msg);
  ASSERT_TRUE(j);
  EXPECT_EQ(msg, "vllm.service: Failed with result 'timeout'.");
  EXPECT_EQ(j->ident, "systemd");
  ASSERT_TRUE(j->time);
  EXPECT_EQ(j->time->year, 2024);
  EXPECT_EQ(j->time->hour, 21);
  EXPECT_EQ(j->time->minute, 45);
  EXPECT_EQ(j->time->second, 41);
  auto bad = ParseJsonLogLine(R"({"__REALTIME_TIMESTAMP":"17x2289541791000","MESSAGE":"m"})", &msg);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->time);
  EXPECT_TRUE(bad->ident.empty());
}

}  // namespace
}  // namespace spinup
