// The time of a line, in milliseconds since the epoch: dates the log's year-less and date-less
// stamps, moves zoned readings to UTC, and drops impossible years.
#include <optional>

#include "logs/log_stream.h"
#include "logs/text_scan.h"

namespace spinup {

// A person's clock reading in a zone it names ("Tue Feb 11 18:02:49 CET 2025"), on UTC: where the
// log's own stamps are UTC, or where as written it would come before the log's last line (a
// reading is taken after what it reads). nullopt where it stays as written.
// A reading whose zone is ambiguous or unnamed ("Fri Jun 20 10:16:31 CST 2025") is in the zone of
// the engine's own stamps where those ran beside UTC ones (docker --timestamps over a container in
// TZ=Asia/Shanghai).
std::optional<ParsedLine> LogStream::ReadingOnUtc(const ParsedLine& p) const {
  std::optional<int> offset = p.reading_offset_min;
  if (!offset && p.clock_reading && utc_log_) offset = local_offset_min_;
  if (!offset || *offset == 0 || p.time->year == 0) return std::nullopt;
  const int64_t written = CivilToUnixMs(*p.time);
  const int64_t utc = written - int64_t{*offset} * 60'000;
  constexpr int64_t kSlack = 60'000;
  std::optional<int64_t> last = last_time_ms_;
  if (last && !year_known_) {  // year-less lines so far: compare within the reading's year
    CivilTime in_year = UnixMsToCivil(*last);
    in_year.year = p.time->year;
    last = CivilToUnixMs(in_year);
  }
  const bool before = last && written < *last - kSlack && utc >= *last - kSlack;
  if (utc_log_ || before) {
    ParsedLine moved = p;
    moved.time = UnixMsToCivil(utc);
    moved.reading_offset_min.reset();
    moved.clock_reading = false;  // moved once
    return moved;
  }
  return std::nullopt;
}

// A wrapper's local stamp where the engine's own stamps are UTC (journalctl over TGI): on the
// engine's UTC clock, in the wrapper's zone as learned from the lines that carry both, so that
// systemd's `Started` is not hours before the engine's first line. Lines dated on the local clock
// before the zone was known move with it. The zone is learned again on each line (a DST change).
std::optional<ParsedLine> LogStream::WrapperStampOnUtc(const ParsedLine& p) {
  if (p.wrapper_offset_min) {
    if (!wrapper_offset_min_ && local_wrapper_lines_ && on_clock_shift_ && last_time_ms_) {
      const int64_t shift = -int64_t{*p.wrapper_offset_min} * 60'000;
      on_clock_shift_(shift);
      *last_time_ms_ += shift;
    }
    wrapper_offset_min_ = p.wrapper_offset_min;
    return std::nullopt;
  }
  if (!p.local_wrapper_clock) return std::nullopt;
  if (!wrapper_offset_min_) {
    local_wrapper_lines_ = true;
    return std::nullopt;
  }
  if (*wrapper_offset_min_ == 0) return std::nullopt;
  ParsedLine moved = p;
  moved.time = UnixMsToCivil(CivilToUnixMs(*p.time) - int64_t{*wrapper_offset_min_} * 60'000);
  moved.local_wrapper_clock = false;  // moved once
  return moved;
}

// Lines with a time of day only came first (SGLang 2024's), put on 1 January: they were on the
// date of `t`, the first line that has one (a script's `$(date)`, a pasted `date`), or the day
// before where their time of day is later than its. The year stays: the year's own move follows.
void LogStream::DateTheUndated(CivilTime t) {
  undated_lines_ = false;
  if (!last_time_ms_ || !on_clock_shift_) return;
  CivilTime last = UnixMsToCivil(*last_time_ms_);
  last.month = t.month;
  last.day = t.day;
  t.year = last.year;
  int64_t dated = CivilToUnixMs(last);
  constexpr int64_t kDay = 24 * 3600 * 1000LL;
  if (dated > CivilToUnixMs(t) + kDay / 2) dated -= kDay;
  on_clock_shift_(dated - *last_time_ms_);
  last_time_ms_ = dated;
}

// A time of day with no date: the previous line's date.
std::optional<int64_t> LogStream::DateTimeOfDay(CivilTime t, bool stated_reading) {
  // Time of day only (SGLang 2024): take the date of the previous line. A person's reading above
  // the log has none: it says when they looked, not when the log began.
  if (!last_time_ms_ && stated_reading) return std::nullopt;
  if (!last_time_ms_) {
    t.year = year_;
    t.month = 1;
    t.day = 1;
    undated_lines_ = true;
    return last_time_ms_ = CivilToUnixMs(t);
  }
  CivilTime prev = UnixMsToCivil(*last_time_ms_);
  t.year = prev.year;
  t.month = prev.month;
  t.day = prev.day;
  int64_t ms = CivilToUnixMs(t);
  if (ms + 12 * 3600 * 1000LL < *last_time_ms_) ms += 24 * 3600 * 1000LL;  // past midnight
  return last_time_ms_ = ms;
}

std::optional<int64_t> LogStream::ResolveTime(const ParsedLine& p) {
  if (!p.time) return std::nullopt;
  if (p.utc_stamp) utc_log_ = true;
  if (p.local_offset_min) local_offset_min_ = p.local_offset_min;
  if (std::optional<ParsedLine> moved = ReadingOnUtc(p)) return ResolveTime(*moved);
  if (std::optional<ParsedLine> moved = WrapperStampOnUtc(p)) return ResolveTime(*moved);
  CivilTime t = *p.time;
  if (!t.has_date()) return DateTimeOfDay(t, p.stated_reading);
  if (undated_lines_) DateTheUndated(t);
  if (t.year != 0 && (t.year < 1990 || t.year > opt_.reference_year + 1)) {
    return std::nullopt;  // an impossible year: a misread field, not a time
  }
  if (t.year != 0) {
    if (!year_known_ && last_time_ms_) {
      // Year-less lines came first and were given the reference year: move what they stated to
      // the year of this, the nearest dated line (the year before when they are December's and
      // this is January's: the log crossed New Year).
      const int year = last_month_ == 12 && t.month == 1 ? t.year - 1 : t.year;
      CivilTime prev = UnixMsToCivil(*last_time_ms_);
      prev.year += year - year_;
      const int64_t shift = CivilToUnixMs(prev) - *last_time_ms_;
      if (on_clock_shift_) on_clock_shift_(shift);
    }
    year_known_ = true;
    year_ = t.year;
  } else {
    int year = year_;
    if (p.wrapper_time && p.wrapper_time->year != 0) {
      year = p.wrapper_time->year;
      if (p.wrapper_time->month == 1 && t.month == 12) --year;
    } else if (last_month_ == 12 && t.month == 1) {
      year = ++year_;  // the log crossed New Year
    } else if (last_month_ == 1 && t.month == 12) {
      // A line of the old year among the new year's (processes interleave around midnight): the
      // year and month the log is in stay.
      t.year = year_ - 1;
      return last_time_ms_ = CivilToUnixMs(t);
    }
    t.year = year;
  }
  last_month_ = t.month;
  return last_time_ms_ = CivilToUnixMs(t);
}

}  // namespace spinup
