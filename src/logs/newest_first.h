// Logs exported newest first (CSV exports of log services, Loki's `logcli` without --forward, web
// consoles): read in the order given, a crash reads as the start's first phase and a loop as one
// attempt. `explain` reads such a log, when it fits in memory, the other way round.
#pragma once

#include <string>
#include <string_view>

namespace spinup {

class RuleSet;

// Whether the stamped lines of `text` run backwards in time: at least 8 steps back between lines
// that carry a time of their own and three times as many back as forward, or 4 back and none
// forward, in its first MiB. Read with the stream's own parsers (`rules` compiled;
// `reference_year` for year-less stamps).
bool RunsNewestFirst(std::string_view text, const RuleSet& rules, int reference_year);

// `text` with its lines in the opposite order; every line ends with a newline.
std::string ReverseLines(std::string_view text);

}  // namespace spinup
