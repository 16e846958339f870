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
}

}  // namespace
}  // namespace spinup
