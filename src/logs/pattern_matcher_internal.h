// Pieces the pattern matcher's build (pattern_matcher_build.cc) and its match path
// (pattern_matcher.cc) share. Internal to src/logs.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace spinup::pattern_internal {

// Reading a regex's text (pattern_literals.cc, where each is described).
std::vector<std::string_view> TopLevelAlternatives(std::string_view regex,
                                                   bool* top_flags = nullptr);
bool IsAnchored(std::string_view regex);
std::optional<std::string> PlainLiteral(std::string_view re);
std::string LeadingLiteral(std::string_view part);
std::vector<std::string> AnchoredHeads(std::string_view regex);
std::string RequiredBytes(std::string_view regex);

// One literal string a regex stands for: where a match of it may sit.
struct PlainLiteralPart {
  enum class End : uint8_t { kAnywhere, kAtEnd, kBeforeSpace };  // "", "$", "\\s*$" after it
  bool prefix = false;                                           // '^' before it
  std::string text;
  End end = End::kAnywhere;
};
std::optional<std::vector<PlainLiteralPart>> PlainLiterals(std::string_view regex);
std::optional<std::vector<PlainLiteralPart>> LiteralSet(std::string_view re);
std::optional<std::vector<PlainLiteralPart>> AlternativeLiterals(std::string_view part);

// RE2's \s: [\t\n\f\r ].
inline bool IsRe2Space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

// One step of the start every match of an anchored regex has: a byte of a class (RE2's \\s \\S
// \\d \\D \\w \\W, or one literal byte), once or ('+') as a run. The class as a bit per byte:
// one shift and mask per byte read.
struct LeadItem {
  uint64_t bits[4] = {0, 0, 0, 0};
  bool run = false;
  bool Has(char c) const {
    const auto u = static_cast<unsigned char>(c);
    return (bits[u >> 6] >> (u & 63) & 1) != 0;
  }
};
// The steps an anchored regex starts with ("^\\S+\\s+\\d+/": non-blanks, blanks, digits, '/'),
// up to the first it does not read or whose start a run before it may swallow: each run's class
// shares no byte with the next step's, so the run ends where its bytes do and one pass over the
// message, no backtracking, tells whether it can start a match. At most 8; empty when fewer than
// 2 or when none is a class (literal bytes alone say no more than the rule's match range).
std::vector<LeadItem> LeadItems(std::string_view regex);
// Whether `message` starts with the steps (LeadItems): false only where the regex cannot match.
inline bool LeadAdmits(const std::vector<LeadItem>& lead, std::string_view message) {
  size_t at = 0;
  for (const LeadItem& item : lead) {
    if (at >= message.size() || !item.Has(message[at])) return false;
    ++at;
    if (item.run) {
      while (at < message.size() && item.Has(message[at])) ++at;
    }
  }
  return true;
}

// How common a byte is in log text, 1 (rare) to 46 (' '): picks the grams and bytes the scans
// look for.
inline long CommonByte(unsigned char c) {
  static const auto kTable = [] {
    constexpr std::string_view kByFrequency = " etaoinsrhldcu.,mpfgy-/:wb_=v[]()k0123456789";
    struct T {
      long t[256];
    } table{};
    for (long& v : table.t) v = 1;
    for (size_t k = 0; k < kByFrequency.size(); ++k) {
      table.t[static_cast<unsigned char>(kByFrequency[k])] =
          static_cast<long>(kByFrequency.size() - k + 1);
    }
    return table;
  }();
  return kTable.t[c];
}

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
constexpr uint32_t kGramMul = 2654435761u;
inline unsigned GramHash(const unsigned char* q) {
  uint32_t w;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&w, q, 4);
  } else {
    w = uint32_t{q[0]} | uint32_t{q[1]} << 8 | uint32_t{q[2]} << 16 | uint32_t{q[3]} << 24;
  }
  return ((w | 0x20202020u) * kGramMul) >> 16;
}

// GramHash of the grams at q, q + 2, ..., q + 14 (reading q[0, 18)): the same numbers, eight at
// once where SSE2 is there (every x86-64). With a gram g = l + h * 2^16 and the multiplier
// k0 + k1 * 2^16, bits 16..31 of g * K are hi16(l * k0) + lo16(l * k1) + lo16(h * k0), mod 2^16:
// three 16-bit multiplies of eight lanes.
inline void GramHash8(const unsigned char* q, uint16_t out[8]) {
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
  const __m128i lower = _mm_set1_epi8(0x20);
  const __m128i l = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)), lower);
  const __m128i h = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 2)), lower);
  const __m128i k0 = _mm_set1_epi16(static_cast<short>(kGramMul & 0xffff));
  const __m128i k1 = _mm_set1_epi16(static_cast<short>(kGramMul >> 16));
  __m128i sum = _mm_add_epi16(_mm_mulhi_epu16(l, k0), _mm_mullo_epi16(l, k1));
  sum = _mm_add_epi16(sum, _mm_mullo_epi16(h, k0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), sum);
#else
  for (int j = 0; j < 8; ++j) out[j] = static_cast<uint16_t>(GramHash(q + 2 * j));
#endif
}

}  // namespace spinup::pattern_internal
