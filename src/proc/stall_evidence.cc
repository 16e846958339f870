#include "proc/stall_evidence.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace spinup::proc {

namespace {

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// "Thread 12345 (idle): "MainThread"" (py-spy also writes "Thread 0x7F... (idle)").
std::optional<PyThreadStack> ParseThreadLine(std::string_view line) {
  if (!line.starts_with("Thread ")) return std::nullopt;
  line.remove_prefix(7);
  PyThreadStack t;
  size_t sp = line.find(' ');
  std::string_view id = line.substr(0, sp);
  int base = 10;
  if (id.starts_with("0x") || id.starts_with("0X")) {
    id.remove_prefix(2);
    base = 16;
  }
  std::from_chars(id.data(), id.data() + id.size(), t.tid, base);
  if (size_t open = line.find('('); open != std::string_view::npos) {
    size_t close = line.find(')', open);
    if (close != std::string_view::npos)
      t.status = std::string(line.substr(open + 1, close - open - 1));
  }
  if (size_t q1 = line.find('"'); q1 != std::string_view::npos) {
    size_t q2 = line.find('"', q1 + 1);
    if (q2 != std::string_view::npos) t.name = std::string(line.substr(q1 + 1, q2 - q1 - 1));
  }
  return t;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return out;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

}  // namespace

std::vector<PyThreadStack> ParsePySpyDump(std::string_view text, size_t max_threads,
                                          size_t max_frames) {
  std::vector<PyThreadStack> out;
  for (std::string_view line : Lines(text)) {
    if (auto t = ParseThreadLine(line)) {
      if (out.size() >= max_threads) break;
      out.push_back(std::move(*t));
      continue;
    }
    if (out.empty() || line.empty() || (line.front() != ' ' && line.front() != '\t')) continue;
    std::string_view frame = TrimLeft(line);
    // "func (file.py:12)"; py-spy --locals adds indented "Arguments:"/"Locals:" blocks.
    size_t sp = frame.find(" (");
    if (sp == std::string_view::npos || sp == 0 || frame.back() != ')') continue;
    if (out.back().frames.size() < max_frames) out.back().frames.emplace_back(frame.substr(0, sp));
  }
  return out;
}

std::string CollectiveOf(const std::vector<PyThreadStack>& threads) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"all_reduce", "all-reduce"},
      {"allreduce", "all-reduce"},
      {"all_gather", "all-gather"},
      {"allgather", "all-gather"},
      {"reduce_scatter", "reduce-scatter"},
      {"broadcast", "broadcast"},
      {"barrier", "barrier"},
      {"init_process_group", "process-group init"},
      {"irecv", "send/recv"},
      {"isend", "send/recv"},
  };
  for (const auto& t : threads) {
    for (const auto& f : t.frames) {  // innermost first
      for (const auto& [needle, name] : kNames) {
        if (f.find(needle) != std::string::npos) return std::string(name);
      }
    }
  }
  return "";
}

std::vector<std::string> ParseKernelStack(std::string_view text, size_t max_frames) {
  std::vector<std::string> out;
  for (std::string_view line : Lines(text)) {
    if (out.size() >= max_frames) break;
    if (size_t close = line.find("] "); line.starts_with("[<") && close != std::string_view::npos) {
      line.remove_prefix(close + 2);
    }
    line = TrimLeft(line);
    std::string_view sym = line.substr(0, line.find_first_of("+ "));
    if (!sym.empty()) out.emplace_back(sym);
  }
  return out;
}

std::vector<std::pair<std::string, int>> SummarizeWaitChannels(
    const std::vector<std::string>& wchans) {
  std::map<std::string, int> counts;
  for (const auto& w : wchans) counts[(w.empty() || w == "0") ? "running" : w]++;
  std::vector<std::pair<std::string, int>> out(counts.begin(), counts.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string RankOfProcess(std::string_view cmdline, std::string_view comm) {
  for (std::string_view s : {cmdline.substr(0, cmdline.find(' ')), comm}) {
    for (size_t at = s.find("TP"); at != std::string_view::npos; at = s.find("TP", at + 1)) {
      size_t end = at + 2;
      while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
      if (end == at + 2) continue;
      // Keep a DP prefix ("DP1_TP3"): two DP groups both have a TP0.
      size_t begin = at;
      if (at >= 2 && s[at - 1] == '_') {
        size_t dp = s.rfind("DP", at - 1);
        if (dp != std::string_view::npos && dp + 2 < at - 1 &&
            std::all_of(s.begin() + dp + 2, s.begin() + at - 1,
                        [](char c) { return c >= '0' && c <= '9'; })) {
          begin = dp;
        }
      }
      return std::string(s.substr(begin, end - begin));
    }
  }
  return "";
}

std::string BehindSentence(const std::vector<RankPhase>& ranks,
                           const std::vector<std::pair<std::string, std::string>>& waiting_in) {
  std::vector<RankPhase> named;
  for (const auto& r : ranks) {
    if (!r.rank.empty()) named.push_back(r);
  }
  if (named.empty()) return "";
  // TP2 before TP10: by length, then by name.
  std::stable_sort(named.begin(), named.end(), [](const RankPhase& a, const RankPhase& b) {
    return a.rank.size() != b.rank.size() ? a.rank.size() < b.rank.size() : a.rank < b.rank;
  });
  auto earliest = std::min_element(named.begin(), named.end(), [](const auto& a, const auto& b) {
    return static_cast<int>(a.phase) < static_cast<int>(b.phase);
  });
  const Phase behind_phase = earliest->phase;
  std::vector<std::string> behind;
  std::map<int, std::vector<std::string>> ahead_by_phase;
  for (const auto& r : named) {
    if (r.phase == behind_phase) {
      behind.push_back(r.rank);
    } else {
      ahead_by_phase[static_cast<int>(r.phase)].push_back(r.rank);
    }
  }
  auto waits = [&](const std::string& rank) {
    for (const auto& [r, w] : waiting_in) {
      if (r == rank) return w;
    }
    return std::string();
  };
  const std::string phase(PhaseName(behind_phase));
  if (ahead_by_phase.empty()) {
    std::string s = named.size() == 1 ? named[0].rank + " is in " + phase
                                      : "all " + std::to_string(named.size()) + " ranks are in " +
                                            phase + "; none is behind the others";
    // Everyone in the same collective says more than "none is behind".
    std::string w = waits(named[0].rank);
    bool same = !w.empty() && std::all_of(named.begin(), named.end(),
                                          [&](const auto& r) { return waits(r.rank) == w; });
    if (same) s += named.size() == 1 ? ", waiting in " + w : ", all waiting in " + w;
    return s;
  }
  std::string s = Join(behind) + (behind.size() == 1 ? " has" : " have") + " not left " + phase;
  std::vector<std::string> ahead;
  for (const auto& [p, names] : ahead_by_phase)
    ahead.insert(ahead.end(), names.begin(), names.end());
  std::string w = waits(ahead[0]);
  bool same = !w.empty() &&
              std::all_of(ahead.begin(), ahead.end(), [&](const auto& r) { return waits(r) == w; });
  const char* verb = ahead.size() == 1 ? " is" : " are";
  if (same) return s + "; " + Join(ahead) + verb + " waiting in " + w;
  std::vector<std::string> parts;
  for (const auto& [p, names] : ahead_by_phase) {
    parts.push_back(Join(names) + (names.size() == 1 ? " is" : " are") + " in " +
                    std::string(PhaseName(static_cast<Phase>(p))));
  }
  return s + "; " + Join(parts);
}

}  // namespace spinup::proc
