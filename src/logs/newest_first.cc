#include "logs/newest_first.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "logs/csv_export.h"
#include "logs/log_stream.h"
#include "logs/rules.h"

namespace spinup {

bool RunsNewestFirst(std::string_view text, const RuleSet& rules, int reference_year) {
  constexpr int kMinSteps = 8;
  LogStreamOptions o;
  o.reference_year = reference_year;
  LogStream stream(rules, o);
  std::optional<int64_t> last;
  int back = 0;
  int forward = 0;
  stream.OnEvent([&](const LogEvent& e) {
    if (!e.time_ms || e.time_inferred) return;
    if (last && *e.time_ms < *last) ++back;
    if (last && *e.time_ms > *last) ++forward;
    last = e.time_ms;
  });
  // An export runs one way throughout: its first lines tell (a paste is read twice at most).
  constexpr size_t kSampleBytes = 1 << 20;
  if (text.size() > kSampleBytes) {
    const size_t nl = text.rfind('\n', kSampleBytes);
    text = text.substr(0, nl == std::string_view::npos ? kSampleBytes : nl + 1);
  }
  stream.Feed(text);
  stream.Finish();
  // (A short excerpt: a few steps, every one of them back.)
  return (back >= kMinSteps && back >= 3 * forward) || (back >= kMinSteps / 2 && forward == 0);
}

std::string ReverseLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t from = 0;
  while (from < text.size()) {
    size_t nl = text.find('\n', from);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(from, nl - from));
    from = nl + 1;
  }
  // A CSV export's header row, and what was written above it, stays on top: it names the columns.
  size_t head = 0;
  for (size_t i = 0; i < std::min<size_t>(lines.size(), 64); ++i) {
    if (ReadCsvHeader(lines[i])) {
      head = i + 1;
      break;
    }
  }
  std::string out;
  out.reserve(text.size() + 1);
  for (size_t i = 0; i < head; ++i) {
    out.append(lines[i]);
    out.push_back('\n');
  }
  for (auto it = lines.rbegin(); it != lines.rend() - static_cast<ptrdiff_t>(head); ++it) {
    out.append(*it);
    out.push_back('\n');
  }
  return out;
}

}  // namespace spinup
