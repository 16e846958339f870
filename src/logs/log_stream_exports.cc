// LogStream's reading of log systems' exports: a CSV export's message column, and a text export's
// row whose line is a field of its own (ExportedLine) behind a wrapper.
#include <string>

#include "logs/csv_export.h"
#include "logs/export_rows.h"
#include "logs/log_stream.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

// A line read out of a wrapper's field keeps the wrapper's clock (one clock per log) and, where it
// names none of its own, the wrapper's program and rank.
ParsedLine UnderTheWrapper(ParsedLine p, const ParsedLine& outer) {
  if (outer.wrapper_time) p.time = p.wrapper_time = outer.wrapper_time;
  if (!p.time) p.time = outer.time;
  if (p.source.empty()) p.source = outer.source;
  if (p.rank.empty()) p.rank = outer.rank;
  return p;
}

}  // namespace

ParsedLine LogStream::ReadCsvMessage(std::string_view time) {
  last_clean_ = csv_message_;
  ParsedLine p = ReadLine(last_clean_);
  CivilTime t;
  size_t end = scan::ParseRfc3339(time, 0, t);
  if (end == std::string_view::npos) {
    end = scan::ParseDateTime(time, 0, time.size() > 10 && time[10] == 'T' ? 'T' : ' ', t);
    if (end != std::string_view::npos) {
      scan::ParseFraction(time, end, t);
    } else if (ParseUsPortalTime(time, t)) {
      end = time.size();
    }
  } else {
    p.utc_stamp = true;
  }
  if (end != std::string_view::npos) p.time = p.wrapper_time = t;  // the export's clock
  return p;
}

ParsedLine LogStream::ReadCsvField(const ParsedLine& outer) {
  const std::string_view field = outer.message.substr(1, outer.message.size() - 2);
  csv_message_.clear();
  for (size_t i = 0; i < field.size(); ++i) {
    csv_message_.push_back(field[i]);
    if (field[i] == '"' && i + 1 < field.size() && field[i + 1] == '"') ++i;  // "" is one quote
  }
  last_clean_ = csv_message_;
  return UnderTheWrapper(ReadLine(last_clean_), outer);
}

// A text export's row behind a wrapper ("> " of a quoted paste, compose's "svc  | "): its line is
// read as a line of its own, under the wrapper's clock.
ParsedLine LogStream::ReadExported(const ParsedLine& outer, std::string_view inner) {
  if (inner.data() != export_line_.data()) export_line_.assign(inner);
  last_clean_ = export_line_;
  if (!export_line_.empty() && export_line_.front() == '{') {
    if (auto p = ParseStructured(export_line_, outer, /*logfmt=*/false)) return std::move(*p);
  }
  return UnderTheWrapper(ReadLine(last_clean_), outer);
}

}  // namespace spinup
