#include "sink/html_report.h"

#include "base/duration.h"
#include "base/safe_write.h"
#include "base/units.h"

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

#include "sink/html_charts.h"
#include "sink/html_stall.h"
#include "sink/live_format.h"

namespace spinup {

namespace {

using html::BytesSection;
using html::GanttSvg;
using html::GpuSection;
using html::HumanBytes;
using html::HumanSeconds;
using html::MsDiff;
using html::RankLabel;
using html::RankLess;

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

// The document head and the header line: title, model, host, engine, source, time range.
std::string PageHead(const ReportData& d, const Verdict& v) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += fmt::format("<title>{} — {}</title>", HtmlEscape(d.options.title), StateName(v.state));
  out += "<style>";
  out += kCss;
  out += "</style></head><body>\n";
  out += fmt::format("<header><h1>{}</h1><div class=\"meta\">", HtmlEscape(d.options.title));
  std::vector<std::string> meta;
  if (!d.options.model.empty()) meta.push_back("model " + HtmlEscape(d.options.model));
  if (!d.options.host.empty()) meta.push_back("host " + HtmlEscape(d.options.host));
  if (!v.engine.empty()) meta.push_back("engine " + HtmlEscape(v.engine));
  if (!d.options.source.empty()) meta.push_back("source " + HtmlEscape(d.options.source));
  if (d.first_ms) meta.push_back("from " + FormatClock(*d.first_ms));
  if (d.last_ms && d.first_ms) {
    meta.push_back("over " + HumanSeconds(MsDiff(*d.last_ms, *d.first_ms)));
  }
  for (size_t i = 0; i < meta.size(); ++i) out += (i ? " &middot; " : "") + meta[i];
  out += "</div></header>\n";
  return out;
}

// The verdict and its evidence come first: that is what the reader came for.
std::string VerdictSection(const Verdict& v) {
  std::string out;
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
  return out;
}

// The known causes that fit, each with its evidence and fix.
std::string FindingsSection(const Verdict& v) {
  std::string out;
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
      if (!f.why.empty()) out += "<div class=\"why\"><b>Why:</b> " + HtmlEscape(f.why) + "</div>";
      if (!f.fix.empty()) out += "<div class=\"fix\"><b>Fix:</b> " + HtmlEscape(f.fix) + "</div>";
      out += "</div>";
    }
    out += "</section>\n";
  }
  return out;
}

// Decisive lines: the verdict's quoted errors, the error lines seen, and where each rank stopped.
std::string LogSection(const ReportData& d, const Verdict& v) {
  std::string out;
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
  return out;
}

// How the verdict changed over a live run (one row per change).
std::string StatesSection(const ReportData& d, int64_t origin) {
  std::string out;
  if (d.states.size() > 1) {
    out += "<section id=\"states\"><h2>State changes</h2><table class=\"states\">";
    for (const auto& s : d.states) {
      out += fmt::format("<tr><td>{}</td><td><b>{}</b></td><td>{}</td></tr>",
                         HumanSeconds(MsDiff(s.time_ms, origin)), StateName(s.state),
                         HtmlEscape(s.headline));
    }
    out += "</table></section>\n";
  }
  return out;
}

// The page works without scripts (static SVG); this one only marks what the browser actually
// laid out, which the browser test reads back, and highlights a rank's bars on hover.
constexpr const char* kScript = R"JS(<script>
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
  std::string out = PageHead(d, v);
  out += VerdictSection(v);
  if (v.stall_evidence) out += StallEvidenceHtml(*v.stall_evidence);
  out += FindingsSection(v);

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

  out += LogSection(d, v);
  out += StatesSection(d, origin);
  out += kScript;
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
