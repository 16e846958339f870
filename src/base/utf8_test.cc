#include "base/utf8.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(Utf8, ValidTextIsKept) {
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_EQ(ToValidUtf8("caf\xC3\xA9"), "caf\xC3\xA9");
}

TEST(Utf8, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_FALSE(IsValidUtf8("caf\xE9"));  // Latin-1 folder name
  EXPECT_EQ(ToValidUtf8("caf\xE9"), "caf\xEF\xBF\xBD");
  EXPECT_EQ(ToValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(ToValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(ToValidUtf8("a\xF4\x90\x80\x80"), "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(ToValidUtf8("x\xE2\x82"), "x\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated at the end
  EXPECT_TRUE(IsValidUtf8(ToValidUtf8("\xFF\xFE\x80 ok")));
}

}  // namespace
}  // namespace spinup
