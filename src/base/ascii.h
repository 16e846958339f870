// ASCII case folding for names and words read from logs and rules files (locale-free: a log's
// bytes are not text in the reader's locale, and only ASCII letters fold).
#pragma once

#include <string>
#include <string_view>

namespace spinup {

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace spinup
