// ParseLine's reading of one candidate start of a line (line_parser.cc), exposed for its tests.
// Internal to src/logs.
#pragma once

#include <string_view>

#include "logs/line_parser.h"

namespace spinup::line_internal {

// False when neither a wrapper nor an engine prefix can start `line`: ReadLinePrefixes would then
// find none and return only the message (the line, less a Ray repeat tail).
bool MayStartLinePrefix(std::string_view line);
// Wrappers, outermost first, then the engine's prefixes: every parser tried.
ParsedLine ReadLinePrefixes(std::string_view line);

}  // namespace spinup::line_internal
