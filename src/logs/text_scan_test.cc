// scan::FindLineBreak: where a line ends, and which classes of bytes it may hold (LogStream skips
// the steps that need a byte the line lacks, so a class present must never be missed).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "logs/text_scan.h"

namespace spinup {
namespace {

using scan::FindLineBreak;

unsigned Classes(std::string_view s, size_t* at = nullptr) {
  unsigned bytes = 0;
  const size_t i = FindLineBreak(s, &bytes);
  if (at != nullptr) *at = i;
  return bytes;
}

TEST(FindLineBreak, EmptyTextHasNoBreakAndNoBytes) {
  size_t at = 99;
  EXPECT_EQ(Classes("", &at), 0u);
  EXPECT_EQ(at, 0u);
}

TEST(FindLineBreak, FindsTheFirstNewlineOrCarriageReturn) {
  size_t at = 0;
  Classes("abc\ndef", &at);
  EXPECT_EQ(at, 3u);
  Classes("abc\rdef\n", &at);
  EXPECT_EQ(at, 3u);
  Classes("\nabc", &at);
  EXPECT_EQ(at, 0u);
  // Past the first 16-byte step, and exactly at its boundary.
  Classes(std::string(40, 'x') + "\n" + std::string(40, 'y'), &at);
  EXPECT_EQ(at, 40u);
  Classes(std::string(16, 'x') + "\r\n", &at);
  EXPECT_EQ(at, 16u);
}

TEST(FindLineBreak, NoBreakMeansTheWholeText) {
  for (size_t n : {1u, 15u, 16u, 17u, 100u}) {
    size_t at = 0;
    EXPECT_EQ(Classes(std::string(n, 'a'), &at), 0u);
    EXPECT_EQ(at, n);
  }
}

TEST(FindLineBreak, ReportsEveryClassBeforeTheBreak) {
  // Each class at positions in the first 16-byte step, a later one, and the scalar tail.
  const std::pair<char, unsigned> cases[] = {{'%', scan::kPercent},      {'[', scan::kBracket},
                                             {'^', scan::kCaret},        {'&', scan::kAmp},
                                             {'\x1b', scan::kEscOrHigh}, {'\xe2', scan::kEscOrHigh},
                                             {'"', scan::kQuote}};
  for (const auto& [byte, cls] : cases) {
    for (size_t pos : {0u, 7u, 15u, 16u, 33u, 47u}) {
      std::string line(48, 'a');
      line[pos] = byte;
      EXPECT_EQ(Classes(line + "\nrest"), cls) << int(byte) << " at " << pos;
      EXPECT_EQ(Classes(line), cls) << int(byte) << " at " << pos << ", no line break";
    }
  }
}

TEST(FindLineBreak, APlainLineHasNoClass) {
  EXPECT_EQ(Classes("INFO 08-29 04:16:14 api.py:206] Started server process\nnext line"), 0u);
  EXPECT_EQ(Classes("  File x.py, line 12, in load_model\r"), 0u);
  EXPECT_EQ(Classes("  File \"x.py\", line 12, in load_model\r"), scan::kQuote);
}

TEST(FindLineBreak, BytesFarPastTheBreakAreNotReported) {
  // Bytes within the 16-byte step that holds the break may be reported; later ones never are.
  const std::string line = std::string(20, 'a') + "\n" + std::string(40, 'b') + "%[^\x1b";
  EXPECT_EQ(Classes(line), 0u);
}

TEST(FindLineBreak, ClassesCombine) {
  EXPECT_EQ(Classes("Loading: 45%|#### | [00:01<00:02] ^C\n"),
            scan::kPercent | scan::kBracket | scan::kCaret | scan::kAngle);
  EXPECT_EQ(Classes("Load weight end.  <-- stuck after this one\n") & scan::kAngle, scan::kAngle);
  EXPECT_EQ(Classes("Load weight end.\n") & scan::kAngle, 0u);
}

TEST(TextScan, MonthAndDayNamesAreReadFromTheirFirstThreeLetters) {
  EXPECT_EQ(scan::MonthNumber("Jan 09"), 1);
  EXPECT_EQ(scan::MonthNumber("December"), 12);
  EXPECT_EQ(scan::MonthNumber("Ja"), 0);
  EXPECT_EQ(scan::MonthNumber("jan"), 0);  // journalctl and date(1) print them capitalised
  EXPECT_TRUE(scan::IsDayName("Thu Apr 17"));
  EXPECT_TRUE(scan::IsDayName("Sunday"));
  EXPECT_FALSE(scan::IsDayName("Su"));
  EXPECT_FALSE(scan::IsDayName("Tux"));
}

}  // namespace
}  // namespace spinup
