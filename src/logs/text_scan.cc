// Scanners shared by the log line parsers, and the civil-time conversions line_parser.h declares.
#include "logs/text_scan.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace spinup {
namespace scan {
namespace {

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

// Reads exactly n digits at s[i..]; returns -1 when they are not all digits.
int Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = s[i + k];
    if (!IsDigit(c)) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// A byte's digit value, as unsigned: above 9 for any byte that is not a digit. The clock and date
// readers below test all their digits at once, without a branch per byte (they run on most lines).
inline unsigned DigitAt(std::string_view s, size_t k) {
  return static_cast<unsigned>(static_cast<unsigned char>(s[k])) - unsigned{'0'};
}

// HH:MM:SS at s[i]; fills t, returns the index after it or npos.
size_t ParseClock(std::string_view s, size_t i, CivilTime& t) {
  if (i > s.size() || s.size() - i < 8) return std::string_view::npos;
  const unsigned h1 = DigitAt(s, i), h2 = DigitAt(s, i + 1), m1 = DigitAt(s, i + 3),
                 m2 = DigitAt(s, i + 4), s1 = DigitAt(s, i + 6), s2 = DigitAt(s, i + 7);
  // Summed, not ||: one test for all of them (clang refuses | on bools).
  if ((h1 > 9) + (h2 > 9) + (m1 > 9) + (m2 > 9) + (s1 > 9) + (s2 > 9) + (s[i + 2] != ':') +
          (s[i + 5] != ':') !=
      0) {
    return std::string_view::npos;
  }
  const int h = static_cast<int>(h1 * 10 + h2), m = static_cast<int>(m1 * 10 + m2),
            sec = static_cast<int>(s1 * 10 + s2);
  if (h > 23 || m > 59 || sec > 60) return std::string_view::npos;
  t.hour = h;
  t.minute = m;
  t.second = sec;
  return i + 8;
}

// Optional fraction (.123 or ,123 with any number of digits): milliseconds kept.
size_t ParseFraction(std::string_view s, size_t i, CivilTime& t) {
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && i + 1 < s.size() && IsDigit(s[i + 1])) {
    size_t j = i + 1;
    int ms = 0, k = 0;
    while (j < s.size() && IsDigit(s[j])) {
      if (k < 3) ms = ms * 10 + (s[j] - '0');
      ++k;
      ++j;
    }
    while (k < 3) {
      ms *= 10;
      ++k;
    }
    t.millis = ms;
    return j;
  }
  return i;
}

// YYYY-MM-DD at s[i] followed by `sep` and a clock. Returns the index after the clock. An
// impossible date (2026-02-30) is no date: `--now` refuses it instead of rolling it over.
size_t ParseDateTime(std::string_view s, size_t i, char sep, CivilTime& t) {
  if (i > s.size() || s.size() - i < 11) return std::string_view::npos;
  const unsigned y1 = DigitAt(s, i), y2 = DigitAt(s, i + 1), y3 = DigitAt(s, i + 2),
                 y4 = DigitAt(s, i + 3), mo1 = DigitAt(s, i + 5), mo2 = DigitAt(s, i + 6),
                 d1 = DigitAt(s, i + 8), d2 = DigitAt(s, i + 9);
  if ((y1 > 9) + (y2 > 9) + (y3 > 9) + (y4 > 9) + (mo1 > 9) + (mo2 > 9) + (d1 > 9) + (d2 > 9) +
          (s[i + 4] != '-') + (s[i + 7] != '-') + (s[i + 10] != sep) !=
      0) {
    return std::string_view::npos;
  }
  const int y = static_cast<int>(((y1 * 10 + y2) * 10 + y3) * 10 + y4);
  const int mo = static_cast<int>(mo1 * 10 + mo2), d = static_cast<int>(d1 * 10 + d2);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || d > DaysInMonth(y, mo)) {
    return std::string_view::npos;
  }
  t.year = y;
  t.month = mo;
  t.day = d;
  return ParseClock(s, i + 11, t);
}

// RFC 3339 as docker/kubectl print it: 2026-03-09T12:01:49.123456789Z or +00:00 / +0000.
// Applies the offset so the result is UTC. Returns index after it.
size_t ParseRfc3339(std::string_view s, size_t i, CivilTime& t) {
  size_t j = ParseDateTime(s, i, 'T', t);
  if (j == std::string_view::npos) return j;
  j = ParseFraction(s, j, t);
  if (At(s, j, 'Z')) return j + 1;
  if (At(s, j, '+') || At(s, j, '-')) {
    int sign = s[j] == '-' ? -1 : 1;
    int oh = Digits(s, j + 1, 2);
    size_t k = j + 3;
    if (oh < 0) return std::string_view::npos;
    if (At(s, k, ':')) ++k;
    int om = Digits(s, k, 2);
    if (om < 0) return std::string_view::npos;
    int64_t ms = CivilToUnixMs(t) - sign * (int64_t{oh} * 3600 + om * 60) * 1000;
    int millis = t.millis;
    t = UnixMsToCivil(ms);
    t.millis = millis;
    return k + 2;
  }
  return j;
}

int MonthNumber(std::string_view s) {
  constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (s.size() < 3) return 0;
  for (size_t m = 0; m < 12; ++m) {
    if (s.substr(0, 3) == kMonths.substr(m * 3, 3)) return static_cast<int>(m) + 1;
  }
  return 0;
}

bool IsDayName(std::string_view s) {
  constexpr std::string_view kDays = "MonTueWedThuFriSatSun";
  if (s.size() < 3) return false;
  for (size_t d = 0; d < 7; ++d) {
    if (s.substr(0, 3) == kDays.substr(d * 3, 3)) return true;
  }
  return false;
}

bool IsLevel(std::string_view w) {
  return w == "INFO" || w == "WARNING" || w == "ERROR" || w == "DEBUG" || w == "CRITICAL" ||
         w == "WARN" || w == "TRACE" || w == "FATAL";
}

size_t SkipZoneName(std::string_view s, size_t i, bool* utc) {
  // Only the names zones go by: a script's "CUDA error: ..." or "NCCL WARN ..." behind its `ts`
  // stamp keeps its first word.
  static constexpr std::string_view kZones[] = {
      "UTC",  "GMT",  "CET", "CEST", "EET",  "EEST", "WET",  "WEST", "BST",  "IST",
      "MSK",  "JST",  "KST", "HKT",  "SGT",  "CST",  "CDT",  "EST",  "EDT",  "MST",
      "MDT",  "PST",  "PDT", "AKST", "AKDT", "HST",  "AEST", "AEDT", "ACST", "AWST",
      "NZST", "NZDT", "ICT", "WIB",  "PHT",  "BRT",  "ART"};
  if (!At(s, i, ' ')) return std::string_view::npos;
  ++i;
  size_t n = 0;
  while (i + n < s.size() && n < 6 && IsUpper(s[i + n])) ++n;
  const std::string_view zone = s.substr(i, n);
  if (!At(s, i + n, ' ') ||
      std::find(std::begin(kZones), std::end(kZones), zone) == std::end(kZones)) {
    return std::string_view::npos;
  }
  *utc = zone == "UTC" || zone == "GMT";
  return i + n;
}

}  // namespace scan

using scan::ParseDateTime;
using scan::ParseFraction;
using scan::ParseRfc3339;

int64_t CivilToUnixMs(const CivilTime& t) {
  // Howard Hinnant's days_from_civil.
  int y = t.year;
  unsigned m = static_cast<unsigned>(t.month < 1 ? 1 : t.month);
  unsigned d = static_cast<unsigned>(t.day < 1 ? 1 : t.day);
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = int64_t{era} * 146097 + static_cast<int64_t>(doe) - 719468;
  return ((days * 24 + t.hour) * 60 + t.minute) * 60000 + int64_t{t.second} * 1000 + t.millis;
}

CivilTime UnixMsToCivil(int64_t ms) {
  int64_t secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  int64_t rem = secs - days * 86400;
  CivilTime t;
  t.millis = static_cast<int>(ms - secs * 1000);
  t.hour = static_cast<int>(rem / 3600);
  t.minute = static_cast<int>(rem % 3600 / 60);
  t.second = static_cast<int>(rem % 60);
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  t.year = static_cast<int>(y + (m <= 2));
  t.month = static_cast<int>(m);
  t.day = static_cast<int>(d);
  return t;
}

std::string FormatIsoTime(int64_t ms) {
  CivilTime t = UnixMsToCivil(ms);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", t.year, t.month, t.day, t.hour,
                t.minute, t.second);
  return buf;
}

std::optional<int64_t> ParseTimeArg(std::string_view text) {
  CivilTime t;
  size_t j = ParseRfc3339(text, 0, t);
  if (j == std::string_view::npos) {
    t = CivilTime{};
    j = ParseDateTime(text, 0, ' ', t);
    if (j != std::string_view::npos) j = ParseFraction(text, j, t);
  }
  if (j == std::string_view::npos || j != text.size()) return std::nullopt;
  return CivilToUnixMs(t);
}

std::optional<CivilTime> ParseRfc3339Time(std::string_view text) {
  CivilTime t;
  if (text.size() < 19) return std::nullopt;
  if (ParseRfc3339(text, 0, t) != std::string_view::npos) return t;
  // Python logging's asctime ("2025-09-03 02:13:33,123"), as JSON formatters keep it.
  const size_t j = ParseDateTime(text, 0, ' ', t);
  if (j == std::string_view::npos) return std::nullopt;
  ParseFraction(text, j, t);
  return t;
}

}  // namespace spinup
