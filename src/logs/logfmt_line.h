// logfmt lines (Go's slog and logrus text output, Vector's and Loki's logfmt encoding):
// `ts=2025-05-01T10:00:00Z level=info target=text_generation_launcher msg="Starting shard"`.
// spinup reads the message, level and time fields and judges the message like any other line.
// Pure and bounded: a line longer than kMaxJsonLineBytes, or one that is not key=value pairs
// throughout, is left as plain text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "logs/json_line.h"

namespace spinup {

// Whether the line opens like logfmt (a key of letters, digits, '_', '.', '-' or '@', then '='):
// a test of a few bytes, made before the parse.
bool MayBeLogfmt(std::string_view line);

// When `line` is logfmt with a message field ("msg", "message", "log"), writes the message to
// *message (its escaped line breaks become '\n'; a trailing one is dropped) and returns the time
// ("ts", "time", "timestamp", "t": RFC 3339) and level ("level", "lvl", "severity", upper-cased);
// otherwise nullopt.
std::optional<JsonLogLine> ParseLogfmtLine(std::string_view line, std::string* message);

}  // namespace spinup
