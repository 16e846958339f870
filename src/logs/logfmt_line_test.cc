#include "logs/logfmt_line.h"

#include <gtest/gtest.h>

#include <string>

namespace spinup {
namespace {

TEST(LogfmtLine, ReadsMessageLevelAndTime) {
  std::string msg;
  auto j = ParseLogfmtLine(
      R"(ts=2024-08-19T11:20:01.300000Z level=info target=text_generation_launcher )"
      R"(msg="Download file: \"model-00019-of-00030.safetensors\"" pod=tgi-0)",
      &msg);
  ASSERT_TRUE(j);
  EXPECT_EQ(msg, R"(Download file: "model-00019-of-00030.safetensors")");
  EXPECT_EQ(j->level, "INFO");
  ASSERT_TRUE(j->time);
  EXPECT_EQ(j->time->hour, 11);
  EXPECT_EQ(j->time->minute, 20);
  // A bare message, and escaped line breaks kept as breaks (a trailing one dropped).
  ASSERT_TRUE(ParseLogfmtLine("level=error msg=boom", &msg));
  EXPECT_EQ(msg, "boom");
  ASSERT_TRUE(ParseLogfmtLine(R"(lvl=warn message="Traceback\n  File x\n")", &msg));
  EXPECT_EQ(msg, "Traceback\n  File x");
}

TEST(LogfmtLine, DeclinesWhatIsNotLogfmt) {
  std::string msg;
  EXPECT_FALSE(ParseLogfmtLine("level=info took 3 s", &msg));                 // a bare word
  EXPECT_FALSE(ParseLogfmtLine("level=info ts=2024-08-19T11:20:01Z", &msg));  // no message
  EXPECT_FALSE(ParseLogfmtLine(R"(msg="unterminated level=info)", &msg));
  EXPECT_FALSE(ParseLogfmtLine(R"(msg="a"level=info)", &msg));  // a quote glued to a key
  EXPECT_FALSE(ParseLogfmtLine("msg=alone", &msg));             // one pair is no record
  EXPECT_FALSE(ParseLogfmtLine("INFO 08-19 11:20:01 Loading weights took 3 s", &msg));
  EXPECT_FALSE(MayBeLogfmt("Loading safetensors checkpoint shards"));
}

}  // namespace
}  // namespace spinup
