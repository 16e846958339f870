// A line that is nothing but a clock reading: the output of date(1), pasted after a log to say
// how long it sat there ("$ date" / "Mon Jun  2 10:56:12 UTC 2025"). Internal to src/logs.
#pragma once

#include <optional>
#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

// The time a whole line states, with its year: date(1)'s default output in the C, en_US and
// en_GB locales ("Mon Jun  2 10:56:12 UTC 2025", "Mon 02 Jun 2025 10:56:12 AM UTC",
// "Mon  2 Jun 10:56:12 UTC 2025") and its ISO forms ("2025-06-02T10:56:12+00:00",
// "2025-06-02 10:56:12"), and `systemctl status`'s "Active: active (running) since Mon 2025-06-02
// 08:00:00 UTC; 52min ago" (the start plus the span); uptime(1)'s "14:53:27 up 6 days, ..." gives
// a time of day only (no date: the log's previous line has it); Slurm's "*** STEP N ON host
// CANCELLED AT 2025-01-14T03:12:40 DUE TO TIME LIMIT ***", when the job was ended. The reading is
// as written, in the zone it names (ReadingZoneOffsetMinutes; the log stream moves it to UTC where
// the log's clock is UTC). nullopt for anything else, including a stamp with more text after it
// (that is a log line).
std::optional<CivilTime> ParseClockReading(std::string_view line);

// date(1)'s output quoted in a sentence right after the word "date" ("(no output after this.
// `date` -> Thu Jun 20 08:47:02 UTC 2024)", "`date` now says Sun Sep 21 14:54:30 UTC 2025."):
// the writer's reading of the clock when the log was pasted.
std::optional<CivilTime> ParseReportedClock(std::string_view line);

// The offset from UTC, in minutes, of the zone a clock reading names ("CET" +60, "PST" -480,
// "+0800", "UTC" 0): the first token of the line that is a zone this knows. nullopt where none is
// named or the name is ambiguous ("CST", "IST"). The reading itself stays on the clock it was
// written in: the log stream decides whether to move it (LogStream::ResolveTime).
std::optional<int> ReadingZoneOffsetMinutes(std::string_view line);

}  // namespace spinup
