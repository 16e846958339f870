#include "io/byte_size.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

namespace spinup {

Result<uint64_t> ParseReaderByteSize(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("size '{}': expected a number with an optional unit (e.g. 4MiB, 512k)", text));
  };
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return bad();
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) return bad();
  std::string unit;
  for (; i < text.size(); ++i)
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  uint64_t mult = 1;
  if (unit.empty() || unit == "b") {
    mult = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    mult = 1ull << 10;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    mult = 1ull << 20;
  } else if (unit == "g" || unit == "gb" || unit == "gib") {
    mult = 1ull << 30;
  } else if (unit == "t" || unit == "tb" || unit == "tib") {
    mult = 1ull << 40;
  } else {
    return bad();
  }
  if (value > UINT64_MAX / mult) return bad();
  return value * mult;
}

}  // namespace spinup
