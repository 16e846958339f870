// Structured (JSON-lines) logs: TGI's --json-output, Docker's json-file driver ({"log": ...}),
// structured Python and Go loggers. One JSON object per line; spinup reads its message, level and
// timestamp fields and judges the message like any other line. Pure and bounded: a line longer
// than kMaxJsonLineBytes, or nested deeper than a few levels, is left as plain text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

inline constexpr size_t kMaxJsonLineBytes = 64 << 10;

struct JsonLogLine {
  // "timestamp", "time", "ts", "@timestamp" (RFC 3339); else journald's "__REALTIME_TIMESTAMP"
  std::optional<CivilTime> time;
  std::string level;  // "level", "levelname", "severity" (upper-cased)
  std::string rank;   // tracing's span rank ("span" or the innermost of "spans"): "shard0", "rank1"
  std::string ident;  // journald's "SYSLOG_IDENTIFIER" (`journalctl -o json`): "systemd", "python3"
};

// When `line` is a JSON object with a message field ("message", "msg", "fields.message" (or under
// Datadog's "attributes", Elasticsearch's "_source"), "log",
// "MESSAGE", Google Cloud Logging's "textPayload"), writes the message to *message (line breaks
// inside it become " | ", or stay '\n' with `keep_breaks`; a trailing one is dropped) and returns
// the other fields; otherwise nullopt.
std::optional<JsonLogLine> ParseJsonLogLine(std::string_view line, std::string* message,
                                            bool keep_breaks = false);

// For tests and the fuzzer: true when the fast subset parser declines `line` or reads from it the
// same message, time, level and rank as nlohmann's parser (false: the subset accepted text
// nlohmann rejects, or read it differently).
bool JsonSubsetAgreesWithFullParser(std::string_view line);

}  // namespace spinup
