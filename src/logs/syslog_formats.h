// journalctl's other time formats and RFC 5424 syslog: the service manager's wrapper around a
// server's line, read as line_parser.cc reads journalctl's default. Internal to src/logs.
#pragma once

#include <cstddef>
#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

// journalctl -o short-full: "Thu 2025-08-14 10:02:11 UTC host unit[pid]: msg". The index after
// the time zone (where the host begins), or npos.
size_t ParseJournalShortFull(std::string_view s, CivilTime& t);
// journalctl -o short-unix: "1755165731.000003 host unit[pid]: msg". The index after the time.
size_t ParseJournalShortUnix(std::string_view s, CivilTime& t);
// RFC 5424: "<14>1 2025-09-03T02:11:40.000000Z host app 24817 - - msg". The message's index, with
// the app's name in `app` ("" when "-"), or npos.
size_t ParseSyslog5424(std::string_view s, CivilTime& t, std::string_view* app);
// After a journal timestamp at s[i]: "host ident[pid]: " (or, --no-hostname, "ident[pid]: ") →
// index of the message, or npos.
// `ident` receives "ident[pid]".
size_t SkipHostIdent(std::string_view s, size_t i, std::string_view* ident);
// Any of the three formats above at the start of `s`: strips it, sets the wrapper's time and
// ident in `p`. False (nothing changed) otherwise.
bool StripServiceManagerTime(std::string_view& s, ParsedLine& p);
// False where none of the three can start `s`, from a few fixed bytes: the reader asks it of
// every line first.
inline bool MayStartServiceManagerLine(std::string_view s) {
  if (s.size() < 20) return false;
  if (s[0] == '<') return true;                           // <PRI>1
  if (s[3] == ' ') return s.size() >= 28 && s[8] == '-';  // "Thu 2025-08-14"
  return s[10] == '.' || s[9] == '.';                     // seconds since 1970 (9-10 digits)
}

}  // namespace spinup
