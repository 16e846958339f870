// Text from untrusted files (tensor names, dtypes) printed for people: control characters become
// '?', so one problem stays one line and nothing reaches the terminal as an escape sequence.
#pragma once

#include <string>
#include <string_view>

namespace spinup {

inline std::string OneLine(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

}  // namespace spinup
