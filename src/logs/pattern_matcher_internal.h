// Pieces the pattern matcher's build (pattern_matcher_build.cc) and its match path
// (pattern_matcher.cc) share. Internal to src/logs.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace spinup::pattern_internal {

// The first 8 bytes of s (zero-padded) as a big-endian number: numbers compare as the bytes do.
inline uint64_t BigEndian8(std::string_view s) {
  uint64_t v = 0;
  if (s.size() >= 8) {
    std::memcpy(&v, s.data(), 8);
    if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
    return v;
  }
  for (size_t k = 0; k < 8; ++k) {
    v = v << 8 | (k < s.size() ? static_cast<unsigned char>(s[k]) : 0u);
  }
  return v;
}

// A 16-bit hash of the four bytes at q, each ORed with 0x20 (ASCII letters lowercased; a few
// punctuation pairs such as '[' and '{' fold together, which only costs a rare extra check):
// the scan's table index. Four bytes, not three: log text is full of the trigrams of common
// words ("oad", "ing", "err"), and every position whose gram is in the table costs a check.
inline unsigned GramHash(const unsigned char* q) {
  uint32_t w;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&w, q, 4);
  } else {
    w = uint32_t{q[0]} | uint32_t{q[1]} << 8 | uint32_t{q[2]} << 16 | uint32_t{q[3]} << 24;
  }
  return ((w | 0x20202020u) * 2654435761u) >> 16;
}

}  // namespace spinup::pattern_internal
