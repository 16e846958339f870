// Line prefixes written under a Chinese, Japanese or Korean locale (red-team round 27).
#include <gtest/gtest.h>

#include "logs/line_parser.h"

namespace spinup {
namespace {

// journalctl under a Chinese, Japanese or Korean locale prints the month as "3月" / "12월".
TEST(ParseLine, JournalctlShortInACjkLocale) {
  auto p = ParseLine("3月 28 09:02:20 h800 vllm[4410]: INFO 03-28 09:02:20 [x.py:1] hello");
  EXPECT_EQ(p.message, "hello");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 3);
  EXPECT_EQ(p.wrapper_time->day, 28);
  p = ParseLine("12월  1 23:59:59 node systemd[1]: Started vllm.service.");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 12);
  EXPECT_EQ(p.wrapper_time->hour, 23);
  EXPECT_FALSE(ParseLine("13月 28 09:02:20 h vllm[1]: x").wrapper_time);
  // Under a German locale: "Mär", "Mai", "Okt", "Dez".
  p = ParseLine("Mär 12 09:02:20 h800 vllm[4410]: INFO 03-12 09:02:20 [x.py:1] hello");
  EXPECT_EQ(p.message, "hello");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 3);
  p = ParseLine("Okt 02 23:59:59 node systemd[1]: Started vllm.service.");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 10);
}

// docker --timestamps (UTC) over an engine in TZ=Asia/Shanghai: the engine's zone's offset.
TEST(ParseLine, EngineZoneBesideAUtcWrapper) {
  auto p = ParseLine("2025-06-20T02:12:51.993Z INFO 06-20 10:12:51 [api_server.py:1] hello");
  ASSERT_TRUE(p.local_offset_min.has_value());
  EXPECT_EQ(*p.local_offset_min, 480);
  p = ParseLine("2025-06-20T02:12:51.993Z INFO 06-20 02:12:52 [api_server.py:1] hello");
  ASSERT_TRUE(p.local_offset_min.has_value());
  EXPECT_EQ(*p.local_offset_min, 0);
  p = ParseLine("2025-06-20T02:12:51.993Z INFO 06-20 02:19:52 [api_server.py:1] hello");
  EXPECT_FALSE(p.local_offset_min.has_value());  // seven minutes is no zone
}

// The reverse: journalctl's local stamp beside TGI's own UTC one gives the journal's zone, and a
// line with only the journal's stamp says its clock is local.
TEST(ParseLine, WrapperZoneBesideTheEnginesUtc) {
  auto p = ParseLine(
      "Mar 09 01:58:52 gpu07 text-generation-launcher[88121]: 2025-03-09T06:58:52.104812Z  INFO "
      "text_generation_launcher: Args { model_id: \"m\" }");
  ASSERT_TRUE(p.wrapper_offset_min.has_value());
  EXPECT_EQ(*p.wrapper_offset_min, -300);
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->hour, 6);  // the engine's own clock
  p = ParseLine("Mar 09 01:58:51 gpu07 systemd[1]: Started tgi.service.");
  EXPECT_FALSE(p.wrapper_offset_min.has_value());
  EXPECT_TRUE(p.local_wrapper_clock);
  // docker --timestamps is UTC itself: no zone to learn, and its stamp is no local clock.
  p = ParseLine(
      "2025-03-09T06:58:52.100000000Z 2025-03-09T06:58:52.104812Z  INFO text_generation_launcher: "
      "Args");
  EXPECT_FALSE(p.wrapper_offset_min.has_value());
  EXPECT_FALSE(p.local_wrapper_clock);
}

// Python logging's `%m/%d/%Y %I:%M:%S %p` (a US locale's date, a 12-hour clock) before vLLM's line.
TEST(ParseLine, UsDateWithTwelveHourClock) {
  auto p =
      ParseLine("03/14/2025 12:01:12 PM INFO [model_runner.py:1] Loading model weights took 4 GB");
  EXPECT_EQ(p.message, "Loading model weights took 4 GB");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 3);
  EXPECT_EQ(p.wrapper_time->day, 14);
  EXPECT_EQ(p.wrapper_time->hour, 12);
  p = ParseLine("03/14/2025 12:30:00 AM INFO [x.py:1] hello");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->hour, 0);
  p = ParseLine("03/14/2025 01:02:03 PM INFO [x.py:1] hello");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->hour, 13);
  EXPECT_FALSE(ParseLine("13/14/2025 01:02:03 PM INFO [x.py:1] hello").wrapper_time);
}

}  // namespace
}  // namespace spinup
