#include "logs/logfmt_line.h"

#include <algorithm>

namespace spinup {
namespace {

// A key's bytes as a table: MayBeLogfmt asks it of up to 32 bytes of every wrapped line.
struct KeyBytes {
  bool t[256] = {};
  constexpr KeyBytes() {
    for (int c = 0; c < 256; ++c) {
      t[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '.' || c == '-' || c == '@';
    }
  }
};
constexpr KeyBytes kKeyBytes;

bool KeyByte(char c) { return kKeyBytes.t[static_cast<unsigned char>(c)]; }

// One value at `i` (just past '='): quoted with backslash escapes, or a bare token up to a blank.
// Advances `i` past it; false on an unterminated quote.
bool ReadValue(std::string_view line, size_t& i, std::string* out) {
  out->clear();
  if (i < line.size() && line[i] == '"') {
    for (++i; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"') {
        ++i;
        return true;
      }
      if (c != '\\' || i + 1 >= line.size()) {
        out->push_back(c);
        continue;
      }
      const char e = line[++i];
      out->push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
    }
    return false;
  }
  const size_t end = std::min(line.find(' ', i), line.size());
  out->assign(line.substr(i, end - i));
  i = end;
  return true;
}

}  // namespace

bool MayBeLogfmt(std::string_view line) {
  if (line.size() < 8 || !KeyByte(line[0]) || line[0] == '-' || line[0] == '.') return false;
  for (size_t i = 1; i < line.size() && i < 32; ++i) {
    if (line[i] == '=') return true;
    if (!KeyByte(line[i])) return false;
  }
  return false;
}

std::optional<JsonLogLine> ParseLogfmtLine(std::string_view line, std::string* message) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  if (line.size() > kMaxJsonLineBytes || !MayBeLogfmt(line)) return std::nullopt;
  JsonLogLine out;
  bool have_message = false;
  int pairs = 0;
  std::string value;
  size_t i = 0;
  while (i < line.size()) {
    const size_t key_from = i;
    while (i < line.size() && KeyByte(line[i])) ++i;
    if (i == key_from || i >= line.size() || line[i] != '=') return std::nullopt;
    const std::string_view key = line.substr(key_from, i - key_from);
    ++i;
    if (!ReadValue(line, i, &value)) return std::nullopt;
    ++pairs;
    if (!have_message && (key == "msg" || key == "message" || key == "log")) {
      *message = value;
      have_message = true;
    } else if (!out.time && (key == "ts" || key == "time" || key == "timestamp" || key == "t")) {
      out.time = ParseRfc3339Time(value);
    } else if (out.level.empty() && (key == "level" || key == "lvl" || key == "severity")) {
      out.level = value.substr(0, 16);
      for (char& c : out.level) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
    }
    if (i < line.size() && line[i] != ' ') return std::nullopt;  // a quote glued to the next key
    while (i < line.size() && line[i] == ' ') ++i;
  }
  if (!have_message || pairs < 2) return std::nullopt;
  if (!message->empty() && message->back() == '\n') message->pop_back();
  return out;
}

}  // namespace spinup
