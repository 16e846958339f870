// A log exported as CSV from a log system (Datadog, CloudWatch Logs Insights, Splunk, Grafana):
// a header row names the columns; each row's message column is the log line and its time column
// when it was logged. Pure: bytes in, fields out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace spinup {

struct CsvColumns {
  int count = 0;     // columns in the header
  int time = -1;     // "Date", "@timestamp", "_time", "timestamp", "time"
  int message = -1;  // "Message", "@message", "_raw", "message", "log", "msg", "textPayload"
};

// The header's columns where `line` is a CSV header with a message column and a time column.
std::optional<CsvColumns> ReadCsvHeader(std::string_view line);

// A row's message (its quotes undone, into *message) and time field (a view into `line`). False
// where the row has too few columns. An unquoted message may hold commas: it takes every byte up
// to the columns that follow it.
bool ReadCsvRow(std::string_view line, const CsvColumns& columns, std::string* message,
                std::string_view* time);

}  // namespace spinup
