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

TEST(SgrRemnants, FindsColourCodesThatLostTheirEscape) {
  EXPECT_EQ(SgrRemnantAt("[2m2024", 0), 3u);
  EXPECT_EQ(SgrRemnantAt("x[1;36m(", 1), 6u);
  EXPECT_EQ(SgrRemnantAt("^[[0m", 0), 5u);
  EXPECT_EQ(SgrRemnantAt("[2026-03-09 12:01:53]", 0), 0u);  // SGLang's time
  EXPECT_EQ(SgrRemnantAt("[05/01/2025-01:00:00]", 0), 0u);  // TensorRT-LLM's
  EXPECT_EQ(SgrRemnantAt("[m", 0), 0u);
  EXPECT_EQ(SgrRemnantAt("[12", 0), 0u);
}

// syslog writes ESC as "#033" (rsyslog, CloudWatch exports of a TGI container on SageMaker).
TEST(SgrRemnants, SyslogsOctalEscapeGoesWithTheCode) {
  std::string out;
  ASSERT_TRUE(StripSgrRemnants(
      "#033[2m2024-03-20T10:00:18.961181Z#033[0m #033[32m INFO#033[0m router: Connected", &out));
  EXPECT_EQ(out, "2024-03-20T10:00:18.961181Z  INFO router: Connected");
  ASSERT_TRUE(StripSgrRemnants("#033[2mx#033[0m issue #033 [y]", &out));
  EXPECT_EQ(out, "x issue #033 [y]");  // not followed by a colour code: kept
}

TEST(SgrRemnants, ALineColouredNearItsStartLosesThemAll) {
  std::string out = "untouched";
  // Only near the start (after a wrapper's prefix at most): text far into a message is left alone.
  EXPECT_FALSE(StripSgrRemnants(std::string(60, 'a') + " [2m x", &out));
  EXPECT_FALSE(StripSgrRemnants("[INFO] [2026-03-09 12:01:53] ^[x \x1b[0m", &out));
  EXPECT_EQ(out, "untouched");
  ASSERT_TRUE(StripSgrRemnants("tgi-1  | [2m2024-05-01T01:00:00Z[0m [32m INFO[0m x", &out));
  EXPECT_EQ(out, "tgi-1  | 2024-05-01T01:00:00Z  INFO x");
  ASSERT_TRUE(StripSgrRemnants(
      "[2m2024-05-01T01:00:00.618817Z[0m [32m INFO[0m [2mtext_generation_launcher[0m[2m:[0m "
      "Shard ready in 10.1s [2m[3mrank[0m[2m=[0m0[0m [x] ^[y",
      &out));
  EXPECT_EQ(out,
            "2024-05-01T01:00:00.618817Z  INFO text_generation_launcher: Shard ready in 10.1s "
            "rank=0 [x] ^[y");
  std::string scratch;
  ParsedLine p = ParseLine(CleanLine(
      "[2m2024-05-01T01:00:11.618817Z[0m [32m INFO[0m [1mshard-manager[0m: "
      "[2mtext_generation_launcher[0m[2m:[0m Shard ready in 10.1s [2m[3mrank[0m[2m=[0m0[0m",
      &scratch));
  EXPECT_EQ(p.message, "Shard ready in 10.1s rank=0");
  EXPECT_EQ(p.level, "INFO");
  EXPECT_EQ(p.rank, "shard0");
  EXPECT_EQ(CleanLine("^[[31mERROR^[[0m \x1b[1mx\x1b[0m \xff", &scratch), "ERROR x \xef\xbf\xbd");
}

// One pass: a remnant that stripping forms anew is left (no recursion over a crafted line).
TEST(SgrRemnants, OnePassOnly) {
  std::string scratch;
  EXPECT_EQ(CleanLine("[[0m0m x", &scratch), "[0m x");
  std::string nested = std::string(100000, '[') + std::string(100000, 'm');
  EXPECT_EQ(CleanLine(nested, &scratch), nested);
  std::string deep = "[0m";  // coloured at its start, then 20000 remnants nested in each other
  for (int i = 0; i < 20000; ++i) deep += "[";
  for (int i = 0; i < 20000; ++i) deep += "0m";
  EXPECT_EQ(CleanLine(deep, &scratch).size(), deep.size() - 6);  // the first and the innermost
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// Docker's json-file lines keep TGI's colours as JSON escapes ("\u001b[2m"): the code after one is
// a whole escape sequence the JSON reader decodes, not a remnant to strip from the JSON text
// (which left a bare ESC glued to the next word once decoded).
TEST(SgrRemnants, AJsonEscapedEscKeepsItsCode) {
  std::string out = "untouched";
  EXPECT_FALSE(
      StripSgrRemnants(R"({"log":"\u001b[2m2024-07-03T12:01:51Z\u001b[0m \u001b[32m INFO)", &out));
  EXPECT_FALSE(StripSgrRemnants(R"(x \u001B[32m INFO)", &out));
  EXPECT_EQ(out, "untouched");
  ASSERT_TRUE(StripSgrRemnants(R"(x [32m INFO \u001b[0m y)", &out));
  EXPECT_EQ(out, R"(x  INFO \u001b[0m y)");
}

// Blanks left at the end once a colour code is gone are the line's end too: rules anchor there.
TEST(CleanLine, BlanksLeftByColourCodesAtTheEndGo) {
  std::string scratch;
  EXPECT_EQ(CleanLine("router: Connected \x1b[0m", &scratch), "router: Connected");
  EXPECT_EQ(CleanLine("router: Connected [0m  ", &scratch), "router: Connected");
  EXPECT_EQ(CleanLine("plain line  ", &scratch), "plain line");
}

}  // namespace
}  // namespace spinup
