#include <gtest/gtest.h>

#include <string>

#include "logs/engine_prefix.h"
#include "logs/line_parser.h"

namespace spinup {
namespace {

TEST(TgiSpanRank, ReadsTheRankTgiAppendsAfterTheMessage) {
  EXPECT_EQ(TgiSpanRank("Shard ready in 20.1s rank=0"), "shard0");
  EXPECT_EQ(TgiSpanRank("Shard process was signaled to shutdown with signal 9 rank=12"), "shard12");
  EXPECT_EQ(TgiSpanRank("rank=1"), "");  // no message before it
  EXPECT_EQ(TgiSpanRank("Shard 0 failed to start"), "");
  EXPECT_EQ(TgiSpanRank("x rank="), "");
  EXPECT_EQ(TgiSpanRank("x rank=1234567"), "");  // not a shard number
  EXPECT_EQ(TgiSpanRank("x prank=1"), "");
  EXPECT_EQ(TgiSpanRank(""), "");
}

// The plain-text launcher line: the shard's number becomes the line's rank; the message is kept.
TEST(TgiSpanRank, ATgiLineCarriesItsShard) {
  ParsedLine p = ParseLine(
      "2024-05-01T01:00:09.618817Z ERROR shard-manager: text_generation_launcher: Shard process "
      "was signaled to shutdown with signal 9 rank=1");
  EXPECT_EQ(p.rank, "shard1");
  EXPECT_EQ(p.message, "Shard process was signaled to shutdown with signal 9 rank=1");
  EXPECT_EQ(
      ParseLine("2024-05-01T01:00:09.618817Z  INFO text_generation_launcher: Starting Webserver")
          .rank,
      "");
}

}  // namespace
}  // namespace spinup
