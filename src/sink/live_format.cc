#include "sink/live_format.h"

#include "base/one_line.h"

#include <fmt/format.h>

#include <cmath>
#include <ctime>

#include "base/duration.h"

namespace spinup {

std::string LiveBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000 && u < 5) {
    v /= 1000;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  if (v < 10) return fmt::format("{:.1f} {}", v, kUnits[u]);
  return fmt::format("{:.0f} {}", v, kUnits[u]);
}

std::string LiveRate(double bps) {
  if (!std::isfinite(bps) || bps < 0) return "?";
  return LiveBytes(static_cast<uint64_t>(bps)) + "/s";
}

double ProgressFraction(const Progress& p) {
  if (p.bytes_done && p.bytes_total && *p.bytes_total > 0) {
    return std::min(1.0, static_cast<double>(*p.bytes_done) / static_cast<double>(*p.bytes_total));
  }
  if (p.bar_total > 0) {
    return std::min(1.0, static_cast<double>(p.bar_n) / static_cast<double>(p.bar_total));
  }
  return -1;
}

std::string ProgressText(const Progress& p) {
  std::string out;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    if (!out.empty()) out += ' ';
    out += s;
  };
  double f = ProgressFraction(p);
  if (f >= 0) add(fmt::format("{}%", static_cast<int>(f * 100)));
  if (p.bytes_done && p.bytes_total && *p.bytes_total > 0) {
    // "105/234 GB": the unit of the total, so both numbers read on one scale.
    std::string total = LiveBytes(*p.bytes_total);
    auto space = total.find(' ');
    static const std::pair<const char*, double> kScale[] = {
        {"B", 1}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"PB", 1e15}};
    double scale = 1;
    std::string unit = total.substr(space + 1);
    for (const auto& [name, s] : kScale) {
      if (unit == name) scale = s;
    }
    double done = static_cast<double>(*p.bytes_done) / scale;
    add(fmt::format(
        "{}/{}", done < 10 && scale > 1 ? fmt::format("{:.1f}", done) : fmt::format("{:.0f}", done),
        total));
  } else if (p.bar_total > 0) {
    add(fmt::format("{}/{} {}", p.bar_n, p.bar_total, p.bar.empty() ? "shards" : p.bar));
  }
  if (p.bytes_per_second && *p.bytes_per_second > 0) add(LiveRate(*p.bytes_per_second));
  if (p.eta_seconds && f < 1.0 && *p.eta_seconds >= 1)
    add("ETA " + FormatDurationShort(*p.eta_seconds));
  return out;
}

std::string StatusText(const Verdict& v) {
  switch (v.state) {
    case State::kStarting:
    case State::kProgressing:
    case State::kInProgress:
    case State::kSlow: {
      std::string s(PhaseName(v.phase));
      if (v.state == State::kSlow) s += " (slow)";
      std::string prog = ProgressText(v.progress);
      if (!prog.empty()) s += " " + prog;
      return s;
    }
    default:
      break;
  }
  if (!v.headline.empty()) return v.headline;
  return std::string(StateName(v.state)) + " in " + std::string(PhaseName(v.phase));
}

std::string ClockText(int64_t time_ms) {
  std::time_t t = static_cast<std::time_t>(time_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string WarmText(const WarmStatus& w) {
  std::string s = "warm " + w.state;
  if (w.bytes_total > 0) {
    s += ": " + LiveBytes(w.bytes_done) + " of " + LiveBytes(w.bytes_total) +
         " into the page cache (" +
         std::to_string(static_cast<int>(100.0 * static_cast<double>(w.bytes_done) /
                                         static_cast<double>(w.bytes_total))) +
         "%)";
    if (w.bytes_per_second > 0) s += " " + LiveRate(w.bytes_per_second);
  }
  if (!w.note.empty()) s += "; " + w.note;
  return s;
}

std::vector<std::string> StallEvidenceLines(const StallEvidence& e, size_t stack_lines) {
  std::vector<std::string> out;
  if (!e.behind.empty()) out.push_back("behind: " + e.behind);
  for (const auto& r : e.ranks) {
    std::string head = (r.rank.empty() ? "pid " + std::to_string(r.pid)
                                       : r.rank + " (pid " + std::to_string(r.pid) + ")") +
                       ": " + r.source + " stack";
    if (!r.waiting_in.empty()) head += ", waiting in " + r.waiting_in;
    std::string waits;
    for (size_t i = 0; i < r.wait_channels.size() && i < 4; ++i) {
      waits += (i ? ", " : "") + std::to_string(r.wait_channels[i].second) + " in " +
               r.wait_channels[i].first;
    }
    if (!waits.empty()) head += "; threads: " + waits;
    out.push_back(head);
    size_t shown = 0;
    std::string_view rest(r.stack);
    while (!rest.empty() && shown < stack_lines) {
      size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      if (!line.empty()) {
        out.push_back("    " + std::string(line));
        ++shown;
      }
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    }
    for (const auto& n : r.notes) out.push_back("    note: " + n);
  }
  for (const auto& g : e.gpus) {
    std::string util =
        g.utilization_percent >= 0 ? std::to_string(g.utilization_percent) + "%" : "?";
    out.push_back("GPU" + std::to_string(g.index) + ": " + LiveBytes(g.used_bytes) + " of " +
                  LiveBytes(g.total_bytes) + " used, " + util + " busy");
  }
  for (const auto& n : e.notes) out.push_back("note: " + n);
  return out;
}

Verdict ForTerminal(Verdict v) {
  auto clean = [](std::string& s) { s = OneLine(s); };
  auto clean_all = [&](std::vector<std::string>& list) {
    for (auto& s : list) clean(s);
  };
  clean(v.engine);
  clean(v.headline);
  clean_all(v.evidence);
  clean_all(v.errors);
  clean_all(v.not_known);
  for (auto& r : v.ranks) clean(r.rank);
  for (auto& t : v.timeline) clean(t.rank);
  for (auto& f : v.findings) {
    clean(f.id);
    clean(f.title);
    clean(f.fix);
    clean_all(f.evidence);
  }
  return v;
}

}  // namespace spinup
