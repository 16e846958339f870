// The HTML report's drawings (sink/html_report.cc assembles the page): the phase Gantt chart
// and the line charts of checkpoint bytes read and GPU memory, as inline SVG, plus the small
// formatters the page shares with them. Pure functions; every string drawn is escaped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sink/html_report.h"
#include "spinup/startup.h"

namespace spinup::html {

std::string HumanBytes(double b);
// Differences of untrusted millisecond stamps, in seconds, without signed overflow.
double MsDiff(int64_t a, int64_t b);
std::string HumanSeconds(double s);
// Natural order for rank names: "TP2" before "TP10", "" (main process) first.
bool RankLess(const std::string& a, const std::string& b);
std::string RankLabel(const std::string& rank);

// One bar per phase and rank, laid out in seconds from the earliest known start.
std::string GanttSvg(const Verdict& v, std::optional<int64_t> last_ms);
// Bytes read and the read rate over time, with the totals above the chart.
std::string BytesSection(const ReportData& d, int64_t origin);
// GPU memory used per device over time (or why it was not measured).
std::string GpuSection(const ReportData& d, int64_t origin);

}  // namespace spinup::html
