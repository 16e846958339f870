#include "logs/smi_row.h"

#include <charconv>

namespace spinup {
namespace {

void SkipSpaces(std::string_view s, size_t& i) {
  while (i < s.size() && s[i] == ' ') ++i;
}

// The unsigned number at s[i], which then stands after it; nullopt where none is there.
template <typename Int>
std::optional<Int> NumberAt(std::string_view s, size_t& i) {
  if (i >= s.size() || s[i] < '0' || s[i] > '9') return std::nullopt;  // no sign
  Int n{};
  const auto [end, ec] = std::from_chars(s.data() + i, s.data() + s.size(), n);
  if (ec != std::errc() || end == s.data() + i) return std::nullopt;
  i = static_cast<size_t>(end - s.data());
  return n;
}

}  // namespace

std::optional<SmiDeviceRow> ParseSmiDeviceRow(std::string_view line) {
  const size_t slash = line.find("MiB /");
  if (slash == std::string_view::npos) return std::nullopt;
  size_t begin = slash;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9') --begin;
  SmiDeviceRow row;
  size_t i = begin;
  const auto used = NumberAt<uint64_t>(line, i);
  i = slash + 5;
  SkipSpaces(line, i);
  const auto total = NumberAt<uint64_t>(line, i);
  if (!used || !total || line.substr(i, 3) != "MiB") return std::nullopt;
  i += 3;
  SkipSpaces(line, i);
  if (i >= line.size() || line[i] != '|') return std::nullopt;
  ++i;
  SkipSpaces(line, i);
  const auto util = NumberAt<int>(line, i);
  if (!util || i >= line.size() || line[i] != '%') return std::nullopt;
  row.used_mib = *used;
  row.total_mib = *total;
  row.utilization_percent = *util;
  return row;
}

}  // namespace spinup
