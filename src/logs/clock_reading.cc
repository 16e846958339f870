#include "logs/clock_reading.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <string>

#include "logs/text_find.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

constexpr size_t kShortest = 19;  // "2025-06-02 10:56:12"
constexpr size_t kLongest = 48;

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
    t.month = scan::MonthNumber(mon);
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

// systemd's spans, as `systemctl status` prints them: "52min", "1h 3min", "2 days 4h", "3s".
std::optional<int64_t> SpanMs(std::string_view text) {
  static const RE2 kPart(R"((\d{1,6})\s*(years?|y|months?|weeks?|w|days?|d|h|min|s|ms|us)\b)");
  re2::StringPiece in(text);
  std::string number, unit;
  int64_t ms = 0;
  bool any = false;
  while (RE2::FindAndConsume(&in, kPart, &number, &unit)) {
    const int64_t n = Number(number);
    int64_t per = 1000;
    if (unit == "ms" || unit == "us")
      per = unit == "ms" ? 1 : 0;
    else if (unit == "min")
      per = 60'000;
    else if (unit == "h")
      per = 3'600'000;
    else if (unit[0] == 'd')
      per = 86'400'000;
    else if (unit[0] == 'w')
      per = 7 * 86'400'000LL;
    else if (unit.starts_with("mo"))
      per = 2'629'800'000LL;
    else if (unit[0] == 'y')
      per = 31'557'600'000LL;
    ms += n * per;
    any = true;
  }
  return any ? std::optional<int64_t>(ms) : std::nullopt;
}

// `systemctl status`'s "Active: active (running) since Mon 2025-06-02 08:00:00 UTC; 52min ago":
// the moment the status was taken is the start plus the span.
std::optional<CivilTime> ReadUnitActiveSince(std::string_view line) {
  static const RE2 kActive(
      R"(^Active: [\w-]+ \([\w-]+\) since \w{3} (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}))"
      R"((?: [A-Z]{1,5}|[+-]\d{2,4})?; (.{1,40}) ago$)");
  std::string year, mon, day, h, m, s, span;
  if (!RE2::FullMatch(line, kActive, &year, &mon, &day, &h, &m, &s, &span)) return std::nullopt;
  CivilTime since;
  since.year = Number(year);
  since.month = Number(mon);
  since.day = Number(day);
  const std::optional<int64_t> ago = SpanMs(span);
  if (!ValidDate(since) || !SetClock(h, m, s, "", since) || !ago) return std::nullopt;
  return UnixMsToCivil(CivilToUnixMs(since) + *ago);
}

// date(1) under a Chinese, Japanese or Korean locale, and PowerShell's Get-Date under a Korean
// one: "2025年 02月 19日 星期三 14:38:02 CST", "2025. 02. 19. (수) 14:38:02 KST",
// "2024년 6월 11일 화요일 오후 2:55:31".
std::optional<CivilTime> ReadCjkDate(std::string_view line) {
  // Bytes, not characters (Latin-1): each of the pattern's CJK characters is its three UTF-8 bytes,
  // and the day's name (星期三, 화요일, (수)) is a run of 15 bytes at most; cheap to compile.
  static const RE2 kCjk(
      "^(\\d{4})(?:年|년|\\.) *(\\d{1,2})(?:月|월|\\.) *(\\d{1,2})(?:日|일|\\.)? *(?:\\S{1,15} +)?"
      "(?:(오전|午前|上午|오후|午後|下午) *)?(\\d{1,2}):(\\d{2}):(\\d{2})" SPINUP_ZONE "$",
      RE2::Latin1);
  std::string year, mon, day, half, h, m, s;
  if (!RE2::FullMatch(line, kCjk, &year, &mon, &day, &half, &h, &m, &s)) return std::nullopt;
  CivilTime t;
  t.year = Number(year);
  t.month = Number(mon);
  t.day = Number(day);
  const bool pm = half == "오후" || half == "午後" || half == "下午";
  if (ValidDate(t) && SetClock(h, m, s, half.empty() ? "" : pm ? "PM" : "AM", t)) return t;
  return std::nullopt;
}

// A reading from its parts, the month by its place in the locale's twelve names.
std::optional<CivilTime> FromLocaleParts(const std::string_view (&months)[12], std::string_view mon,
                                         const std::string& day, const std::string& year,
                                         const std::string& h, const std::string& m,
                                         const std::string& s) {
  CivilTime t;
  t.month =
      static_cast<int>(std::find(std::begin(months), std::end(months), mon) - std::begin(months)) +
      1;
  t.day = Number(day);
  t.year = Number(year);
  if (ValidDate(t) && SetClock(h, m, s, "", t)) return t;
  return std::nullopt;
}

// date(1) under a German locale: "Do 10. Apr 14:47:52 CEST 2025" (day names of two letters, the
// day with a dot, "Mär", "Mai", "Okt", "Dez").
std::optional<CivilTime> ReadGermanDate(std::string_view line) {
  static const RE2 kGerman(
      "^(?:Mo|Di|Mi|Do|Fr|Sa|So),? +(\\d{1,2})\\. +"
      "(Jan|Feb|M\xC3\xA4r|Apr|Mai|Jun|Jul|Aug|Sep|Okt|Nov|Dez)\\.? +"
      "(\\d{1,2}):(\\d{2}):(\\d{2})" SPINUP_ZONE " +(\\d{4})$");
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "M\xC3\xA4r", "Apr", "Mai", "Jun",
                                                 "Jul", "Aug", "Sep",        "Okt", "Nov", "Dez"};
  std::string day, mon, h, m, s, year;
  if (!RE2::FullMatch(line, kGerman, &day, &mon, &h, &m, &s, &year)) return std::nullopt;
  return FromLocaleParts(kMonths, mon, day, year, h, m, s);
}

// date(1) under a Russian locale: "Вт 03 дек 2024 15:17:42 MSK" (the day, the month's
// abbreviation in the genitive, "мая" for May, then the year before the time).
std::optional<CivilTime> ReadRussianDate(std::string_view line) {
  static const RE2 kRussian(
      "^(?:Пн|Вт|Ср|Чт|Пт|Сб|Вс),? +(\\d{1,2}) +"
      "(янв|фев|мар|апр|мая|май|июн|июл|авг|сен|окт|ноя|дек)\\.? +(\\d{4})(?: г\\.)? +"
      "(\\d{1,2}):(\\d{2}):(\\d{2})" SPINUP_ZONE "$");
  static constexpr std::string_view kMonths[] = {"янв", "фев", "мар", "апр", "мая", "июн",
                                                 "июл", "авг", "сен", "окт", "ноя", "дек"};
  std::string day, mon, year, h, m, s;
  if (!RE2::FullMatch(line, kRussian, &day, &mon, &year, &h, &m, &s)) return std::nullopt;
  return FromLocaleParts(kMonths, mon == "май" ? "мая" : mon, day, year, h, m, s);
}

#undef SPINUP_DAY
#undef SPINUP_MONTH
#undef SPINUP_CLOCK
#undef SPINUP_ZONE

// uptime(1)'s " 14:53:27 up 6 days,  2:11,  2 users,  load average: ...": a time of day only
// (the log's previous line gives the date).
std::optional<CivilTime> ReadUptime(std::string_view hms) {
  auto two = [&](size_t at) -> int {
    if (!scan::IsDigit(hms[at]) || !scan::IsDigit(hms[at + 1])) return -1;
    return (hms[at] - '0') * 10 + (hms[at + 1] - '0');
  };
  if (hms[2] != ':' || hms[5] != ':') return std::nullopt;
  CivilTime t;
  t.hour = two(0);
  t.minute = two(3);
  t.second = two(6);
  if (t.hour < 0 || t.hour > 23 || t.minute < 0 || t.minute > 59 || t.second < 0 || t.second > 59)
    return std::nullopt;
  return t;
}

// Slurm's "*** STEP 88123.0 ON n7 CANCELLED AT 2025-01-14T03:12:40 DUE TO TIME LIMIT ***"
// (also JOB, and without a reason for scancel): when the job was ended, on the node's clock.
std::optional<CivilTime> ReadSlurmCancel(std::string_view line) {
  static constexpr std::string_view kAt = " CANCELLED AT ";
  const size_t at = line.find(kAt);
  if (at == std::string_view::npos || line.size() < at + kAt.size() + 19) return std::nullopt;
  return ReadIso(line.substr(at + kAt.size(), 19));
}

// A person's time of day in a sentence about the log: "20:41 now", "now it's 20:41", "it's 15:31
// and no ...", "At 09:24 (date) still the same", "still nothing at 09:31", "that's all of the log
// at 11:31". A time of day only (the log's previous line gives the date); the latest such time when
// the sentence names several ("Started 14:02, now it's 14:29"). "at H:MM" alone is any event's
// time ("error at 20:41", "started at 14:02"): it reads as now at the sentence's start, or after
// words about the log standing still or the log itself.
std::optional<CivilTime> ReadStatedTimeOfDay(std::string_view line) {
  // Most lines have no "H:MM" a sentence could hold: told by the few colons there are, before any
  // word search. A bar's "[00:12<00:30" is no time of day; nor is a stamp's seconds.
  bool clock = false;
  for (size_t i = scan::FindByte(line, ':'); !clock && i != std::string_view::npos;
       i = scan::FindByte(line, ':', i + 1)) {
    if (i == 0 || i + 2 >= line.size() || !scan::IsDigit(line[i - 1]) ||
        !scan::IsDigit(line[i + 1]) || !scan::IsDigit(line[i + 2])) {
      continue;
    }
    const size_t hour = i >= 2 && scan::IsDigit(line[i - 2]) ? i - 2 : i - 1;
    clock = hour == 0 || std::string_view(" \t(").find(line[hour - 1]) != std::string_view::npos;
  }
  if (!clock) return std::nullopt;
  static const RE2 kStated(
      R"((?i)(?:^|[\s(,.;-])(?:(\d{1,2}):(\d{2}) now|(now|it's|it is|at)(?: it's| it is)? )"
      R"((\d{1,2}):(\d{2}))(?:[^:\d]|$))");
  static const RE2 kStill(
      R"((?i)still|nothing|no new|same|stuck|hung|hang|frozen|no output|logs?\b|that's all)");
  std::optional<CivilTime> latest;
  re2::StringPiece in(line.data(), line.size());
  std::string h1, m1, h2, m2;
  re2::StringPiece cue;
  while (RE2::FindAndConsume(&in, kStated, &h1, &m1, &cue, &h2, &m2)) {
    if (cue.size() == 2 && (cue[0] == 'a' || cue[0] == 'A')) {
      const size_t at = static_cast<size_t>(cue.data() - line.data());
      const std::string_view before = line.substr(at < 48 ? 0 : at - 48, std::min<size_t>(at, 48));
      // At a sentence's start ("... took". At 09:24 (date) still the same"), after a quote marker.
      const size_t last = before.find_last_not_of(" \t");
      const bool opens = last == std::string_view::npos ||
                         before.find_first_not_of(" \t>-*^") == std::string_view::npos ||
                         std::string_view(".!?;").find(before[last]) != std::string_view::npos;
      if (!opens && !RE2::PartialMatch(before, kStill)) continue;
    }
    CivilTime t;
    t.hour = Number(h1.empty() ? h2 : h1);
    t.minute = Number(h1.empty() ? m2 : m1);
    if (t.hour < 0 || t.hour > 23 || t.minute < 0 || t.minute > 59) continue;
    if (!latest || t.hour * 60 + t.minute > latest->hour * 60 + latest->minute) latest = t;
  }
  return latest;
}

}  // namespace

std::optional<CivilTime> ParseReportedClock(std::string_view line) {
  if (line.size() > 400) return std::nullopt;
  if (auto stated = ReadStatedTimeOfDay(line)) return stated;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  // (FindWord: every line without a time of its own comes here, and find stops at every 'd'.)
  auto find_date = [line](size_t from) { return scan::FindWord(line, "date", from); };
  size_t word = find_date(0);
  // The word itself, not "updated" or "dates".
  while (word != std::string_view::npos && ((word > 0 && letter(line[word - 1])) ||
                                            (word + 4 < line.size() && letter(line[word + 4])))) {
    word = find_date(word + 4);
  }
  if (word == std::string_view::npos) return std::nullopt;
  // The reading follows the word closely: "`date` -> Thu ...", "date now says Sun ...".
  const std::string_view after = line.substr(word + 4, 24);
  for (size_t at = 0; at + 3 <= after.size(); ++at) {
    if (!scan::IsDayName(after.substr(at))) continue;
    std::string_view reading = line.substr(word + 4 + at);
    // The sentence may go on: the reading ends at its full stop, bracket or backtick.
    for (std::string_view end : {". ", ")", ";", "`"}) {
      reading = reading.substr(0, reading.find(end));
    }
    // ... or at a comma after it ("-> Tue Aug 12 04:52:10 UTC 2025, nvidia-smi shows ..."); not
    // the one right after the day's name (date -R's "Tue, 12 Aug").
    if (const size_t comma = reading.find(", ", 4); comma != std::string_view::npos) {
      reading = reading.substr(0, comma);
    }
    while (!reading.empty() &&
           std::string_view(").`'\" ").find(reading.back()) != std::string_view::npos) {
      reading.remove_suffix(1);
    }
    if (reading.size() >= kShortest && reading.size() <= kLongest) return ReadNamedDay(reading);
  }
  return std::nullopt;
}

std::optional<int> ReadingZoneOffsetMinutes(std::string_view line) {
  static constexpr std::array<std::pair<std::string_view, int>, 24> kZones{
      {{"UTC", 0},    {"GMT", 0},    {"Z", 0},      {"WET", 0},    {"WEST", 60},  {"BST", 60},
       {"CET", 60},   {"CEST", 120}, {"EET", 120},  {"EEST", 180}, {"MSK", 180},  {"HKT", 480},
       {"SGT", 480},  {"JST", 540},  {"KST", 540},  {"AEST", 600}, {"AEDT", 660}, {"NZST", 720},
       {"EST", -300}, {"EDT", -240}, {"MST", -420}, {"MDT", -360}, {"PST", -480}, {"PDT", -420}}};
  size_t at = 0;
  for (int tokens = 0; at < line.size() && tokens < 16; ++tokens) {
    while (at < line.size() && line[at] == ' ') ++at;
    size_t end = line.find_first_of(" ,.)`", at);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view token = line.substr(at, end - at);
    at = end + 1;
    for (const auto& [name, offset] : kZones) {
      if (token == name) return offset;
    }
    // "+0800", "-05:00" after a clock: a numeric offset.
    if (token.size() >= 5 && (token[0] == '+' || token[0] == '-') && scan::IsDigit(token[1]) &&
        scan::IsDigit(token[2])) {
      const size_t m = token[3] == ':' ? 4 : 3;
      if (token.size() != m + 2 || !scan::IsDigit(token[m]) || !scan::IsDigit(token[m + 1]))
        continue;
      const int minutes = ((token[1] - '0') * 10 + (token[2] - '0')) * 60 + (token[m] - '0') * 10 +
                          (token[m + 1] - '0');
      if (minutes <= 14 * 60) return token[0] == '-' ? -minutes : minutes;
    }
  }
  return std::nullopt;
}

std::optional<CivilTime> ParseClockReading(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.starts_with("Active: ")) return ReadUnitActiveSince(line);
  if (line.ends_with(" ***")) return ReadSlurmCancel(line);
  if (line.size() > 12 && line.substr(8, 4) == " up ") return ReadUptime(line.substr(0, 8));
  // top(1)'s header: "top - 09:31:02 up 3 days,  2:11,  1 user,  load average: ...".
  if (line.size() > 18 && line.starts_with("top - ") && line.substr(14, 4) == " up ") {
    return ReadUptime(line.substr(6, 8));
  }
  if (line.size() < kShortest || line.size() > kLongest) return std::nullopt;
  // Most lines are neither: a few fixed bytes tell before any regex runs.
  if (scan::IsDigit(line[0])) {
    if (line[4] == '-' && line[7] == '-') return ReadIso(line);
    // "2025年", "2025년", "2025. ": a CJK locale's date.
    const auto fifth = static_cast<unsigned char>(line[4]);
    return fifth == '.' || fifth == 0xE5 || fifth == 0xEB ? ReadCjkDate(line) : std::nullopt;
  }
  if (scan::IsDayName(line)) return ReadNamedDay(line);
  // A German day name is two letters and a space or comma ("Do 10. Apr ..."); a Russian one two
  // Cyrillic letters, four bytes ("Вт 03 дек ...").
  if (line[2] == ' ' || line[2] == ',') return ReadGermanDate(line);
  const auto first = static_cast<unsigned char>(line[0]);
  return (first == 0xD0 || first == 0xD1) && (line[4] == ' ' || line[4] == ',')
             ? ReadRussianDate(line)
             : std::nullopt;
}

}  // namespace spinup
