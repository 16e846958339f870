// Rows of a log system's text export that hold the log line in a field of their own, neither a
// JSON object nor CSV: the AWS CLI's `aws logs filter-log-events --output text` and fluent-bit's
// stdout output. Pure: bytes in, the line out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace spinup {

// The log line inside `row` where it is such a row, else nullopt:
// - `EVENTS<TAB>stream<TAB>epoch-ms<TAB>message<TAB>ingestion-ms` (a view into `row`);
// - `[N] tag: [epoch, {"stream"=>"stderr", "log"=>"the line"}]`, fluent-bit's record in Ruby's
//   hash notation: its "log" (or "message") value, escapes undone into *scratch.
std::optional<std::string_view> ExportedLine(std::string_view row, std::string* scratch);

}  // namespace spinup
