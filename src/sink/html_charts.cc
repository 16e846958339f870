#include "sink/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "base/duration.h"
#include "base/units.h"

namespace spinup::html {

std::string HumanBytes(double b) {
  return FormatBytes(b > 0 && b < 1.8e19 ? static_cast<uint64_t>(b) : 0);
}

// Differences of untrusted millisecond stamps, in seconds, without signed overflow.
double MsDiff(int64_t a, int64_t b) {
  return (static_cast<double>(a) - static_cast<double>(b)) / 1000.0;
}

std::string HumanSeconds(double s) { return FormatDurationShort(std::min(std::max(s, 0.0), 1e9)); }

// Natural order for rank names: "TP2" before "TP10", "" (main process) first.
bool RankLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::string RankLabel(const std::string& rank) { return rank.empty() ? "main" : rank; }

namespace {

// One colour per phase, in startup order; chosen to stay distinct when printed in grey.
constexpr const char* kPhaseColors[kPhaseCount] = {"#9aa5b1", "#6c8ebf", "#b85450", "#4c9f70",
                                                   "#d79b00", "#8e6bbf", "#c0607e", "#3f8fa6",
                                                   "#a3a847", "#2e7d32"};

// Round tick step (1, 2, 5 × 10^n) giving about `target` ticks over `span`.
double TickStep(double span, int target) {
  if (span <= 0) return 1;
  double raw = span / target;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

// The tick values from 0 to `span`, about `target` of them. A replayed stream is untrusted: an
// infinite span (durations that add up past the largest double) or a subnormal one (its step
// rounds to 0) would make a `v += step` loop run forever, so ticks are counted, not accumulated.
std::vector<double> Ticks(double span, int target) {
  if (!std::isfinite(span) || span <= 0) return {0.0};
  double step = TickStep(span, target);
  if (!std::isfinite(step) || step <= 0) return {0.0, span};
  double count = std::min(std::floor(span / step + 1e-9), 4.0 * target);
  std::vector<double> ticks;
  for (int i = 0; i <= static_cast<int>(count); ++i) ticks.push_back(i * step);
  return ticks;
}

struct Bar {
  std::string rank;
  Phase phase;
  double start_s;  // seconds from the chart's origin
  double end_s;
  bool slow;
  bool open;  // still running when the report was made
};

// Lays the timeline out in seconds from the earliest known start. Entries without timestamps
// (a log without times) follow each other per rank, using their own durations.
std::vector<Bar> LayOutBars(const Verdict& v, std::optional<int64_t> last_ms, double* span_s) {
  std::optional<int64_t> origin;
  for (const auto& t : v.timeline) {
    if (t.start_ms && (!origin || *t.start_ms < *origin)) origin = t.start_ms;
  }
  std::vector<TimelineEntry> entries = v.timeline;
  if (entries.empty()) {  // no timeline: at least show where each rank is
    for (const auto& r : v.ranks) {
      entries.push_back({r.rank, r.phase, r.since_ms, std::nullopt, v.phase_seconds, false});
      if (r.since_ms && (!origin || *r.since_ms < *origin)) origin = r.since_ms;
    }
  }
  std::map<std::string, double> cursor;  // per rank, for untimed entries
  std::vector<Bar> bars;
  double span = 0;
  for (const auto& t : entries) {
    Bar b{t.rank, t.phase, 0, 0, t.slow, false};
    if (t.start_ms && origin) {
      b.start_s = MsDiff(*t.start_ms, *origin);
      if (t.end_ms) {
        b.end_s = MsDiff(*t.end_ms, *origin);
      } else if (t.seconds) {
        b.end_s = b.start_s + *t.seconds;
        b.open = !t.end_ms && t.phase != Phase::kReady;
      } else if (last_ms) {
        b.end_s = std::max(b.start_s, MsDiff(*last_ms, *origin));
        b.open = t.phase != Phase::kReady;
      } else {
        b.end_s = b.start_s;
      }
    } else {
      b.start_s = cursor[t.rank];
      b.end_s = b.start_s + (t.seconds ? std::max(0.0, *t.seconds) : 0.0);
    }
    cursor[t.rank] = std::max(cursor[t.rank], b.end_s);
    span = std::max(span, b.end_s);
    bars.push_back(std::move(b));
  }
  *span_s = span;
  return bars;
}

void AppendAxis(std::string& out, double x0, double width, double y, double span, int ticks,
                const std::function<std::string(double)>& label) {
  for (double v : Ticks(span, ticks)) {
    double x = x0 + (span > 0 ? v / span * width : 0);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"0\" y2=\"{1:.1f}\"/>"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{2:.1f}\" text-anchor=\"middle\">{3}</text>",
        x, y, y + 14, HtmlEscape(label(v)));
  }
}

// A line chart of one or more series over the report's time range.
struct Series {
  std::string name;
  std::string color;
  std::vector<std::pair<double, double>> points;  // (seconds from origin, value)
  bool dashed = false;
  bool right_axis = false;
};

std::string LineChartSvg(const std::vector<Series>& series, const std::string& aria,
                         const std::function<std::string(double)>& left_label,
                         const std::function<std::string(double)>& right_label,
                         double left_max_hint) {
  const double left = 90, width = 820, height = 200;
  double tmax = 0, lmax = left_max_hint, rmax = 0;
  for (const auto& s : series) {
    for (const auto& [t, y] : s.points) {
      tmax = std::max(tmax, t);
      (s.right_axis ? rmax : lmax) = std::max(s.right_axis ? rmax : lmax, y);
    }
  }
  if (tmax <= 0) tmax = 1;
  if (lmax <= 0) lmax = 1;
  if (rmax <= 0) rmax = 1;
  std::string out =
      fmt::format("<svg class=\"chart line\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">",
                  left + width + 80, height + 24, HtmlEscape(aria));
  AppendAxis(out, left, width, height, tmax, 8, [](double s) { return HumanSeconds(s); });
  for (double v : Ticks(lmax, 4)) {
    double y = height - v / lmax * height;
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/>"
        "<text class=\"tick\" x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>",
        left, left + width, y, left - 6, y + 4, HtmlEscape(left_label(v)));
  }
  bool any_right = std::any_of(series.begin(), series.end(), [](auto& s) { return s.right_axis; });
  if (any_right) {
    for (double v : Ticks(rmax, 4)) {
      double y = height - v / rmax * height;
      out += fmt::format("<text class=\"tick right\" x=\"{}\" y=\"{:.1f}\">{}</text>",
                         left + width + 6, y + 4, HtmlEscape(right_label(v)));
    }
  }
  for (const auto& s : series) {
    double max = s.right_axis ? rmax : lmax;
    std::string pts;
    for (const auto& [t, y] : s.points) {
      pts += fmt::format("{:.1f},{:.1f} ", left + t / tmax * width, height - y / max * height);
    }
    out += fmt::format(
        "<polyline class=\"series\" data-series=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\"{}><title>{}</title></polyline>",
        HtmlEscape(s.name), pts, s.color, s.dashed ? " stroke-dasharray=\"6 4\"" : "",
        HtmlEscape(s.name));
  }
  out += "</svg><div class=\"legend\">";
  for (const auto& s : series) {
    out +=
        fmt::format("<span><i style=\"background:{}\"></i>{}</span>", s.color, HtmlEscape(s.name));
  }
  out += "</div>";
  return out;
}

}  // namespace

std::string GanttSvg(const Verdict& v, std::optional<int64_t> last_ms) {
  double span = 0;
  std::vector<Bar> bars = LayOutBars(v, last_ms, &span);
  if (bars.empty()) return "<p class=\"muted\">No phase timeline was seen.</p>";
  std::vector<std::string> ranks;
  {
    std::set<std::string> seen;
    for (const auto& b : bars) {
      if (seen.insert(b.rank).second) ranks.push_back(b.rank);
    }
  }
  std::sort(ranks.begin(), ranks.end(), RankLess);
  std::map<std::string, size_t> row_of;
  for (size_t i = 0; i < ranks.size(); ++i) row_of.emplace(ranks[i], i);
  if (span <= 0) span = 1;
  const double left = 90, width = 860, row = 26;
  const double height = row * static_cast<double>(ranks.size());
  std::string out = fmt::format(
      "<svg class=\"chart gantt\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"Phases per rank over time\">",
      left + width + 20, height + 24);
  out +=
      "<defs><pattern id=\"slowhatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"6\" "
      "fill=\"rgba(0,0,0,0.35)\"/></pattern></defs>";
  AppendAxis(out, left, width, height, span, 8, [](double s) { return HumanSeconds(s); });
  for (size_t i = 0; i < ranks.size(); ++i) {
    out += fmt::format("<text class=\"rank\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>",
                       left - 8, row * static_cast<double>(i) + row / 2 + 4,
                       HtmlEscape(RankLabel(ranks[i])));
  }
  for (const auto& b : bars) {
    size_t i = row_of.at(b.rank);
    double x = left + b.start_s / span * width;
    double w = std::max(2.0, (b.end_s - b.start_s) / span * width);
    double y = row * static_cast<double>(i) + 4;
    std::string phase(PhaseName(b.phase));
    std::string tip =
        fmt::format("{} {}: {}{}{}", RankLabel(b.rank), phase, HumanSeconds(b.end_s - b.start_s),
                    b.open ? " so far" : "", b.slow ? " (slow)" : "");
    out += fmt::format(
        "<g class=\"bar{}\" data-rank=\"{}\" data-phase=\"{}\" data-seconds=\"{:.3f}\"{}>"
        "<title>{}</title><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"{}\"/>",
        b.slow ? " slow" : "", HtmlEscape(b.rank), phase, b.end_s - b.start_s,
        b.slow ? " data-slow=\"1\"" : "", HtmlEscape(tip), x, y, w, row - 8,
        kPhaseColors[static_cast<int>(b.phase)]);
    if (b.slow) {
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
          "fill=\"url(#slowhatch)\" stroke=\"#b71c1c\" stroke-width=\"2\"/>",
          x, y, w, row - 8);
    }
    if (w > 70) {
      out += fmt::format("<text class=\"barlabel\" x=\"{:.1f}\" y=\"{:.1f}\">{}{}</text>", x + 4,
                         y + row / 2 + 1, phase, b.slow ? " SLOW" : "");
    }
    out += "</g>";
  }
  out += "</svg><div class=\"legend\">";
  std::set<Phase> used;
  for (const auto& b : bars) used.insert(b.phase);
  for (Phase p : used) {
    out += fmt::format("<span><i style=\"background:{}\"></i>{}</span>",
                       kPhaseColors[static_cast<int>(p)], PhaseName(p));
  }
  out += "<span><i class=\"slowkey\"></i>slow (over its budget)</span></div>";
  return out;
}

std::string BytesSection(const ReportData& d, int64_t origin) {
  if (d.bytes.empty()) {
    return "<p class=\"muted\">No checkpoint read progress was measured.</p>";
  }
  Series done{"bytes read", "#1565c0", {}, false, false};
  Series rate{"read rate (right axis)", "#d79b00", {}, true, true};
  double peak = 0;
  std::optional<uint64_t> total;
  for (const auto& p : d.bytes) {
    double t = MsDiff(p.time_ms, origin);
    done.points.push_back({t, static_cast<double>(p.bytes_done)});
    if (p.bytes_per_second) {
      rate.points.push_back({t, *p.bytes_per_second});
      peak = std::max(peak, *p.bytes_per_second);
    }
    if (p.bytes_total) total = p.bytes_total;
  }
  const auto& first = d.bytes.front();
  // The storage rate is over the reading itself, up to the point the last byte arrived: time
  // spent in later phases must not dilute it.
  size_t end = d.bytes.size() - 1;
  while (end > 0 && d.bytes[end - 1].bytes_done == d.bytes.back().bytes_done) --end;
  const auto& last = d.bytes[end];
  double secs = MsDiff(last.time_ms, first.time_ms);
  double avg =
      secs > 0
          ? static_cast<double>(last.bytes_done - std::min(first.bytes_done, last.bytes_done)) /
                secs
          : 0;
  std::string out = "<p class=\"facts\">";
  out += fmt::format("Read <b>{}</b>", HumanBytes(static_cast<double>(last.bytes_done)));
  if (total) out += fmt::format(" of <b>{}</b>", HumanBytes(static_cast<double>(*total)));
  if (avg > 0) out += fmt::format(" &middot; storage rate <b>{}/s</b> average", HumanBytes(avg));
  if (peak > 0) out += fmt::format(", {}/s peak", HumanBytes(peak));
  out += "</p>";
  std::vector<Series> series = {done};
  if (!rate.points.empty()) series.push_back(rate);
  out += LineChartSvg(
      series, "Checkpoint bytes read over time", [](double v) { return HumanBytes(v); },
      [](double v) { return HumanBytes(v) + "/s"; }, total ? static_cast<double>(*total) : 0);
  return out;
}

std::string GpuSection(const ReportData& d, int64_t origin) {
  if (d.gpus.empty()) {
    return fmt::format(
        "<p class=\"muted\">{}</p>",
        HtmlEscape(d.gpu_message.empty() ? "GPU memory was not measured." : d.gpu_message));
  }
  static const char* kColors[] = {"#1565c0", "#b71c1c", "#2e7d32", "#d79b00",
                                  "#8e6bbf", "#3f8fa6", "#c0607e", "#555555"};
  std::vector<Series> series;
  double cap = 0;
  for (const auto& [index, points] : d.gpus) {
    Series s{fmt::format("GPU {}", index), kColors[series.size() % 8], {}, false, false};
    for (const auto& p : points) {
      s.points.push_back({MsDiff(p.time_ms, origin), static_cast<double>(p.used_bytes)});
      cap = std::max(cap, static_cast<double>(p.total_bytes));
    }
    series.push_back(std::move(s));
  }
  return LineChartSvg(
      series, "GPU memory used per device over time", [](double v) { return HumanBytes(v); },
      [](double v) { return HumanBytes(v); }, cap);
}

}  // namespace spinup::html
