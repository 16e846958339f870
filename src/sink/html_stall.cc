#include "sink/html_stall.h"

#include <fmt/format.h>

#include "sink/html_report.h"
#include "sink/live_format.h"

namespace spinup {

std::string StallEvidenceHtml(const StallEvidence& e) {
  std::string out = "<section id=\"stall\"><h2>At the stall</h2>";
  if (!e.behind.empty()) out += "<div class=\"behind\">" + HtmlEscape(e.behind) + "</div>";
  for (const auto& r : e.ranks) {
    std::string title =
        r.rank.empty() ? fmt::format("pid {}", r.pid) : fmt::format("{} (pid {})", r.rank, r.pid);
    out += fmt::format(
        "<details class=\"rankstack\" data-rank=\"{}\" data-source=\"{}\"><summary>{}: {} stack",
        HtmlEscape(r.rank), HtmlEscape(r.source), HtmlEscape(title), HtmlEscape(r.source));
    if (!r.waiting_in.empty()) out += ", waiting in " + HtmlEscape(r.waiting_in);
    for (size_t i = 0; i < r.wait_channels.size() && i < 4; ++i) {
      out += fmt::format("{}{} in {}", i ? ", " : "; threads: ", r.wait_channels[i].second,
                         HtmlEscape(r.wait_channels[i].first));
    }
    out += "</summary>";
    if (!r.stack.empty()) out += "<pre>" + HtmlEscape(r.stack) + "</pre>";
    for (const auto& n : r.notes) out += "<div class=\"note\">" + HtmlEscape(n) + "</div>";
    out += "</details>";
  }
  if (!e.gpus.empty()) {
    out += "<ul class=\"gpus\">";
    for (const auto& g : e.gpus) {
      out += fmt::format("<li>GPU{}: {} of {} used, {} busy</li>", g.index,
                         HtmlEscape(LiveBytes(g.used_bytes)), HtmlEscape(LiveBytes(g.total_bytes)),
                         g.utilization_percent >= 0 ? std::to_string(g.utilization_percent) + "%"
                                                    : std::string("?"));
    }
    out += "</ul>";
  }
  for (const auto& n : e.notes) out += "<div class=\"note\">" + HtmlEscape(n) + "</div>";
  out +=
      fmt::format("<div class=\"note\">gathered in {:.1f} s</div></section>\n", e.gather_seconds);
  return out;
}

}  // namespace spinup
