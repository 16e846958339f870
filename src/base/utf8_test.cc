#include "base/utf8.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(Utf8, ValidTextPassesAndInvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(ToValidUtf8("caf\xc3\xa9 \xe2\x80\x93 ok"), "caf\xc3\xa9 \xe2\x80\x93 ok");
  EXPECT_EQ(ToValidUtf8("caf\xe9"), "caf\xef\xbf\xbd");                            // Latin-1 byte
  EXPECT_EQ(ToValidUtf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");                  // overlong
  EXPECT_EQ(ToValidUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // surrogate
  EXPECT_EQ(ToValidUtf8("\xf0\x9f\x98"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // cut short
  uint32_t cp = 0;
  EXPECT_EQ(Utf8Length("\xf0\x9f\x98\x80", 0, &cp), 4u);
  EXPECT_EQ(cp, 0x1f600u);
}

}  // namespace
}  // namespace spinup
