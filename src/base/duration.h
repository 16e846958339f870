// Durations as people type them on the command line ("0.2s", "90s", "5m", "1h30m", "250ms", "2d",
// or a bare number of seconds), as kubectl prints ages ("2d3h"), and as the live view prints them
// ("9 min 52 s", "2m10s").
#pragma once

#include <string>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

// Seconds; fails on junk, negative values or more than ten years.
Result<double> ParseDuration(std::string_view text);

// Long form for verdicts and reports: "9 min 52 s", "1 h 09 min", "4.6 s".
std::string FormatDuration(double seconds);

// Compact form for status lines: "850ms", "42s", "2m10s", "1h05m".
std::string FormatDurationShort(double seconds);

}  // namespace spinup
