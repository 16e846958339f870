#include "logs/csv_export.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "logs/text_scan.h"

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
           c == '-' || c == ' ' || c == '[' || c == ']';
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

// A number of 1 to `most` digits at s[*at] (scan::Digits reads a fixed count): its value, *at
// past it; -1 where none.
int ReadNumber(std::string_view s, size_t* at, size_t most) {
  int v = 0;
  size_t n = 0;
  while (*at < s.size() && n < most && scan::IsDigit(s[*at])) {
    v = v * 10 + (s[*at] - '0');
    ++*at;
    ++n;
  }
  return n == 0 ? -1 : v;
}

}  // namespace

std::optional<CsvColumns> ReadCsvHeader(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  // Pasted as a markdown quote or an indented block: the marks are the paste's.
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '>')) {
    line.remove_prefix(1);
  }
  if (line.size() > kMaxHeader || line.find(',') == std::string_view::npos) return std::nullopt;
  // (Azure Log Analytics: TimeGenerated, ContainerLogV2's LogMessage, ContainerLog's LogEntry.)
  static constexpr std::array<std::string_view, 8> kTime = {
      "date", "@timestamp", "_time", "timestamp", "time", "datetime", "eventtime", "timegenerated"};
  static constexpr std::array<std::string_view, 10> kMessage = {
      "message",     "@message", "_raw",    "msg",        "log",
      "textpayload", "line",     "content", "logmessage", "logentry"};
  CsvColumns c;
  size_t at = 0;
  while (at <= line.size() && c.count < kMaxColumns) {
    const size_t end = FieldEnd(line, at);
    const std::string_view field = line.substr(at, end - at);
    if (!IsName(field)) return std::nullopt;
    // A portal's export names the zone after the column ("TimeGenerated [UTC]").
    std::string name = Lower(Unquoted(field));
    if (const size_t zone = name.find(" ["); zone != std::string::npos) name.resize(zone);
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

// A portal's US-style time ("2/11/2025, 1:05:03.004 PM", Azure Log Analytics' CSV export).
bool ParseUsPortalTime(std::string_view s, CivilTime& t) {
  size_t at = 0;
  const int month = ReadNumber(s, &at, 2);
  if (month < 1 || month > 12 || !scan::At(s, at++, '/')) return false;
  const int day = ReadNumber(s, &at, 2);
  if (day < 1 || day > 31 || !scan::At(s, at++, '/')) return false;
  const int year = ReadNumber(s, &at, 4);
  if (year < 1970 || year > 2200) return false;
  if (scan::At(s, at, ',')) ++at;
  if (!scan::At(s, at++, ' ')) return false;
  const int hour = ReadNumber(s, &at, 2);
  if (hour < 0 || hour > 23 || !scan::At(s, at++, ':')) return false;
  const int minute = ReadNumber(s, &at, 2);
  if (minute < 0 || minute > 59 || !scan::At(s, at++, ':')) return false;
  const int second = ReadNumber(s, &at, 2);
  if (second < 0 || second > 60) return false;
  CivilTime out{
      .year = year, .month = month, .day = day, .hour = hour, .minute = minute, .second = second};
  at = scan::ParseFraction(s, at, out);
  const std::string_view half = s.substr(std::min(at, s.size()));
  if (half == " PM" || half == " AM") {
    if (hour < 1 || hour > 12) return false;
    out.hour = hour % 12 + (half == " PM" ? 12 : 0);
  } else if (!half.empty()) {
    return false;
  }
  t = out;
  return true;
}

}  // namespace spinup
