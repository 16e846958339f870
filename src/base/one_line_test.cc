#include "base/one_line.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(OneLine, PlainAndValidUtf8PassUnchanged) {
  EXPECT_EQ(OneLine("model-00001-of-00002.safetensors"), "model-00001-of-00002.safetensors");
  EXPECT_EQ(OneLine("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(OneLine("a\tb"), "a b");
}

TEST(OneLine, C0C1AndEscapesBecomeQuestionMarks) {
  EXPECT_EQ(OneLine("a\x1b]0;owned\x07z"), "a?]0;owned?z");
  EXPECT_EQ(OneLine("x\ny\rz\x7f"), "x?y?z?");
  // C1 CSI as UTF-8 (U+009B) and as the raw 8-bit byte.
  EXPECT_EQ(OneLine("a\xc2\x9b"
                    "31mb"),
            "a?31mb");
  EXPECT_EQ(OneLine("a\x9b"
                    "31mb"),
            "a?31mb");
  // Bidirectional override (U+202E) and a line separator (U+2028).
  EXPECT_EQ(OneLine("a\xe2\x80\xae"
                    "b\xe2\x80\xa8"
                    "c"),
            "a?b?c");
}

TEST(OneLine, InvalidUtf8BecomesQuestionMarks) {
  EXPECT_EQ(OneLine("caf\xe9"), "caf?");
  EXPECT_EQ(OneLine("\xc0\xaf"), "??");       // overlong '/'
  EXPECT_EQ(OneLine("\xed\xa0\x80"), "???");  // surrogate
  EXPECT_EQ(OneLine("\xf0\x9f\x98"), "???");  // truncated
}

}  // namespace
}  // namespace spinup
