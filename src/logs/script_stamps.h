// Times that scripts, shippers and date(1) put before a line (script_stamps.cc). Internal to
// src/logs.
#pragma once

#include <string_view>

#include "logs/line_parser.h"

namespace spinup::line_internal {

// A shipper's or `ts`'s date and time before the line: p.wrapper_time, and `s` past it.
bool StripShipperTime(std::string_view& s, ParsedLine& p);
// date(1)'s output before a script's line ("Tue Oct 15 16:03:29 UTC 2024 waiting ...").
bool StripDateOutputTime(std::string_view& s, ParsedLine& p);
// A script's own bracket with its time ("[entrypoint 2024-11-04 11:30:02] ", dmesg -T's), or
// `ts '[%H:%M:%S]'` before an engine's dated prefix (dropped: the engine's stamp is the time).
bool StripBracketedScriptTime(std::string_view& s, ParsedLine& p);
// A Procfile runner's time of day before its process name (honcho's and foreman's
// "10:02:14 vllm.1   | "): `s` past the time, the name left for compose's reader. Dropped like
// `ts`'s: without a date it cannot stand beside the engine's stamps.
bool StripProcfileTime(std::string_view& s);

}  // namespace spinup::line_internal
