#include "logs/export_rows.h"

#include <algorithm>

namespace spinup {
namespace {

constexpr size_t kMaxRow = 64 << 10;

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// EVENTS<TAB>stream<TAB>epoch-ms<TAB>message<TAB>ingestion-ms: the message may hold tabs of its
// own, so it runs from the third tab to the last.
std::optional<std::string_view> CloudWatchText(std::string_view row) {
  size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    at = row.find('\t', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  const size_t second = row.find('\t', row.find('\t') + 1);
  const size_t last = row.rfind('\t');
  if (last < at || !AllDigits(row.substr(second + 1, at - 1 - second - 1)) ||
      !AllDigits(row.substr(last + 1))) {
    return std::nullopt;
  }
  return row.substr(at, last - at);
}

// The string value after `key` ("log"=>") up to its closing quote, escapes undone.
std::optional<std::string_view> RubyHashValue(std::string_view row, std::string_view key,
                                              std::string* scratch) {
  const size_t at = row.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  scratch->clear();
  for (size_t i = at + key.size(); i < row.size(); ++i) {
    const char c = row[i];
    if (c == '"') return std::string_view(*scratch);
    if (c != '\\' || i + 1 == row.size()) {
      scratch->push_back(c);
      continue;
    }
    const char e = row[++i];
    scratch->push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
  }
  return std::nullopt;  // unterminated
}

// [N] tag: [epoch, {"k"=>"v", ...}]
std::optional<std::string_view> FluentBitStdout(std::string_view row, std::string* scratch) {
  size_t i = 1;
  while (i < row.size() && i < 12 && row[i] >= '0' && row[i] <= '9') ++i;
  if (i == 1 || !row.substr(i).starts_with("] ")) return std::nullopt;
  const size_t record = row.find(": [", i);
  if (record == std::string_view::npos || record > 512 || !row.ends_with("}]")) {
    return std::nullopt;
  }
  if (auto line = RubyHashValue(row.substr(record), "\"log\"=>\"", scratch)) return line;
  return RubyHashValue(row.substr(record), "\"message\"=>\"", scratch);
}

}  // namespace

std::optional<std::string_view> ExportedLine(std::string_view row, std::string* scratch) {
  if (row.size() < 8 || row.size() > kMaxRow) return std::nullopt;
  if (row.starts_with("EVENTS\t")) return CloudWatchText(row);
  if (row.front() == '[' && row[1] >= '0' && row[1] <= '9') return FluentBitStdout(row, scratch);
  return std::nullopt;
}

}  // namespace spinup
