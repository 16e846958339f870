#include "base/one_line.h"

#include <cstdint>

namespace spinup {
namespace {

// Length of the valid UTF-8 sequence at s[i], 0 when it is not one (overlong, surrogate,
// >U+10FFFF).
size_t Utf8Length(std::string_view s, size_t i, uint32_t* cp) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t len = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
  if (len == 0 || i + len > s.size()) return 0;
  uint32_t v = c & (0x7f >> len);
  for (size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xc0) != 0x80) return 0;
    v = (v << 6) | (cc & 0x3f);
  }
  if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
      (v >= 0xd800 && v <= 0xdfff)) {
    return 0;
  }
  *cp = v;
  return len;
}

bool Unprintable(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) ||      // C1 controls
         cp == 0x2028 || cp == 0x2029 ||    // line and paragraph separators
         (cp >= 0x202a && cp <= 0x202e) ||  // bidirectional embeddings and overrides
         (cp >= 0x2066 && cp <= 0x2069);    // bidirectional isolates
}

}  // namespace

std::string OneLine(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out.push_back(c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c));
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = Utf8Length(s, i, &cp);
    if (len == 0 || Unprintable(cp)) {
      out.push_back('?');
      i += len == 0 ? 1 : len;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace spinup
