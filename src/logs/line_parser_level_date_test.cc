// A level word before a full date: Ray Serve's controller and replica lines, Python loggers
// formatted "%(levelname)s %(asctime)s" (red-team round twenty-nine).
#include <gtest/gtest.h>

#include "logs/line_parser.h"

namespace spinup {
namespace {

TEST(ParseLine, RayServesLevelBeforeTheDate) {
  const auto p = ParseLine(
      "(ServeController pid=377) INFO 2025-07-01 10:02:01,204 controller 377 -- Adding 1 "
      "replica to Deployment(name='LLMServer:m', app='a').");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->year, 2025);
  EXPECT_EQ(p.time->month, 7);
  EXPECT_EQ(p.time->hour * 3600 + p.time->minute * 60 + p.time->second, 10 * 3600 + 2 * 60 + 1);
  EXPECT_EQ(p.level, "INFO");
  // Where Ray logs from is cut; what it says is the message. No engine prints this form.
  EXPECT_EQ(p.message, "Adding 1 replica to Deployment(name='LLMServer:m', app='a').");
  EXPECT_EQ(p.style, PrefixStyle::kPython);
}

TEST(ParseLine, ALevelAndADateWithoutRaysComponent) {
  const auto p = ParseLine("WARNING 2025-07-01 10:02:01 the pool is small");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.message, "the pool is small");
  // vLLM's own month-day form is still vLLM's.
  EXPECT_EQ(ParseLine("INFO 07-01 10:02:01 [core.py:58] hello").style, PrefixStyle::kVllm);
  // A date that is no date leaves the line as it was read before.
  EXPECT_FALSE(ParseLine("INFO 2025-13-01 10:02:01 x").time);
}

// DeepSpeed's logger puts its time in SGLang's bracket, then a bracketed level and source: a
// Python logger's line, not SGLang's (no engine is read from it).
TEST(ParseLine, DeepSpeedsBracketedLevelAndSource) {
  const auto p = ParseLine(
      "[2024-11-05 21:10:55,661] [INFO] [comm.py:683:init_distributed] Initializing TorchBackend");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.level, "INFO");
  EXPECT_EQ(p.message, "Initializing TorchBackend");
  EXPECT_EQ(p.style, PrefixStyle::kPython);
  // SGLang's own line stays SGLang's, and a bracket that names no source file is the message's.
  EXPECT_EQ(ParseLine("[2024-11-05 21:10:55 TP0] Load weight begin.").style, PrefixStyle::kSglang);
  EXPECT_EQ(ParseLine("[2024-11-05 21:10:55] [INFO] [note] x").message, "[INFO] [note] x");
}

// `ts '%F %T %Z'` and Cloud Logging's copies name the zone after a shipper's stamp; a level is no
// zone.
TEST(ParseLine, ZoneNameAfterAShippersStamp) {
  const ParsedLine p = ParseLine(
      "2025-08-19 11:02:11 CEST INFO 08-19 09:02:11 [api_server.py:1805] vLLM API "
      "server version 0.10.1.1");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->hour, 11);
  EXPECT_FALSE(p.utc_stamp);
  EXPECT_EQ(p.message, "vLLM API server version 0.10.1.1");
  EXPECT_TRUE(ParseLine("2025-08-19 09:02:11.5 UTC Starting to load model m...").utc_stamp);
  EXPECT_EQ(ParseLine("2025-08-19 09:02:11 ERROR boom").level, "ERROR");
  // A script's own capitalised first word is no zone.
  EXPECT_EQ(ParseLine("2025-08-19 09:02:11 CUDA error: out of memory").message,
            "CUDA error: out of memory");
}

}  // namespace
}  // namespace spinup
