#include "logs/clock_reading.h"

#include <re2/re2.h>

#include <array>
#include <string>

#include "logs/text_scan.h"

namespace spinup {
namespace {

constexpr size_t kShortest = 19;  // "2025-06-02 10:56:12"
constexpr size_t kLongest = 48;

int MonthNumber(std::string_view name) {
  constexpr std::array<std::string_view, 12> kNames = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (name.substr(0, 3) == kNames[i]) return static_cast<int>(i) + 1;
  }
  return 0;
}

int Number(const std::string& s) { return s.empty() ? 0 : std::stoi(s.substr(0, 6)); }

// "10:56:12" with an optional AM/PM into t; false where a field is out of range.
bool SetClock(const std::string& h, const std::string& m, const std::string& s,
              const std::string& am_pm, CivilTime& t) {
  t.hour = Number(h);
  t.minute = Number(m);
  t.second = Number(s);
  if (!am_pm.empty()) {
    if (t.hour < 1 || t.hour > 12) return false;
    t.hour = t.hour % 12 + (am_pm == "PM" ? 12 : 0);
  }
  return t.hour < 24 && t.minute < 60 && t.second < 61;
}

bool ValidDate(const CivilTime& t) {
  return t.year >= 1990 && t.year <= 2200 && t.month >= 1 && t.month <= 12 && t.day >= 1 &&
         t.day <= 31;
}

#define SPINUP_DAY "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?"
#define SPINUP_MONTH "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?"
#define SPINUP_CLOCK "(\\d{1,2}):(\\d{2}):(\\d{2})(?: ?([AP]M))?"
#define SPINUP_ZONE "(?: +(?:[A-Z]{1,5}|[+-]\\d{2}(?::?\\d{2})?|UTC[+-]\\d{1,2}))?"

std::optional<CivilTime> ReadNamedDay(std::string_view line) {
  // C and en_US (coreutils 9): "Mon Jun  2 10:56:12 [AM ]UTC 2025".
  static const RE2 kMonthFirst("^" SPINUP_DAY " +" SPINUP_MONTH
                               " +(\\d{1,2}) +" SPINUP_CLOCK SPINUP_ZONE " +(\\d{4})$");
  // en_US (older): "Mon 02 Jun 2025 10:56:12 AM UTC".
  static const RE2 kYearBeforeClock("^" SPINUP_DAY " +(\\d{1,2}) +" SPINUP_MONTH
                                    " +(\\d{4}) +" SPINUP_CLOCK SPINUP_ZONE "$");
  // en_GB: "Mon  2 Jun 10:56:12 UTC 2025".
  static const RE2 kDayFirst("^" SPINUP_DAY " +(\\d{1,2}) +" SPINUP_MONTH
                             " +" SPINUP_CLOCK SPINUP_ZONE " +(\\d{4})$");
  std::string mon, day, year, h, m, s, am_pm;
  CivilTime t;
  if (RE2::FullMatch(line, kMonthFirst, &mon, &day, &h, &m, &s, &am_pm, &year) ||
      RE2::FullMatch(line, kYearBeforeClock, &day, &mon, &year, &h, &m, &s, &am_pm) ||
      RE2::FullMatch(line, kDayFirst, &day, &mon, &h, &m, &s, &am_pm, &year)) {
    t.month = MonthNumber(mon);
    t.day = Number(day);
    t.year = Number(year);
    if (ValidDate(t) && SetClock(h, m, s, am_pm, t)) return t;
  }
  return std::nullopt;
}

std::optional<CivilTime> ReadIso(std::string_view line) {
  // date -Iseconds / -Ins / '+%F %T': "2025-06-02T10:56:12+00:00".
  static const RE2 kIso(
      "^(\\d{4})-(\\d{2})-(\\d{2})[T ](\\d{2}):(\\d{2}):(\\d{2})(?:[.,]\\d{1,9})?"
      "(?: ?(?:Z|[+-]\\d{2}(?::?\\d{2})?|[A-Z]{2,5}))?$");
  std::string year, mon, day, h, m, s;
  if (!RE2::FullMatch(line, kIso, &year, &mon, &day, &h, &m, &s)) return std::nullopt;
  CivilTime t;
  t.year = Number(year);
  t.month = Number(mon);
  t.day = Number(day);
  if (ValidDate(t) && SetClock(h, m, s, "", t)) return t;
  return std::nullopt;
}

#undef SPINUP_DAY
#undef SPINUP_MONTH
#undef SPINUP_CLOCK
#undef SPINUP_ZONE

}  // namespace

std::optional<CivilTime> ParseClockReading(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.size() < kShortest || line.size() > kLongest) return std::nullopt;
  if (scan::IsDigit(line[0])) return ReadIso(line);
  if (!scan::IsUpper(line[0]) || line[2] < 'a') return std::nullopt;  // a day's name
  return ReadNamedDay(line);
}

}  // namespace spinup
