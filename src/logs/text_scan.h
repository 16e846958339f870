// Small scanners shared by the log line parsers (line_parser.cc, engine_prefix.cc, log_stream.cc):
// line ends, digits, clocks, dates and levels at a position in untrusted text. Internal to
// src/logs; every index is checked.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "logs/line_parser.h"

namespace spinup::scan {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool IsAlnum(char c) { return IsDigit(c) || IsUpper(c) || (c >= 'a' && c <= 'z'); }
inline bool At(std::string_view s, size_t i, char c) { return i < s.size() && s[i] == c; }
// Flags (0x80 in its byte) the bytes of the 8-byte word w that equal `byte`: exact for the lowest
// flagged byte, which is all a search needs (a flag above a matching byte may be spurious).
inline uint64_t FlagByte(uint64_t w, unsigned char byte) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  const uint64_t x = w ^ (byte * kOnes);
  return (x - kOnes) & ~x & (0x80 * kOnes);
}

// The index of the first byte of s[from, ...) that is `a` or `b`, else npos: 8 bytes a step,
// inline (for the short scans of a line's first bytes a call to memchr costs more than the
// search, and prefix parsing runs several on every line).
inline size_t FindEither(std::string_view s, char a, char b, size_t from = 0) {
  size_t i = from;
#ifdef __SSE2__
  // 16 bytes a step where SSE2 is there (every x86-64); the words below take the rest.
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
    if (hit != 0) return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(hit)));
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      const uint64_t hit =
          FlagByte(w, static_cast<unsigned char>(a)) | FlagByte(w, static_cast<unsigned char>(b));
      if (hit != 0) return i + static_cast<size_t>(std::countr_zero(hit)) / 8;
    }
  }
  for (; i < s.size(); ++i) {
    if (s[i] == a || s[i] == b) return i;
  }
  return std::string_view::npos;
}

// s.find(c, from), the same way.
inline size_t FindByte(std::string_view s, char c, size_t from = 0) {
  return FindEither(s, c, c, from);
}

// std::count(s.begin(), s.end(), c), 16 bytes a step where SSE2 is there: bare lines are many, and
// a byte loop costs a few instructions a byte.
inline size_t CountByte(std::string_view s, char c) {
  size_t n = 0;
  size_t i = 0;
#ifdef __SSE2__
  const __m128i vc = _mm_set1_epi8(c);
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    n += static_cast<size_t>(
        std::popcount(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, vc)))));
  }
#endif
  for (; i < s.size(); ++i) n += s[i] == c ? 1 : 0;
  return n;
}

// Classes of bytes a line may hold, noted by FindLineBreak on its way to the line's end: a step
// that needs a byte the line lacks is skipped.
enum LineBytes : unsigned {
  kEscOrHigh = 1u,   // ESC or a byte >= 0x80: escape sequences, UTF-8 (CleanLine)
  kPercent = 2u,     // '%': a tqdm bar
  kBracket = 4u,     // '[': a colour code that lost its ESC
  kCaret = 8u,       // '^': a terminal's echo of Ctrl+C
  kAmp = 16u,        // '&': HTML entities of a paste copied from a page's source
  kQuote = 32u,      // '"': a traceback's frame, a JSON line (wrapped_lines.h)
  kAngle = 64u,      // '<': a writer's arrow note behind the line ("<-- stuck here")
  kAnyBytes = 127u,  // nothing known
};

// The index of the first '\n' or '\r' in s, else s.size(). *bytes gets the LineBytes classes of
// the bytes before it (never one too few; bytes up to 15 past the break may add some). 16 bytes a
// step where SSE2 is there (every x86-64), inline: a memchr call per line, and another for '\r',
// cost more.
[[gnu::always_inline]] inline size_t FindLineBreak(std::string_view s, unsigned* bytes) {
  size_t i = 0;
  unsigned seen = 0;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), esc = _mm_set1_epi8(0x1b);
  const __m128i pct = _mm_set1_epi8('%'), br = _mm_set1_epi8('['), caret = _mm_set1_epi8('^');
  const __m128i amp = _mm_set1_epi8('&'), quote = _mm_set1_epi8('"'), angle = _mm_set1_epi8('<');
  __m128i odd = _mm_setzero_si128(), p = odd, b = odd, c = odd, a = odd, q = odd, l = odd;
  auto classes = [&] {
    return (_mm_movemask_epi8(odd) != 0 ? kEscOrHigh : 0u) |
           (_mm_movemask_epi8(p) != 0 ? kPercent : 0u) |
           (_mm_movemask_epi8(b) != 0 ? kBracket : 0u) | (_mm_movemask_epi8(c) != 0 ? kCaret : 0u) |
           (_mm_movemask_epi8(a) != 0 ? kAmp : 0u) | (_mm_movemask_epi8(q) != 0 ? kQuote : 0u) |
           (_mm_movemask_epi8(l) != 0 ? kAngle : 0u);
  };
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    odd = _mm_or_si128(odd, _mm_or_si128(v, _mm_cmpeq_epi8(v, esc)));
    p = _mm_or_si128(p, _mm_cmpeq_epi8(v, pct));
    b = _mm_or_si128(b, _mm_cmpeq_epi8(v, br));
    c = _mm_or_si128(c, _mm_cmpeq_epi8(v, caret));
    a = _mm_or_si128(a, _mm_cmpeq_epi8(v, amp));
    q = _mm_or_si128(q, _mm_cmpeq_epi8(v, quote));
    l = _mm_or_si128(l, _mm_cmpeq_epi8(v, angle));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
    if (hit != 0) {
      *bytes = classes();
      return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(hit)));
    }
  }
  seen = classes();
#endif
  for (; i < s.size() && s[i] != '\n' && s[i] != '\r'; ++i) {
    const char ch = s[i];
    if (ch == 0x1b || static_cast<unsigned char>(ch) >= 0x80) seen |= kEscOrHigh;
    if (ch == '%') seen |= kPercent;
    if (ch == '[') seen |= kBracket;
    if (ch == '^') seen |= kCaret;
    if (ch == '&') seen |= kAmp;
    if (ch == '"') seen |= kQuote;
    if (ch == '<') seen |= kAngle;
  }
  *bytes = seen;
  return i;
}

// Reads exactly n digits at s[i..]; returns -1 when they are not all digits.
int Digits(std::string_view s, size_t i, size_t n);
// HH:MM:SS at s[i]; fills t, returns the index after it or npos.
size_t ParseClock(std::string_view s, size_t i, CivilTime& t);
// Optional fraction (.123 or ,123 with any number of digits): milliseconds kept.
size_t ParseFraction(std::string_view s, size_t i, CivilTime& t);
// YYYY-MM-DD at s[i] followed by `sep` and a clock. Returns the index after the clock; an
// impossible date (2026-02-30) is no date.
size_t ParseDateTime(std::string_view s, size_t i, char sep, CivilTime& t);
// RFC 3339 as docker/kubectl print it (2026-03-09T12:01:49.123456789Z, +00:00, +0000), in UTC.
size_t ParseRfc3339(std::string_view s, size_t i, CivilTime& t);
// INFO, WARNING, ERROR, DEBUG, CRITICAL, WARN, TRACE, FATAL.
bool IsLevel(std::string_view w);
// A space and a time zone's common name at s[i] (" CEST", " UTC", " PDT") followed by a space, as
// `ts '%F %T %Z'` and Cloud Logging's copies print it after the time.
// Returns the index of the space after it, or npos; on success *utc says whether it names UTC
// itself (UTC, GMT).
size_t SkipZoneName(std::string_view s, size_t i, bool* utc);
// 1-12 for a month's English abbreviation at the start of s ("Mar", "March"), else 0.
int MonthNumber(std::string_view s);
// Whether s starts with a day's English abbreviation ("Thu", "Thursday").
bool IsDayName(std::string_view s);

}  // namespace spinup::scan
