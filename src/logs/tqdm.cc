// tqdm progress bars inside log messages (split from line_parser.cc; same contract: pure, no
// allocation, any bytes accepted). On explain's hot path: the steps are small functions in this
// file so the compiler inlines them into ParseTqdm.
#include "logs/line_parser.h"

namespace spinup {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool At(std::string_view s, size_t i, char c) { return i < s.size() && s[i] == c; }

struct BarStart {
  size_t percent = 0;  // the percentage's first digit: the description ends there
  size_t counts = 0;   // where "n/total" begins
};

// A count at `i`, possibly with a unit suffix (13.3G/155G): its integer part. Moves `i` past it.
bool ReadCount(std::string_view m, size_t& i, int64_t& out) {
  size_t s0 = i;
  double v = 0;
  while (i < m.size() && IsDigit(m[i]) && i - s0 < 18) v = v * 10 + (m[i++] - '0');
  if (i == s0) return false;
  if (At(m, i, '.')) {
    double f = 0.1;
    ++i;
    while (i < m.size() && IsDigit(m[i])) {
      v += (m[i++] - '0') * f;
      f /= 10;
    }
  }
  if (i < m.size()) {
    static constexpr std::string_view kUnits = "kKMGT";
    size_t u = kUnits.find(m[i]);
    if (u != std::string_view::npos) {
      static constexpr double kMul[] = {1e3, 1e3, 1e6, 1e9, 1e12};
      v *= kMul[u];
      ++i;
    }
  }
  out = static_cast<int64_t>(v);
  return true;
}

// " n/total [": a bar whose glyphs were dropped, at `i` (the space after "NN%"). Only tqdm's
// timing block tells it from a message's "40% 18/45 done".
bool BareCounts(std::string_view m, size_t i) {
  int64_t n = 0;
  if (!At(m, i, ' ') || !ReadCount(m, ++i, n) || !At(m, i, '/') || !ReadCount(m, ++i, n)) {
    return false;
  }
  return At(m, i, ' ') && At(m, i + 1, '[');
}

// The first "NN%" followed by '|...|', " Completed |" or, where whatever carried the log dropped
// the bar's glyphs, " n/total [" ("Loading weights concurrently:  40% 18/45 [00:01<00:00, ...]").
// Nothing when there is none, or when the first "NN%|" has no closing '|'.
std::optional<BarStart> FindBar(std::string_view m) {
  size_t pos = 0;
  while ((pos = m.find('%', pos)) != std::string_view::npos) {
    size_t d = pos;
    while (d > 0 && IsDigit(m[d - 1]) && pos - d < 3) --d;
    if (d == pos) {
      ++pos;
      continue;
    }
    size_t after = pos + 1;
    size_t bar_start;
    if (At(m, after, '|')) {
      size_t close = m.find('|', after + 1);
      if (close == std::string_view::npos) return std::nullopt;
      bar_start = close + 1;
    } else if (m.substr(after, 12) == " Completed |") {
      bar_start = after + 12;
    } else if (BareCounts(m, after)) {
      return BarStart{d, after + 1};
    } else {
      ++pos;
      continue;
    }
    while (bar_start < m.size() && m[bar_start] == ' ') ++bar_start;
    return BarStart{d, bar_start};
  }
  return std::nullopt;
}

// The " [01:40<08:39, 9.27s/it]" block after the counts at `i`: the bar then ends past it, and the
// elapsed time ([H:]MM:SS before '<') is read.
void ReadTiming(std::string_view m, size_t i, BarReading& r) {
  if (!At(m, i, ' ') || !At(m, i + 1, '[')) return;
  size_t close = m.find(']', i + 2);
  if (close == std::string_view::npos || close - i >= 80) return;
  r.end = close + 1;
  size_t k = i + 2;
  double secs = 0;
  int fields = 0;
  while (k < close && fields < 3) {
    int v = 0, digits = 0;
    while (k < close && IsDigit(m[k]) && digits < 6) v = v * 10 + (m[k++] - '0'), ++digits;
    if (digits == 0) break;
    secs = secs * 60 + v;
    ++fields;
    if (At(m, k, ':')) {
      ++k;
      continue;
    }
    break;
  }
  if (fields >= 2 && At(m, k, '<')) r.elapsed_s = secs;
}

// The description: the text before the percentage, up to its ':'.
std::string_view BarName(std::string_view head) {
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  if (!head.empty() && head.back() == ':') head.remove_suffix(1);
  while (!head.empty() && head.front() == ' ') head.remove_prefix(1);
  // "Capturing batches (bs=24 avail_mem=4.00 GB)" is one bar whatever its current batch.
  size_t paren = head.find(" (");
  if (paren != std::string_view::npos && paren > 0) head = head.substr(0, paren);
  return head.size() > 200 ? head.substr(0, 200) : head;
}

}  // namespace

std::optional<BarReading> ParseTqdm(std::string_view m) {
  std::optional<BarStart> start = FindBar(m);
  if (!start) return std::nullopt;
  size_t i = start->counts;
  BarReading r;
  if (!ReadCount(m, i, r.n) || !At(m, i, '/')) return std::nullopt;
  ++i;
  if (!ReadCount(m, i, r.total)) return std::nullopt;
  r.end = i;
  ReadTiming(m, i, r);
  r.bar = BarName(m.substr(0, start->percent));
  return r;
}

std::optional<BarReading> ParseLastTqdm(std::string_view m) {
  std::optional<BarReading> r = ParseTqdm(m);
  // Each step starts past the reading before it: one pass over the line whatever the redraws.
  while (r && r->end < m.size()) {
    std::optional<BarReading> next = ParseTqdm(m.substr(r->end));
    if (!next || next->bar != r->bar) break;
    next->end += r->end;
    r = next;
  }
  return r;
}

}  // namespace spinup
