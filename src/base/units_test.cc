#include "base/units.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(ParseByteSize, DecimalAndBinaryUnits) {
  EXPECT_EQ(*ParseByteSize("96GiB"), 96ULL * 1024 * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("80GB"), 80'000'000'000ULL);
  EXPECT_EQ(*ParseByteSize("80G"), 80'000'000'000ULL);
  EXPECT_EQ(*ParseByteSize("1.5KiB"), 1536ULL);
  EXPECT_EQ(*ParseByteSize("2.2 TB"), 2'200'000'000'000ULL);
  EXPECT_EQ(*ParseByteSize("512"), 512ULL);
  EXPECT_EQ(*ParseByteSize("512B"), 512ULL);
  EXPECT_EQ(*ParseByteSize("7mib"), 7ULL << 20);
  EXPECT_EQ(*ParseByteSize("1Pi"), 1ULL << 50);
}

TEST(ParseByteSize, RejectsJunk) {
  for (const char* bad : {"", "GB", "-5GB", "1e9", "12XB", "1.2.3GB", "5 GiBs", "abc",
                          "99999999999999999999999EB", "1..5"}) {
    EXPECT_FALSE(ParseByteSize(bad).ok()) << bad;
  }
  EXPECT_FALSE(ParseByteSize("20000PB").ok());  // above 2^64
}

TEST(ParseByteRate, AcceptsPerSecondSuffix) {
  EXPECT_DOUBLE_EQ(*ParseByteRate("500MB/s"), 500e6);
  EXPECT_DOUBLE_EQ(*ParseByteRate("2.2GB/s"), 2.2e9);
  EXPECT_DOUBLE_EQ(*ParseByteRate("1GiB/s"), 1073741824.0);
  EXPECT_DOUBLE_EQ(*ParseByteRate("750MB"), 750e6);
  EXPECT_FALSE(ParseByteRate("0MB/s").ok());
  EXPECT_FALSE(ParseByteRate("fast").ok());
  EXPECT_FALSE(ParseByteRate("/s").ok());
}

TEST(FormatUnits, PrintsWhatPeopleRead) {
  EXPECT_EQ(FormatBytes(241'500'000'000ULL), "241.5 GB");
  EXPECT_EQ(FormatBytes(999), "999 B");
  EXPECT_EQ(FormatBytes(1'000), "1.0 kB");
  EXPECT_EQ(FormatBytes(999'999), "1.0 MB");
  EXPECT_EQ(FormatBytesBinary(1536), "1.5 KiB");
  EXPECT_EQ(FormatRate(500e6), "500 MB/s");
  EXPECT_EQ(FormatRate(2.2e9), "2.2 GB/s");
  EXPECT_EQ(FormatApproxDuration(483), "about 8 min");
  EXPECT_EQ(FormatApproxDuration(40.2), "about 40 s");
  EXPECT_EQ(FormatApproxDuration(0.01), "under 1 s");
  EXPECT_EQ(FormatApproxDuration(0.6), "about 1 s");
  EXPECT_EQ(FormatApproxDuration(2 * 3600 + 5 * 60), "about 2 h 5 min");
}

}  // namespace
}  // namespace spinup
