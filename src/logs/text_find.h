// A word's search in a line, by a pair of its bytes 16 positions at a time: std::string_view::find
// stops at every copy of the word's first byte (a memchr call each, and a space or a 'd' is on
// every line), memmem sets up a table per call; both cost more over one log line.
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spinup::scan {

// s.find(word, from), looking first for the bytes word[j] and word[j + 1] (a rare pair tells
// quickest). j + 1 < word.size() when word has two bytes or more.
inline size_t FindWord(std::string_view s, std::string_view word, size_t from = 0, size_t j = 0) {
  const size_t m = word.size();
  if (m < 2 || j + 1 >= m) return s.find(word, from);
  if (from > s.size() || s.size() - from < m) return std::string_view::npos;
  const size_t starts = s.size() - m + 1;  // positions a match may start at
  auto same_at = [&](size_t at) { return std::memcmp(s.data() + at, word.data(), m) == 0; };
  size_t at = from;
#if defined(__SSE2__)
  // Reads s[at + j, at + j + 17), inside s while at + 16 <= starts (j + 1 < m).
  const __m128i c0 = _mm_set1_epi8(word[j]);
  const __m128i c1 = _mm_set1_epi8(word[j + 1]);
  for (; at + 16 <= starts; at += 16) {
    const char* q = s.data() + at + j;
    const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 1));
    auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x0, c0), _mm_cmpeq_epi8(x1, c1))));
    for (; mask != 0; mask &= mask - 1) {
      const size_t k = at + static_cast<size_t>(std::countr_zero(mask));
      if (same_at(k)) return k;
    }
  }
#endif
  for (; at < starts; ++at) {
    if (s[at + j] == word[j] && s[at + j + 1] == word[j + 1] && same_at(at)) return at;
  }
  return std::string_view::npos;
}

}  // namespace spinup::scan
