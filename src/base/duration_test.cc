#include "base/duration.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(ParseDurationTest, Forms) {
  EXPECT_DOUBLE_EQ(*ParseDuration("0.2s"), 0.2);
  EXPECT_DOUBLE_EQ(*ParseDuration("90s"), 90);
  EXPECT_DOUBLE_EQ(*ParseDuration("5m"), 300);
  EXPECT_DOUBLE_EQ(*ParseDuration("1h30m"), 5400);
  EXPECT_DOUBLE_EQ(*ParseDuration("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(*ParseDuration("3"), 3);
  EXPECT_DOUBLE_EQ(*ParseDuration("2min"), 120);
  EXPECT_DOUBLE_EQ(*ParseDuration("2d3h"), 2 * 86400 + 3 * 3600);  // kubectl's AGE
}

TEST(ParseDurationTest, Rejects) {
  for (const char* bad : {"", "s", "-1s", "5x", "1.2.3s", "3 s", "5s3", "99999999999h"}) {
    EXPECT_FALSE(ParseDuration(bad).ok()) << bad;
  }
}

TEST(FormatDurationShortTest, Forms) {
  EXPECT_EQ(FormatDurationShort(0.85), "850ms");
  EXPECT_EQ(FormatDurationShort(42), "42s");
  EXPECT_EQ(FormatDurationShort(130), "2m10s");
  EXPECT_EQ(FormatDurationShort(3900), "1h05m");
}

}  // namespace
}  // namespace spinup
