// CleanLine: a line's bytes made safe to read (ANSI escapes and colour remnants dropped, invalid
// UTF-8 replaced), apart from the prefix parsers in line_parser.cc.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/utf8.h"
#include "logs/engine_prefix.h"
#include "logs/line_parser.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ull;

// Whether `line` holds an ESC byte and whether it holds a byte >= 0x80: 16 bytes at a time
// where SSE2 is there (every x86-64), else a word at a time, without branches. A byte of
// x = w ^ 0x1b..1b is zero where w holds ESC, and (x - 0x01..) & ~x & 0x80.. is nonzero exactly
// when x has a zero byte.
void ScanEscAndHigh(std::string_view line, bool* esc_seen, bool* high_seen) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kEsc = 0x1b * kOnes;
  uint64_t high = 0, esc = 0;
  size_t i = 0;
#ifdef __SSE2__
  __m128i high16 = _mm_setzero_si128(), esc16 = _mm_setzero_si128();
  const __m128i esc_byte = _mm_set1_epi8(0x1b);
  for (; i + 16 <= line.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + i));
    high16 = _mm_or_si128(high16, v);
    esc16 = _mm_or_si128(esc16, _mm_cmpeq_epi8(v, esc_byte));
  }
  high = _mm_movemask_epi8(high16) != 0 ? kHighBits : 0;
  esc = _mm_movemask_epi8(esc16) != 0 ? kHighBits : 0;
#endif
  for (; i + 8 <= line.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, line.data() + i, 8);
    const uint64_t x = w ^ kEsc;
    high |= w;
    esc |= (x - kOnes) & ~x;
  }
  if (i < line.size()) {
    // The last bytes: the line's last 8 (bytes seen twice change nothing), or padded with
    // spaces (neither ESC nor high) when it is shorter.
    uint64_t w = 0x2020202020202020ull;
    if (line.size() >= 8) {
      std::memcpy(&w, line.data() + line.size() - 8, 8);
    } else {
      std::memcpy(&w, line.data(), line.size());
    }
    const uint64_t x = w ^ kEsc;
    high |= w;
    esc |= (x - kOnes) & ~x;
  }
  *esc_seen = (esc & kHighBits) != 0;
  *high_seen = (high & kHighBits) != 0;
}

// Whether every byte >= 0x80 of `s` belongs to a valid UTF-8 sequence (base/utf8 decides).
bool AllValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    uint64_t w;
    if (i + 8 <= s.size() && (std::memcpy(&w, s.data() + i, 8), (w & kHighBits) == 0)) {
      i += 8;  // ASCII
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;  // an ASCII byte beside a sequence: no call needed
      continue;
    }
    // The common sequences inline (bar glyphs "█" are E2 96 88): a 2-byte one, or a 3-byte one
    // whose lead byte allows every continuation (not E0's overlongs or ED's surrogates).
    auto cont = [&](size_t k) { return (static_cast<unsigned char>(s[k]) & 0xc0) == 0x80; };
    if (c >= 0xc2 && c <= 0xdf && i + 1 < s.size() && cont(i + 1)) {
      i += 2;
      continue;
    }
    if (((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) && i + 2 < s.size() && cont(i + 1) &&
        cont(i + 2)) {
      i += 3;
      continue;
    }
    uint32_t cp = 0;
    const size_t len = Utf8Length(s, i, &cp);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// CleanLine after the colour remnants: escape sequences and invalid UTF-8.
std::string_view CleanEscapes(std::string_view line, std::string* scratch) {
  // Fast paths: no ESC and no byte >= 0x80, or no ESC and only valid UTF-8 (bar glyphs, accents):
  // nothing to change.
  bool esc = false, high = false;
  ScanEscAndHigh(line, &esc, &high);
  if (!esc && (!high || AllValidUtf8(line))) return line;
  scratch->clear();
  scratch->reserve(line.size());
  const size_t n = line.size();
  size_t i = 0;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) {
      // CSI: ESC [ params final(0x40-0x7e); OSC: ESC ] ... BEL or ESC \ ; other: ESC + one byte.
      if (i + 1 < n && line[i + 1] == '[') {
        size_t j = i + 2;
        while (j < n && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
        i = j < n ? j + 1 : n;
      } else if (i + 1 < n && line[i + 1] == ']') {
        size_t j = i + 2;
        while (j < n && line[j] != '\x07' &&
               !(line[j] == '\x1b' && j + 1 < n && line[j + 1] == '\\'))
          ++j;
        i = j >= n ? n : (line[j] == '\x07' ? j + 1 : j + 2);
      } else {
        i += 2;
      }
      continue;
    }
    if (c < 0x80) {
      // A run of plain bytes is copied at once (most of a line with one bar glyph or accent).
      size_t j = i + 1;
      while (j < n && static_cast<unsigned char>(line[j]) < 0x80 && line[j] != 0x1b) ++j;
      scratch->append(line.substr(i, j - i));
      i = j;
      continue;
    }
    // Invalid UTF-8 bytes become U+FFFD (base/utf8 decides what is valid).
    uint32_t cp = 0;
    const size_t len = Utf8Length(line, i, &cp);
    if (len > 0) {
      scratch->append(line.substr(i, len));
      i += len;
    } else {
      scratch->append("\xef\xbf\xbd");
      ++i;
    }
  }
  return *scratch;
}

}  // namespace

std::string_view CleanLine(std::string_view line, std::string* scratch, bool plain,
                           bool no_bracket) {
  // Line ends, and the trailing blanks of pasted logs (terminal copies, padded columns): rules
  // and suffix readers (Ray's repeat count, TGI's rank=N) anchor at the end.
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n' || line.back() == ' ' ||
                           line.back() == '\t')) {
    line.remove_suffix(1);
  }
  // (Again once colour codes are gone: "Connected \x1b[0m" ends in a blank then.)
  auto trim_end = [](std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  // Colour codes pasted without their ESC bytes ("[2m2024-...Z[0m [32m INFO[0m", maybe after a
  // compose prefix); SGLang's "[2026-" and TRT-LLM's "[05/" are not. One pass, then the escapes.
  if (!no_bracket && StripSgrRemnants(line, scratch)) {
    if (plain) return trim_end(*scratch);  // what is left of a plain line is plain
    std::string stripped = std::move(*scratch);
    std::string_view clean = CleanEscapes(stripped, scratch);
    if (clean.data() != stripped.data()) return trim_end(clean);
    *scratch = std::move(stripped);
    return trim_end(*scratch);
  }
  return plain ? line : trim_end(CleanEscapes(line, scratch));
}

}  // namespace spinup
