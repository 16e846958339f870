#include "logs/csv_export.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace spinup {
namespace {

constexpr size_t kMaxHeader = 256;
constexpr int kMaxColumns = 16;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsName(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.empty() || s.size() > 40) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '.' ||
           c == '-';
  });
}

std::string_view Unquoted(std::string_view s) {
  return s.size() >= 2 && s.front() == '"' && s.back() == '"' ? s.substr(1, s.size() - 2) : s;
}

// The field that starts at `at`: its end (the comma after it, or the line's end) and whether
// it was quoted; a quoted field's "" is one quote.
size_t FieldEnd(std::string_view line, size_t at) {
  if (at < line.size() && line[at] == '"') {
    size_t i = at + 1;
    while (i < line.size()) {
      if (line[i] == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          i += 2;
          continue;
        }
        return std::min(line.size(), i + 1);
      }
      ++i;
    }
    return line.size();  // no closing quote on this line
  }
  const size_t comma = line.find(',', at);
  return comma == std::string_view::npos ? line.size() : comma;
}

void Unquote(std::string_view field, std::string* out) {
  out->clear();
  if (field.size() < 2 || field.front() != '"') {
    out->assign(field);
    return;
  }
  field = field.substr(1, field.back() == '"' ? field.size() - 2 : field.size() - 1);
  for (size_t i = 0; i < field.size(); ++i) {
    out->push_back(field[i]);
    if (field[i] == '"' && i + 1 < field.size() && field[i + 1] == '"') ++i;
  }
}

}  // namespace

std::optional<CsvColumns> ReadCsvHeader(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  // Pasted as a markdown quote or an indented block: the marks are the paste's.
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '>')) {
    line.remove_prefix(1);
  }
  if (line.size() > kMaxHeader || line.find(',') == std::string_view::npos) return std::nullopt;
  static constexpr std::array<std::string_view, 7> kTime = {
      "date", "@timestamp", "_time", "timestamp", "time", "datetime", "eventtime"};
  static constexpr std::array<std::string_view, 8> kMessage = {
      "message", "@message", "_raw", "msg", "log", "textpayload", "line", "content"};
  CsvColumns c;
  size_t at = 0;
  while (at <= line.size() && c.count < kMaxColumns) {
    const size_t end = FieldEnd(line, at);
    const std::string_view field = line.substr(at, end - at);
    if (!IsName(field)) return std::nullopt;
    const std::string name = Lower(Unquoted(field));
    if (c.time < 0 && std::find(kTime.begin(), kTime.end(), name) != kTime.end()) c.time = c.count;
    if (c.message < 0 && std::find(kMessage.begin(), kMessage.end(), name) != kMessage.end()) {
      c.message = c.count;
    }
    ++c.count;
    at = end + 1;
  }
  if (c.count < 2 || c.time < 0 || c.message < 0) return std::nullopt;
  return c;
}

bool ReadCsvRow(std::string_view line, const CsvColumns& columns, std::string* message,
                std::string_view* time) {
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string_view> fields;
  size_t at = 0;
  for (int i = 0; i < columns.count && at <= line.size(); ++i) {
    if (i == columns.message && (at >= line.size() || line[at] != '"')) {
      // Unquoted: up to the columns after it, counted from the line's end.
      size_t end = line.size();
      for (int k = columns.count - 1; k > i && end != std::string_view::npos && end > at; --k) {
        end = line.rfind(',', end - 1);
      }
      if (end == std::string_view::npos || end < at) end = line.size();
      fields.push_back(line.substr(at, end - at));
      at = end + 1;
      continue;
    }
    const size_t end = FieldEnd(line, at);
    fields.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  if (static_cast<int>(fields.size()) <= std::max(columns.time, columns.message)) return false;
  *time = Unquoted(fields[static_cast<size_t>(columns.time)]);
  Unquote(fields[static_cast<size_t>(columns.message)], message);
  return true;
}

}  // namespace spinup
