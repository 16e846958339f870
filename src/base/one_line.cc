#include "base/one_line.h"

#include "base/utf8.h"

#include <cstdint>

namespace spinup {
namespace {

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
