#include "logs/gram_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "logs/pattern_matcher_internal.h"

namespace spinup::gram_scan {
namespace {

std::vector<uint32_t> Hits(size_t (*kernel)(const unsigned char*, size_t, size_t, const uint64_t*,
                                            uint32_t*),
                           const std::string& text, size_t start, size_t end,
                           const std::vector<uint64_t>& bits) {
  std::vector<uint32_t> pos(text.size() / 2 + 2);
  const size_t n = kernel(reinterpret_cast<const unsigned char*>(text.data()), start, end,
                          bits.data(), pos.data());
  if (n == SIZE_MAX) return {UINT32_MAX};
  pos.resize(n);
  return pos;
}

// The plain kernel finds exactly the positions whose gram's bit is set.
TEST(GramScan, PlainFindsTheGramsInTheTable) {
  const std::string text = "xx Load weight begin. yyLoad";
  std::vector<uint64_t> bits(65536 / 64, 0);
  const unsigned key = pattern_internal::GramHash(reinterpret_cast<const unsigned char*>("load"));
  bits[key / 64] |= uint64_t{1} << (key % 64);
  // "Load" sits at 3 (odd: not scanned) and 24 (even).
  EXPECT_EQ(Hits(MarkHitsPlain, text, 0, text.size() - 3, bits), std::vector<uint32_t>{24});
  EXPECT_EQ(Hits(MarkHitsPlain, "  LOAD", 0, 3, bits), std::vector<uint32_t>{2});
  EXPECT_TRUE(Hits(MarkHitsPlain, text, 0, 24, bits).empty());
}

// The vector kernel gives the plain kernel's answer on every length, start and table density,
// at both ends of a block, with any bytes (high bytes, NULs, ESC).
TEST(GramScan, VectorKernelAgreesWithPlain) {
  std::mt19937_64 rng(12345);
  if (Hits(MarkHitsVector, "abcdefgh", 0, 5, std::vector<uint64_t>(1024)) ==
      std::vector<uint32_t>{UINT32_MAX}) {
    GTEST_SKIP() << "this CPU has no vector kernel";
  }
  int compared = 0, nonempty = 0;
  for (int density : {1, 8, 64, 512}) {
    std::vector<uint64_t> bits(65536 / 64, 0);
    for (int k = 0; k < 65536 / density; ++k) {
      const unsigned key = static_cast<unsigned>(rng() & 0xffff);
      bits[key / 64] |= uint64_t{1} << (key % 64);
    }
    for (size_t len = 4; len < 90; ++len) {
      std::string text(len, ' ');
      for (char& c : text) c = static_cast<char>(rng() % 4 == 0 ? rng() & 0xff : 'a' + rng() % 6);
      for (size_t start : {size_t{0}, size_t{2}, size_t{16}}) {
        for (size_t end : {len - 3, (len - 3) / 2, len > 40 ? len - 20 : size_t{1}}) {
          if (start > end) continue;
          const auto plain = Hits(MarkHitsPlain, text, start, end, bits);
          EXPECT_EQ(Hits(MarkHitsVector, text, start, end, bits), plain)
              << "len " << len << " start " << start << " end " << end;
          ++compared;
          nonempty += !plain.empty();
        }
      }
    }
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(nonempty, 200);
}

}  // namespace
}  // namespace spinup::gram_scan
