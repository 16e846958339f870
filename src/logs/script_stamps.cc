// Times that scripts, shippers and date(1) put before a line no engine prefix reads: stripped as
// the line's wrapper time (ReadLinePrefixes, line_parser.cc).
#include "logs/script_stamps.h"

#include "logs/clock_reading.h"
#include "logs/engine_prefix.h"
#include "logs/text_scan.h"

namespace spinup::line_internal {

using scan::At;
using scan::IsDigit;

namespace {

// "03/14/2025 11:58:31 PM" (Python logging's `%m/%d/%Y %I:%M:%S %p`, US locales): month first, a
// 12-hour clock with its half of the day (or a 24-hour one). Its end, or npos.
size_t ParseUsDateTime(std::string_view s, CivilTime& t) {
  CivilTime tt;
  size_t j = ParseMonthFirstDateTime(s, '/', tt);
  if (j == std::string_view::npos) return j;
  const std::string_view half = s.substr(j, 3);
  if ((half == " AM" || half == " PM") && tt.hour >= 1 && tt.hour <= 12) {
    tt.hour = tt.hour % 12 + (half == " PM" ? 12 : 0);
    j += 3;
  }
  t = tt;
  return j;
}

// "13:02:01" or "13:02:01.123": a time of day alone.
bool TimeOfDayOnly(std::string_view s) {
  if (s.size() < 8 || s.size() > 15 || s[2] != ':' || s[5] != ':') return false;
  for (size_t i : {0, 1, 3, 4, 6, 7}) {
    if (!IsDigit(s[i])) return false;
  }
  return s.size() == 8 || s[8] == '.' || s[8] == ',';
}

}  // namespace

// A shipper's or `ts`'s time ("2025-09-22 10:00:01.123<TAB>", "03/14/2025 11:58:31 AM ") before a
// line no prefix read.
bool StripShipperTime(std::string_view& s, ParsedLine& p) {
  if (s.size() < 20 || !IsDigit(s[0]) || (s[4] != '-' && s[2] != '/')) return false;
  CivilTime t;
  size_t j =
      s[2] == '/' ? ParseUsDateTime(s, t) : scan::ParseDateTime(s, 0, s[10] == 'T' ? 'T' : ' ', t);
  if (j == std::string_view::npos) return false;
  j = scan::ParseFraction(s, j, t);
  if (At(s, j, 'Z')) ++j;
  // The zone's name after the time ("2025-08-19 11:02:11 CEST INFO ..."): `ts '%F %T %Z'`.
  if (const size_t z = scan::SkipZoneName(s, j, &p.utc_stamp); z != s.npos) j = z;
  if (!At(s, j, ' ') && !At(s, j, '\t')) return false;
  while (At(s, j, ' ') || At(s, j, '\t')) ++j;
  if (j >= s.size()) return false;
  // An engine's own dated prefix (Python logging's "2025-09-22 10:00:01,123 - INFO") is read
  // as the engine's.
  ParsedLine engine;
  std::string_view whole = s;
  if (ParseEnginePrefix(whole, engine) && engine.time) return false;
  p.wrapper_time = t;
  s = s.substr(j);
  return true;
}

// A script's `echo "$(date) waiting for the server ..."`: date(1)'s output ("Tue Oct 15 16:03:29
// UTC 2024") before the line's text. Its year ends the stamp.
bool StripDateOutputTime(std::string_view& s, ParsedLine& p) {
  if (s.size() < 30 || s[3] != ' ' || !scan::IsDayName(s)) return false;
  for (size_t y = 20; y + 5 < s.size() && y <= 34; ++y) {
    if (s[y] != ' ' || s[y + 1] != '2' || !IsDigit(s[y + 2]) || !IsDigit(s[y + 3]) ||
        !IsDigit(s[y + 4]) || (s[y + 5] != ' ' && s[y + 5] != ':')) {
      continue;
    }
    const std::optional<CivilTime> t = ParseClockReading(s.substr(0, y + 5));
    if (!t) return false;
    size_t j = y + 5;
    if (s[j] == ':') ++j;
    while (At(s, j, ' ')) ++j;
    if (j >= s.size()) return false;
    p.wrapper_time = *t;
    s = s.substr(j);
    return true;
  }
  return false;
}

// A script's own bracket with its time ("[2024-11-04T11:30:02+00:00] ", "[start.sh
// 2024-11-04T11:30:02+00:00] ", "[entrypoint 2024-11-04 11:30:02] "): a health loop's or an
// entrypoint's lines in the server's log keep the log's clock going. SGLang's "[2024-11-04
// 11:30:02 TP0]" puts its time first and has no 'T': the engine's prefix reads it.
bool StripBracketedScriptTime(std::string_view& s, ParsedLine& p) {
  if (s.size() < 24 || s[0] != '[') return false;
  const size_t close = scan::FindByte(s.substr(0, 64), ']');
  if (close == std::string_view::npos || close < 2) return false;
  std::string_view inner = s.substr(1, close - 1);
  // dmesg -T's "[Wed Jan 15 08:31:27 2025] Out of memory: Killed process ...".
  const std::optional<CivilTime> reading =
      scan::IsDayName(inner) ? ParseClockReading(inner) : std::nullopt;
  if (reading) p.wrapper_time = *reading;
  const bool tagged = !reading && !IsDigit(inner[0]);
  if (tagged) {
    const size_t sp = scan::FindByte(inner, ' ');
    if (sp == std::string_view::npos || sp > 32) return false;
    inner.remove_prefix(sp + 1);
  }
  if (reading) {
    s = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
    return true;
  }
  // `ts '[%H:%M:%S]'` before an engine's own prefix ("[13:02:01] INFO 03-03 13:02:01 ..."): the
  // engine's stamp, with its date, is the line's time; the script's time of day is dropped.
  if (!tagged && TimeOfDayOnly(inner)) {
    std::string_view rest = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
    ParsedLine engine;
    if (!ParseEnginePrefix(rest, engine) || !engine.time || !engine.time->has_date()) return false;
    s = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
    return true;
  }
  if (inner.size() < 19 || (!tagged && inner[10] != 'T')) return false;
  CivilTime t;
  size_t j = inner[10] == 'T'
                 ? scan::ParseRfc3339(inner, 0, t)
                 : scan::ParseFraction(inner, scan::ParseDateTime(inner, 0, ' ', t), t);
  if (j != inner.size()) return false;
  p.utc_stamp = inner[10] == 'T' && inner.find_first_of("Z+-", 19) != std::string_view::npos;
  p.wrapper_time = t;
  s = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
  return true;
}

bool StripProcfileTime(std::string_view& s) {
  if (s.size() < 14 || s[8] != ' ' || !TimeOfDayOnly(s.substr(0, 8))) return false;
  // The name: no blanks, padded to the longest name's width, then "| ".
  const std::string_view rest = s.substr(9);
  const size_t name_end = scan::FindEither(rest.substr(0, 64), ' ', '|');
  if (name_end == 0 || name_end == std::string_view::npos || rest[name_end] != ' ') return false;
  size_t bar = name_end;
  while (bar < rest.size() && rest[bar] == ' ') ++bar;
  if (bar + 1 >= rest.size() || rest[bar] != '|' || rest[bar + 1] != ' ') return false;
  s = rest;
  return true;
}

}  // namespace spinup::line_internal
