// The Prometheus text exposition format (version 0.0.4), written by hand because it is small and
// its rules are exact: one HELP and one TYPE line per family, label values escaped (\\, \", \n),
// HELP text escaped (\\, \n), values as Go's strconv would print them (NaN, +Inf, -Inf).
// https://prometheus.io/docs/instrumenting/exposition_formats/
//
// ParseExposition reads the format back; the tests and the integration test use it to check what
// a scrape would see.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinup/status.h"

namespace spinup {

enum class MetricType { kGauge, kCounter };

struct MetricSample {
  // Ordered: label order in the output follows insertion order.
  std::vector<std::pair<std::string, std::string>> labels;
  double value = 0;
};

struct MetricFamily {
  std::string name;
  std::string help;
  MetricType type = MetricType::kGauge;
  std::vector<MetricSample> samples;
};

// Escapes \\, " and newlines; invalid UTF-8 becomes U+FFFD (Prometheus rejects a scrape over it).
std::string EscapeLabelValue(std::string_view value);
std::string EscapeHelp(std::string_view help);
std::string FormatMetricValue(double value);
// A valid metric or label name: [a-zA-Z_:][a-zA-Z0-9_:]* (labels: no ':').
bool IsValidMetricName(std::string_view name);
bool IsValidLabelName(std::string_view name);

// Families with no samples are left out (a HELP/TYPE with nothing under it says nothing).
std::string WriteExposition(const std::vector<MetricFamily>& families);

struct ParsedSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};
struct ParsedExposition {
  std::map<std::string, std::string> help;  // family name -> unescaped help
  std::map<std::string, std::string> type;  // family name -> "gauge", "counter", ...
  std::vector<ParsedSample> samples;
  // First sample named `name` whose labels include all of `match`; nullptr when none.
  const ParsedSample* Find(std::string_view name,
                           const std::map<std::string, std::string>& match = {}) const;
};
// Strict enough to catch what Prometheus would reject (bad names, unterminated or badly escaped
// label values, a missing value, a TYPE after the family's samples).
Result<ParsedExposition> ParseExposition(std::string_view text);

}  // namespace spinup
