#include "sink/html_report.h"

#include "base/duration.h"
#include "base/units.h"
#include "base/safe_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <ctime>
#include <set>
#include <utility>

#include "sink/html_stall.h"
#include "sink/live_format.h"

namespace spinup {

namespace {

// One colour per phase, in startup order; chosen to stay distinct when printed in grey.
constexpr const char* kPhaseColors[kPhaseCount] = {"#9aa5b1", "#6c8ebf", "#b85450", "#4c9f70",
                                                   "#d79b00", "#8e6bbf", "#c0607e", "#3f8fa6",
                                                   "#a3a847", "#2e7d32"};

const char* StateColor(State s) {
  switch (s) {
    case State::kReady:
      return "#2e7d32";
    case State::kProgressing:
    case State::kInProgress:
    case State::kStarting:
      return "#1565c0";
    case State::kSlow:
      return "#b26a00";
    case State::kStalled:
    case State::kCrashed:
    case State::kCrashLoop:
      return "#b71c1c";
    case State::kUnknown:
    case State::kStopped:
      break;
  }
  return "#555";
}

std::string HumanBytes(double b) {
  return FormatBytes(b > 0 && b < 1.8e19 ? static_cast<uint64_t>(b) : 0);
}

// Differences of untrusted millisecond stamps, in seconds, without signed overflow.
double MsDiff(int64_t a, int64_t b) {
  return (static_cast<double>(a) - static_cast<double>(b)) / 1000.0;
}

std::string HumanSeconds(double s) { return FormatDurationShort(std::min(std::max(s, 0.0), 1e9)); }

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
  double step = TickStep(span, ticks);
  for (double v = 0; v <= span + 1e-9; v += step) {
    double x = x0 + (span > 0 ? v / span * width : 0);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"0\" y2=\"{1:.1f}\"/>"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{2:.1f}\" text-anchor=\"middle\">{3}</text>",
        x, y, y + 14, HtmlEscape(label(v)));
  }
}

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
  double lstep = TickStep(lmax, 4);
  for (double v = 0; v <= lmax + 1e-9; v += lstep) {
    double y = height - v / lmax * height;
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/>"
        "<text class=\"tick\" x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>",
        left, left + width, y, left - 6, y + 4, HtmlEscape(left_label(v)));
  }
  bool any_right = std::any_of(series.begin(), series.end(), [](auto& s) { return s.right_axis; });
  if (any_right) {
    double rstep = TickStep(rmax, 4);
    for (double v = 0; v <= rmax + 1e-9; v += rstep) {
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

std::string LogLine(const LogEvent& e) {
  std::string where = e.line_no ? fmt::format("{}", e.line_no) : "";
  return fmt::format(
      "<div class=\"logline {}\"><span class=\"ln\">{}</span><span class=\"rk\">{}</span>"
      "<code>{}</code></div>",
      e.kind == LogEvent::Kind::kError || e.kind == LogEvent::Kind::kFatal ? "err" : "",
      HtmlEscape(where), HtmlEscape(RankLabel(e.rank)), HtmlEscape(e.text));
}

constexpr const char* kCss = R"CSS(
:root { --fg:#1d232a; --muted:#66707a; --line:#d8dde3; --bg:#ffffff; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
       background: var(--bg); margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta, .muted { color: var(--muted); }
#verdict { border-left: 8px solid var(--state); background: #f6f8fa; padding: 12px 16px; margin: 16px 0; }
#verdict .state { display: inline-block; color: #fff; background: var(--state); font-weight: 700;
                  padding: 2px 10px; border-radius: 3px; text-transform: uppercase; letter-spacing: .04em; }
#verdict .headline { font-size: 18px; font-weight: 600; margin: 8px 0 4px; }
#verdict ul { margin: 8px 0 0; padding-left: 20px; }
.facts b { font-variant-numeric: tabular-nums; }
svg.chart { width: 100%; height: auto; display: block; }
svg .grid { stroke: #eef0f3; stroke-width: 1; }
svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg text.rank { font-weight: 600; fill: var(--fg); }
svg text.barlabel { fill: #fff; font-weight: 600; pointer-events: none; }
svg g.bar:hover rect { opacity: .85; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; margin: 6px 0 0 90px; color: var(--muted); font-size: 12px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -2px; }
.legend i.slowkey { background: repeating-linear-gradient(45deg, #999 0 3px, #fff 3px 6px); outline: 2px solid #b71c1c; }
li, .finding, .facts, .headline { overflow-wrap: anywhere; }
.notknown { color: var(--muted); margin-top: 6px; }
.finding { border: 1px solid var(--line); border-radius: 4px; padding: 10px 14px; margin: 8px 0; }
.finding h3 { font-size: 15px; margin: 0 0 4px; }
.finding .fix { background: #eef7ee; padding: 6px 10px; border-radius: 3px; white-space: pre-wrap; }
.logs { border: 1px solid var(--line); border-radius: 4px; overflow-x: auto; }
.logline { display: flex; gap: 10px; font: 12px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; padding: 1px 8px; }
.logline.err { background: #fdecea; }
.logline .ln { color: var(--muted); min-width: 4em; text-align: right; }
.logline .rk { color: var(--muted); min-width: 4em; }
.logline code { white-space: pre-wrap; word-break: break-all; }
table.states { border-collapse: collapse; font-size: 13px; }
table.states td { padding: 2px 10px 2px 0; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  #verdict { background: none; border: 2px solid var(--state); -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  svg.chart, .finding, .logline, #verdict { break-inside: avoid; }
  h2 { break-after: avoid; }
  svg, .legend i, #verdict .state, .logline.err { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .logs { overflow: visible; border: none; }
}
)CSS";

std::string FormatClock(int64_t ms) {
  time_t secs = static_cast<time_t>(ms / 1000);
  struct tm tm_utc {};
  gmtime_r(&secs, &tm_utc);
  return fmt::format("{:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d} UTC", tm_utc.tm_year + 1900,
                     tm_utc.tm_mon + 1, tm_utc.tm_mday, tm_utc.tm_hour, tm_utc.tm_min,
                     tm_utc.tm_sec);
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // Control characters (ANSI escapes left in a log) would make the file invalid XML/SVG.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += "&#xFFFD;";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string RenderHtmlReport(const ReportData& d) {
  Verdict v = d.verdict.value_or(Verdict{});
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += fmt::format("<title>{} — {}</title>", HtmlEscape(d.options.title), StateName(v.state));
  out += "<style>";
  out += kCss;
  out += "</style></head><body>\n";
  out += fmt::format("<header><h1>{}</h1><div class=\"meta\">", HtmlEscape(d.options.title));
  std::vector<std::string> meta;
  if (!d.options.job.empty()) meta.push_back("job " + HtmlEscape(d.options.job));
  if (!d.options.host.empty()) meta.push_back("host " + HtmlEscape(d.options.host));
  if (!v.engine.empty()) meta.push_back("engine " + HtmlEscape(v.engine));
  if (!d.options.source.empty()) meta.push_back("source " + HtmlEscape(d.options.source));
  if (d.first_ms) meta.push_back("from " + FormatClock(*d.first_ms));
  if (d.last_ms && d.first_ms) {
    meta.push_back("over " + HumanSeconds(MsDiff(*d.last_ms, *d.first_ms)));
  }
  for (size_t i = 0; i < meta.size(); ++i) out += (i ? " &middot; " : "") + meta[i];
  out += "</div></header>\n";

  // The verdict and its evidence come first: that is what the reader came for.
  out += fmt::format(
      "<section id=\"verdict\" data-state=\"{0}\" data-phase=\"{1}\" style=\"--state:{2}\">"
      "<span class=\"state\">{0}</span> <span class=\"phase\">in {1}</span>",
      StateName(v.state), PhaseName(v.phase), StateColor(v.state));
  out += fmt::format("<div class=\"headline\">{}</div>",
                     HtmlEscape(v.headline.empty() ? std::string(StateName(v.state)) : v.headline));
  std::vector<std::string> facts;
  if (v.attempts > 1) facts.push_back(fmt::format("{} attempts", v.attempts));
  if (v.phase_seconds) facts.push_back("phase running " + HumanSeconds(*v.phase_seconds));
  if (v.budget_seconds) facts.push_back("budget " + HumanSeconds(*v.budget_seconds));
  if (v.stalled_seconds) facts.push_back("no progress for " + HumanSeconds(*v.stalled_seconds));
  if (v.progress.bytes_done && v.progress.bytes_total) {
    facts.push_back(fmt::format("{} of {} read",
                                HumanBytes(static_cast<double>(*v.progress.bytes_done)),
                                HumanBytes(static_cast<double>(*v.progress.bytes_total))));
  }
  if (v.progress.eta_seconds) facts.push_back("ETA " + HumanSeconds(*v.progress.eta_seconds));
  if (v.first_request_seconds)
    facts.push_back("first request " + HumanSeconds(*v.first_request_seconds));
  if (v.warm) facts.push_back(WarmText(*v.warm));
  if (!facts.empty()) {
    out += "<div class=\"facts\">";
    for (size_t i = 0; i < facts.size(); ++i) out += (i ? " &middot; " : "") + HtmlEscape(facts[i]);
    out += "</div>";
  }
  if (!v.evidence.empty()) {
    out += "<ul class=\"evidence\">";
    for (const auto& e : v.evidence) out += "<li>" + HtmlEscape(e) + "</li>";
    out += "</ul>";
  }
  if (!v.not_known.empty()) {
    out += "<ul class=\"notknown\">";
    for (const auto& n : v.not_known) out += "<li>not known: " + HtmlEscape(n) + "</li>";
    out += "</ul>";
  }
  out += "</section>\n";
  if (v.stall_evidence) out += StallEvidenceHtml(*v.stall_evidence);

  if (!v.findings.empty()) {
    out += "<section id=\"findings\"><h2>Known causes that fit</h2>";
    for (const auto& f : v.findings) {
      out += fmt::format("<div class=\"finding\" data-finding=\"{}\"><h3>{}</h3>", HtmlEscape(f.id),
                         HtmlEscape(f.title.empty() ? f.id : f.title));
      if (!f.evidence.empty()) {
        out += "<ul>";
        for (const auto& e : f.evidence) out += "<li>" + HtmlEscape(e) + "</li>";
        out += "</ul>";
      }
      if (!f.fix.empty()) out += "<div class=\"fix\"><b>Fix:</b> " + HtmlEscape(f.fix) + "</div>";
      out += "</div>";
    }
    out += "</section>\n";
  }

  int64_t origin = d.first_ms.value_or(0);
  for (const auto& t : v.timeline) {
    if (t.start_ms) origin = std::min(origin, *t.start_ms);
  }
  out += "<section id=\"timeline\"><h2>Phases per rank</h2>";
  out += GanttSvg(v, d.last_ms);
  out += "</section>\n";
  out +=
      "<section id=\"bytes\"><h2>Checkpoint read</h2>" + BytesSection(d, origin) + "</section>\n";
  out += "<section id=\"gpu\"><h2>GPU memory</h2>" + GpuSection(d, origin) + "</section>\n";

  // Decisive lines: the verdict's quoted errors, the error lines seen, and where each rank stopped.
  out += "<section id=\"log\"><h2>Decisive log lines</h2>";
  bool any = false;
  if (!v.errors.empty()) {
    out += "<div class=\"logs\">";
    for (const auto& e : v.errors) {
      out += "<div class=\"logline err\"><code>" + HtmlEscape(e) + "</code></div>";
    }
    out += "</div>";
    any = true;
  }
  std::set<std::string> quoted(v.errors.begin(), v.errors.end());
  std::string lines;
  for (const auto& e : d.log_lines) {
    if (!quoted.count(e.text)) lines += LogLine(e);
  }
  if (!lines.empty()) {
    out += "<div class=\"logs\">" + lines + "</div>";
    any = true;
  }
  if (!d.last_line_by_rank.empty()) {
    std::vector<std::string> ranks;
    for (const auto& [r, e] : d.last_line_by_rank) ranks.push_back(r);
    std::sort(ranks.begin(), ranks.end(), RankLess);
    out += "<p class=\"muted\">Last matched line per rank:</p><div class=\"logs\">";
    for (const auto& r : ranks) out += LogLine(d.last_line_by_rank.at(r));
    out += "</div>";
    if (d.ranks_not_shown > 0) {
      out += fmt::format("<p class=\"muted\">Only the first {} ranks are shown.</p>",
                         d.options.max_ranks);
    }
    any = true;
  }
  if (!any) out += "<p class=\"muted\">No decisive log lines.</p>";
  out += "</section>\n";

  if (d.states.size() > 1) {
    out += "<section id=\"states\"><h2>State changes</h2><table class=\"states\">";
    for (const auto& s : d.states) {
      out += fmt::format("<tr><td>{}</td><td><b>{}</b></td><td>{}</td></tr>",
                         HumanSeconds(MsDiff(s.time_ms, origin)), StateName(s.state),
                         HtmlEscape(s.headline));
    }
    out += "</table></section>\n";
  }
  // The page works without scripts (static SVG); this one only marks what the browser actually
  // laid out, which the browser test reads back, and highlights a rank's bars on hover.
  out += R"JS(<script>
(function () {
  var bars = document.querySelectorAll('g.bar');
  var drawn = 0;
  bars.forEach(function (g) {
    var b = g.getBBox();
    if (b.width > 0 && b.height > 0) { g.setAttribute('data-drawn', '1'); drawn++; }
    g.addEventListener('mouseenter', function () {
      document.querySelectorAll('g.bar').forEach(function (o) {
        o.style.opacity = o.getAttribute('data-rank') === g.getAttribute('data-rank') ? '1' : '0.35';
      });
    });
    g.addEventListener('mouseleave', function () {
      document.querySelectorAll('g.bar').forEach(function (o) { o.style.opacity = ''; });
    });
  });
  document.body.setAttribute('data-bars', String(bars.length));
  document.body.setAttribute('data-bars-drawn', String(drawn));
})();
</script>
)JS";
  out += "<footer class=\"muted\"><p>Made by spinup";
  if (d.last_ms) out += " at " + FormatClock(*d.last_ms);
  out += ". Self-contained: nothing is fetched.</p></footer>\n</body></html>\n";
  return out;
}

HtmlReportSink::HtmlReportSink(ReportOptions options, std::function<int64_t()> now_ms,
                               std::string output_path)
    : now_ms_(std::move(now_ms)), output_path_(std::move(output_path)) {
  data_.options = std::move(options);
}

void HtmlReportSink::Touch(int64_t t) {
  if (!data_.first_ms || t < *data_.first_ms) data_.first_ms = t;
  if (!data_.last_ms || t > *data_.last_ms) data_.last_ms = t;
}

void HtmlReportSink::OnLogEvent(const LogEvent& e) {
  if (e.time_ms) Touch(*e.time_ms);
  if (e.kind == LogEvent::Kind::kError || e.kind == LogEvent::Kind::kFatal) {
    if (data_.log_lines.size() < data_.options.max_log_lines) data_.log_lines.push_back(e);
  }
  if (!e.text.empty()) {
    auto it = data_.last_line_by_rank.find(e.rank);
    if (it != data_.last_line_by_rank.end()) {
      it->second = e;
    } else if (data_.last_line_by_rank.size() < data_.options.max_ranks) {
      data_.last_line_by_rank.emplace(e.rank, e);
    } else {
      ++data_.ranks_not_shown;  // counts lines of unseen ranks: a bound, not an exact count
    }
  }
}

void HtmlReportSink::OnSample(const Sample& s) {
  Touch(s.time_ms);
  data_.gpu_message = s.gpu_message;
  if (s.gpu_available) {
    for (const auto& g : s.gpus) {
      auto& series = data_.gpus[g.index];
      // Bounded: a week-long watch at 1 s would otherwise grow without end.
      if (series.size() < 20000) series.push_back({s.time_ms, g.used_bytes, g.total_bytes});
    }
  }
}

void HtmlReportSink::OnVerdict(const Verdict& v) {
  int64_t now = now_ms_();
  Touch(now);
  for (const auto& t : v.timeline) {
    if (t.start_ms) Touch(*t.start_ms);
    if (t.end_ms) Touch(*t.end_ms);
  }
  if (v.progress.bytes_done && data_.bytes.size() < 20000) {
    bool moved = data_.bytes.empty() || data_.bytes.back().bytes_done != *v.progress.bytes_done ||
                 MsDiff(now, data_.bytes.back().time_ms) >= 5;
    if (moved) {
      data_.bytes.push_back(
          {now, *v.progress.bytes_done, v.progress.bytes_total, v.progress.bytes_per_second});
    }
  }
  if (data_.states.empty() || data_.states.back().state != v.state) {
    if (data_.states.size() < 1000) data_.states.push_back({now, v.state, v.headline});
  }
  data_.verdict = v;
}

void HtmlReportSink::Finish(const Verdict& v) {
  OnVerdict(v);
  if (!output_path_.empty()) write_status_ = WriteFileAtomically(output_path_, Render());
}

}  // namespace spinup
