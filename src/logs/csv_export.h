// A log exported as CSV from a log system (Datadog, CloudWatch Logs Insights, Splunk, Grafana):
// a header row names the columns; each row's message column is the log line and its time column
// when it was logged. Pure: bytes in, fields out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

struct CsvColumns {
  int count = 0;     // columns in the header
  int time = -1;     // "Date", "@timestamp", "_time", "timestamp", "time", "TimeGenerated"
  int message = -1;  // "Message", "@message", "_raw", "message", "log", "msg", "LogMessage", ...
};

// The header's columns where `line` is a CSV header with a message column and a time column.
std::optional<CsvColumns> ReadCsvHeader(std::string_view line);

// A row's message (its quotes undone, into *message) and time field (a view into `line`). False
// where the row has too few columns. An unquoted message may hold commas: it takes every byte up
// to the columns that follow it.
bool ReadCsvRow(std::string_view line, const CsvColumns& columns, std::string* message,
                std::string_view* time);

// A portal's US-style time field ("2/11/2025, 1:05:03.004 PM", Azure Log Analytics' export):
// month, day and year, then a 12- or 24-hour clock. False where `s` is not wholly one.
bool ParseUsPortalTime(std::string_view s, CivilTime& t);

}  // namespace spinup
