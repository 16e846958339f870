// Small scanners shared by the log line parsers (line_parser.cc, engine_prefix.cc): digits, clocks,
// dates and levels at a position in untrusted text. Internal to src/logs; every index is checked.
#pragma once

#include <cstddef>
#include <string_view>

#include "logs/line_parser.h"

namespace spinup::scan {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool IsAlnum(char c) { return IsDigit(c) || IsUpper(c) || (c >= 'a' && c <= 'z'); }
inline bool At(std::string_view s, size_t i, char c) { return i < s.size() && s[i] == c; }
// s.find(c, from) as a plain loop: for the short scans of a line's first bytes, where a call to
// memchr costs more than the search (prefix parsing runs several on every line).
inline size_t FindByte(std::string_view s, char c, size_t from = 0) {
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == c) return i;
  }
  return std::string_view::npos;
}

// Reads exactly n digits at s[i..]; returns -1 when they are not all digits.
int Digits(std::string_view s, size_t i, size_t n);
// HH:MM:SS at s[i]; fills t, returns the index after it or npos.
size_t ParseClock(std::string_view s, size_t i, CivilTime& t);
// Optional fraction (.123 or ,123 with any number of digits): milliseconds kept.
size_t ParseFraction(std::string_view s, size_t i, CivilTime& t);
// YYYY-MM-DD at s[i] followed by `sep` and a clock. Returns the index after the clock; an
// impossible date (2026-02-30) is no date.
size_t ParseDateTime(std::string_view s, size_t i, char sep, CivilTime& t);
// RFC 3339 as docker/kubectl print it (2026-03-09T12:01:49.123456789Z, +00:00, +0000), in UTC.
size_t ParseRfc3339(std::string_view s, size_t i, CivilTime& t);
// INFO, WARNING, ERROR, DEBUG, CRITICAL, WARN, TRACE, FATAL.
bool IsLevel(std::string_view w);

}  // namespace spinup::scan
