#include "logs/line_parser.h"

#include "base/utf8.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace spinup {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsAlnum(char c) { return IsDigit(c) || IsUpper(c) || (c >= 'a' && c <= 'z'); }

// Reads exactly n digits at s[i..]; returns -1 when they are not all digits.
int Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = s[i + k];
    if (!IsDigit(c)) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

bool At(std::string_view s, size_t i, char c) { return i < s.size() && s[i] == c; }

// HH:MM:SS at s[i]; fills t, returns the index after it or npos.
size_t ParseClock(std::string_view s, size_t i, CivilTime& t) {
  int h = Digits(s, i, 2), m = Digits(s, i + 3, 2), sec = Digits(s, i + 6, 2);
  if (h < 0 || m < 0 || sec < 0 || !At(s, i + 2, ':') || !At(s, i + 5, ':')) {
    return std::string_view::npos;
  }
  if (h > 23 || m > 59 || sec > 60) return std::string_view::npos;
  t.hour = h;
  t.minute = m;
  t.second = sec;
  return i + 8;
}

// Optional fraction (.123 or ,123 with any number of digits): milliseconds kept.
size_t ParseFraction(std::string_view s, size_t i, CivilTime& t) {
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && i + 1 < s.size() && IsDigit(s[i + 1])) {
    size_t j = i + 1;
    int ms = 0, k = 0;
    while (j < s.size() && IsDigit(s[j])) {
      if (k < 3) ms = ms * 10 + (s[j] - '0');
      ++k;
      ++j;
    }
    while (k < 3) {
      ms *= 10;
      ++k;
    }
    t.millis = ms;
    return j;
  }
  return i;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// YYYY-MM-DD at s[i] followed by `sep` and a clock. Returns the index after the clock. An
// impossible date (2026-02-30) is no date: `--now` refuses it instead of rolling it over.
size_t ParseDateTime(std::string_view s, size_t i, char sep, CivilTime& t) {
  int y = Digits(s, i, 4), mo = Digits(s, i + 5, 2), d = Digits(s, i + 8, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || !At(s, i + 4, '-') || !At(s, i + 7, '-') ||
      !At(s, i + 10, sep) || d > DaysInMonth(y, mo)) {
    return std::string_view::npos;
  }
  t.year = y;
  t.month = mo;
  t.day = d;
  return ParseClock(s, i + 11, t);
}

// RFC 3339 as docker/kubectl print it: 2026-03-09T12:01:49.123456789Z or +00:00 / +0000.
// Applies the offset so the result is UTC. Returns index after it.
size_t ParseRfc3339(std::string_view s, size_t i, CivilTime& t) {
  size_t j = ParseDateTime(s, i, 'T', t);
  if (j == std::string_view::npos) return j;
  j = ParseFraction(s, j, t);
  if (At(s, j, 'Z')) return j + 1;
  if (At(s, j, '+') || At(s, j, '-')) {
    int sign = s[j] == '-' ? -1 : 1;
    int oh = Digits(s, j + 1, 2);
    size_t k = j + 3;
    if (oh < 0) return std::string_view::npos;
    if (At(s, k, ':')) ++k;
    int om = Digits(s, k, 2);
    if (om < 0) return std::string_view::npos;
    int64_t ms = CivilToUnixMs(t) - sign * (int64_t{oh} * 3600 + om * 60) * 1000;
    int millis = t.millis;
    t = UnixMsToCivil(ms);
    t.millis = millis;
    return k + 2;
  }
  return j;
}

constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// journalctl short: "Mar 09 12:01:49 host ident[pid]: ". Returns index of the message.
size_t ParseJournalShort(std::string_view s, CivilTime& t) {
  if (s.size() < 16 || s[3] != ' ') return std::string_view::npos;
  int month = 0;
  for (size_t m = 0; m < kMonths.size(); ++m) {
    if (s.substr(0, 3) == kMonths[m]) month = static_cast<int>(m) + 1;
  }
  if (month == 0) return std::string_view::npos;
  int day = Digits(s, 4, 2);
  if (day < 0 && At(s, 4, ' ')) day = Digits(s, 5, 1);
  if (day < 1 || day > 31 || !At(s, 6, ' ')) return std::string_view::npos;
  CivilTime tt;
  tt.month = month;
  tt.day = day;
  size_t j = ParseClock(s, 7, tt);
  if (j == std::string_view::npos) return j;
  j = ParseFraction(s, j, tt);
  if (!At(s, j, ' ')) return std::string_view::npos;
  t = tt;
  return j + 1;
}

// After a journal timestamp: "host ident[pid]: " → index of the message, or npos. `ident`
// receives "ident[pid]".
size_t SkipHostIdent(std::string_view s, size_t i, std::string_view* ident) {
  size_t sp = s.find(' ', i);
  if (sp == std::string_view::npos || sp == i || sp - i > 255) return std::string_view::npos;
  size_t j = sp + 1;
  size_t k = j;
  while (k < s.size() && k - j < 256 && s[k] != ' ' && s[k] != ':') ++k;
  if (k == j || !At(s, k, ':') || !At(s, k + 1, ' ')) return std::string_view::npos;
  *ident = s.substr(j, k - j);
  return k + 2;
}

bool IsLevel(std::string_view w) {
  return w == "INFO" || w == "WARNING" || w == "ERROR" || w == "DEBUG" || w == "CRITICAL" ||
         w == "WARN" || w == "TRACE" || w == "FATAL";
}

// The 2024-2026 SGLang tag list: " TP2", " DP0 TP2 EP0", " PP0", " ATTN_CP1", " MOE_DP1".
bool ParseSglangTags(std::string_view tags, std::string* rank) {
  // tags: "TP2" / "DP0 TP2 EP0" (leading space removed)
  size_t i = 0;
  while (i < tags.size()) {
    size_t sp = tags.find(' ', i);
    std::string_view w =
        tags.substr(i, sp == std::string_view::npos ? std::string_view::npos : sp - i);
    if (w.empty() || w.size() > 24) return false;
    size_t d = 0;
    while (d < w.size() && (IsUpper(w[d]) || w[d] == '_')) ++d;
    if (d == 0 || d == w.size()) return false;
    for (size_t k = d; k < w.size(); ++k) {
      if (!IsDigit(w[k])) return false;
    }
    if (sp == std::string_view::npos) break;
    i = sp + 1;
  }
  *rank = CanonicalRank(tags);
  return true;
}

// "WARNING quantization.py:1680: " at the start of `s`: the length to skip, 0 when absent.
size_t PythonLevelAndSource(std::string_view s) {
  size_t sp = s.find(' ');
  if (sp == std::string_view::npos || sp > 8 || !IsLevel(s.substr(0, sp))) return 0;
  size_t colon = s.find(".py:", sp + 1);
  if (colon == std::string_view::npos || colon - sp > 96) return 0;
  for (size_t k = sp + 1; k < colon; ++k) {
    if (s[k] == ' ') return 0;
  }
  size_t d = colon + 4;
  while (d < s.size() && IsDigit(s[d])) ++d;
  if (d == colon + 4 || s.substr(d, 2) != ": ") return 0;
  return d + 2;
}

// TensorRT-LLM's Python logger: "[12/20/2025-04:21:37] [TRT-LLM] [I] msg", also without the time
// and with a rank ("[TRT-LLM] [RANK 0] [I] msg"). `close` is the first ']'. Sets p.message on
// success.
bool ParseTrtllmPython(std::string_view s, size_t close, ParsedLine& p) {
  std::string_view inner = s.substr(1, close - 1);
  CivilTime t;
  size_t tag = 0;
  // "MM/DD/YYYY-HH:MM:SS"
  int mo = Digits(inner, 0, 2), d = Digits(inner, 3, 2), y = Digits(inner, 6, 4);
  if (inner.size() == 19 && At(inner, 2, '/') && At(inner, 5, '/') && At(inner, 10, '-') &&
      mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && y >= 1970) {
    t.year = y;
    t.month = mo;
    t.day = d;
    if (ParseClock(inner, 11, t) == std::string_view::npos) return false;
    tag = close + 2;
    if (!At(s, close + 1, ' ')) return false;
  } else if (inner != "TRT-LLM") {
    return false;
  }
  constexpr std::string_view kTag = "[TRT-LLM] ";
  if (tag != 0) {
    if (s.substr(tag, kTag.size()) != kTag) return false;
    tag += kTag.size();
  } else {
    tag = close + 2;
    if (!At(s, close + 1, ' ')) return false;
  }
  // Optional "[RANK N] ", then the one-letter level "[I] ".
  if (s.substr(tag, 6) == "[RANK ") {
    size_t c = s.find("] ", tag);
    if (c == std::string_view::npos || c - tag > 16) return false;
    p.rank = "rank" + std::string(s.substr(tag + 6, c - tag - 6));
    tag = c + 2;
  }
  if (!At(s, tag, '[') || !At(s, tag + 2, ']')) return false;
  p.level = s.substr(tag + 1, 1);
  if (t.year != 0) p.time = t;
  p.style = PrefixStyle::kTrtllm;
  size_t m = tag + 3;
  if (At(s, m, ' ')) ++m;
  p.message = s.substr(std::min(m, s.size()));
  return true;
}

// Engine prefixes. Returns true when one was consumed (p updated).
bool ParseEnginePrefix(std::string_view& msg, ParsedLine& p) {
  std::string_view s = msg;
  if (s.empty()) return false;
  // SGLang: [2026-03-09 12:01:53(.mmm)?( TAGS)?] / [12:01:53 TP0] / [06-17 13:46:56] / [gpu_id=0]
  if (s[0] == '[') {
    size_t close = s.find(']');
    if (close == std::string_view::npos || close > 96) return false;
    std::string_view inner = s.substr(1, close - 1);
    size_t after = close + 1;
    if (At(s, after, ' ')) ++after;
    CivilTime t;
    size_t j = ParseDateTime(inner, 0, ' ', t);
    if (j == std::string_view::npos) {
      t = CivilTime{};
      int mo = Digits(inner, 0, 2), d = Digits(inner, 3, 2);
      if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && At(inner, 2, '-') && At(inner, 5, ' ')) {
        t.month = mo;
        t.day = d;
        j = ParseClock(inner, 6, t);
      } else {
        j = ParseClock(inner, 0, t);
      }
    }
    if (j != std::string_view::npos) {
      j = ParseFraction(inner, j, t);
      std::string rank;
      if (j < inner.size()) {
        if (inner[j] != ' ' || !ParseSglangTags(inner.substr(j + 1), &rank)) return false;
      }
      p.time = t;
      p.rank = rank;
      p.style = PrefixStyle::kSglang;
      msg = s.substr(after);
      // "[2025-09-15 02:22:37] WARNING quantization.py:1680: msg" is a Python logger's format
      // (TensorRT-LLM's modules use it), not SGLang's: SGLang prints no level or source file.
      if (size_t src = PythonLevelAndSource(msg); src != 0) {
        p.level = msg.substr(0, msg.find(' '));
        p.style = PrefixStyle::kPython;
        msg = msg.substr(src);
      }
      return true;
    }
    if (inner.substr(0, 7) == "gpu_id=" && inner.size() > 7 && inner.size() < 12) {
      for (size_t k = 7; k < inner.size(); ++k) {
        if (!IsDigit(inner[k])) return false;
      }
      p.rank = "gpu" + std::string(inner.substr(7));
      p.style = PrefixStyle::kSglang;
      msg = s.substr(after);
      return true;
    }
    if (ParseTrtllmPython(s, close, p)) {
      msg = p.message;
      return true;
    }
    if (inner == "TensorRT-LLM" && At(s, close + 1, '[')) {
      size_t c2 = s.find(']', close + 1);
      if (c2 == std::string_view::npos || c2 - close > 12) return false;
      p.level = s.substr(close + 2, c2 - close - 2);
      p.style = PrefixStyle::kTrtllm;
      size_t m = c2 + 1;
      if (At(s, m, ' ')) ++m;
      msg = s.substr(m);
      return true;
    }
    return false;
  }
  // The first space within 128 bytes (npos when none): where a process tag's " pid=" or the end
  // of a level word must be.
  const size_t first_space = s.substr(0, 128).find(' ');
  // vLLM process tag: "(Worker_TP0 pid=400) ", Ray "(RayWorkerWrapper pid=1, ip=...) ", nested
  // Ray data actors, and pastes that lost the opening parenthesis.
  {
    // The tag sits at the start and its name has no spaces, so " pid=" can only be at the
    // first space: looking only there keeps every other line cheap.
    size_t pid = first_space;
    // vLLM 0.8-0.9: "(VllmWorker rank=1 pid=31) ": the rank sits between the name and the pid.
    std::string_view worker_rank;
    if (pid != std::string_view::npos && s.substr(pid, 6) == " rank=") {
      size_t r = pid + 6, r_end = r;
      while (r_end < s.size() && r_end < r + 6 && IsDigit(s[r_end])) ++r_end;
      if (r_end > r && s.substr(r_end, 5) == " pid=") {
        worker_rank = s.substr(r, r_end - r);
        pid = r_end;
      }
    }
    if (pid != std::string_view::npos && s.substr(pid, 5) == " pid=") {
      size_t close = s.find(')', pid);
      if (close != std::string_view::npos && close - pid < 64 && pid + 5 < s.size() &&
          IsDigit(s[pid + 5])) {
        size_t start = s[0] == '(' ? 1 : 0;
        std::string_view name = s.substr(start, pid - start);
        if (!worker_rank.empty()) name = s.substr(start, first_space - start);
        bool ok = !name.empty();
        for (char c : name) {
          if (c == ' ') ok = false;
        }
        // Nested Ray actor names carry parentheses; keep only the last identifier.
        size_t open = name.rfind('(');
        if (open != std::string_view::npos) name = name.substr(open + 1);
        if (ok && !name.empty()) {
          size_t k = pid + 5;
          size_t pid_end = k;
          while (pid_end < s.size() && IsDigit(s[pid_end])) ++pid_end;
          std::string_view pid_text = s.substr(k, pid_end - k);
          std::string tag(name);
          if (!worker_rank.empty()) {
            tag = "Worker_rank" + std::string(worker_rank);
          } else if (tag == "Worker" || tag == "VllmWorkerProcess" || tag == "RayWorkerWrapper" ||
                     tag == "VllmWorker") {
            tag = "Worker-" + std::string(pid_text);
          }
          p.rank = CanonicalRank(tag);
          p.style = PrefixStyle::kVllm;
          size_t m = close + 1;
          if (At(s, m, ' ')) ++m;
          msg = s.substr(m);
          return true;
        }
      }
    }
  }
  // vLLM level + date: "INFO 08-29 04:16:14 [file.py:12] " or old "INFO 07-12 19:04:13 api.py:206]
  // "
  {
    // The first space, as found above: a level word is at most 8 bytes.
    const size_t sp = first_space;
    if (sp != std::string_view::npos && sp <= 8 && IsLevel(s.substr(0, sp))) {
      CivilTime t;
      int mo = Digits(s, sp + 1, 2), d = Digits(s, sp + 4, 2);
      if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && At(s, sp + 3, '-') && At(s, sp + 6, ' ')) {
        t.month = mo;
        t.day = d;
        size_t j = ParseClock(s, sp + 7, t);
        if (j != std::string_view::npos) {
          j = ParseFraction(s, j, t);
          p.level = s.substr(0, sp);
          p.time = t;
          p.style = PrefixStyle::kVllm;
          if (At(s, j, ' ')) ++j;
          // the [file.py:N] or file.py:N] location
          size_t close = s.find("] ", j);
          if (close != std::string_view::npos && close - j < 160) {
            std::string_view loc = s.substr(j, close - j);
            if (loc.find(".py:") != std::string_view::npos &&
                loc.find(' ') == std::string_view::npos) {
              j = close + 2;
            }
          }
          msg = s.substr(std::min(j, s.size()));
          return true;
        }
      }
    }
  }
  // Python logging default: "2025-03-03 18:46:45,039 - INFO - name: msg"; TGI:
  // "2023-02-20T16:45:10.672340Z  INFO text_generation_launcher: msg".
  if (s.size() > 20 && IsDigit(s[0])) {
    CivilTime t;
    size_t j = ParseDateTime(s, 0, ' ', t);
    if (j != std::string_view::npos) {
      j = ParseFraction(s, j, t);
      if (s.substr(j, 3) == " - ") {
        size_t lvl_end = s.find(" - ", j + 3);
        if (lvl_end != std::string_view::npos && lvl_end - j < 40) {
          p.level = s.substr(j + 3, lvl_end - j - 3);
          p.time = t;
          p.style = PrefixStyle::kPython;
          msg = s.substr(lvl_end + 3);
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

// TGI's tracing target: the launcher, router and client crates ("text_generation_router::server:
// "), maybe inside a span ("warmup{...}:warmup: text_generation_client: "), then maybe the Rust
// source location ("router/src/server.rs:1597: "). All of it is prefix.
std::string_view StripTgiTarget(std::string_view rest, size_t after_level) {
  size_t tl = rest.find("text_generation_");
  if (tl == std::string_view::npos || tl > 512) return rest.substr(after_level);
  size_t colon = rest.find(": ", tl);
  if (colon == std::string_view::npos) return rest.substr(after_level);
  std::string_view msg = rest.substr(colon + 2);
  // "router/src/server.rs:1597: " (no spaces, ".rs:" then digits).
  size_t rs = msg.find(".rs:");
  size_t sp = msg.find(' ');
  if (rs != std::string_view::npos && rs < sp) {
    size_t d = rs + 4;
    while (d < msg.size() && IsDigit(msg[d])) ++d;
    if (d > rs + 4 && msg.substr(d, 2) == ": ") msg = msg.substr(d + 2);
  }
  return msg;
}

}  // namespace

int64_t CivilToUnixMs(const CivilTime& t) {
  // Howard Hinnant's days_from_civil.
  int y = t.year;
  unsigned m = static_cast<unsigned>(t.month < 1 ? 1 : t.month);
  unsigned d = static_cast<unsigned>(t.day < 1 ? 1 : t.day);
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = int64_t{era} * 146097 + static_cast<int64_t>(doe) - 719468;
  return ((days * 24 + t.hour) * 60 + t.minute) * 60000 + int64_t{t.second} * 1000 + t.millis;
}

CivilTime UnixMsToCivil(int64_t ms) {
  int64_t secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  int64_t rem = secs - days * 86400;
  CivilTime t;
  t.millis = static_cast<int>(ms - secs * 1000);
  t.hour = static_cast<int>(rem / 3600);
  t.minute = static_cast<int>(rem % 3600 / 60);
  t.second = static_cast<int>(rem % 60);
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  t.year = static_cast<int>(y + (m <= 2));
  t.month = static_cast<int>(m);
  t.day = static_cast<int>(d);
  return t;
}

std::string FormatIsoTime(int64_t ms) {
  CivilTime t = UnixMsToCivil(ms);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", t.year, t.month, t.day, t.hour,
                t.minute, t.second);
  return buf;
}

std::optional<int64_t> ParseTimeArg(std::string_view text) {
  CivilTime t;
  size_t j = ParseRfc3339(text, 0, t);
  if (j == std::string_view::npos) {
    t = CivilTime{};
    j = ParseDateTime(text, 0, ' ', t);
    if (j != std::string_view::npos) j = ParseFraction(text, j, t);
  }
  if (j == std::string_view::npos || j != text.size()) return std::nullopt;
  return CivilToUnixMs(t);
}

std::optional<CivilTime> ParseRfc3339Time(std::string_view text) {
  CivilTime t;
  if (text.size() < 19 || ParseRfc3339(text, 0, t) == std::string_view::npos) return std::nullopt;
  return t;
}

std::string_view CleanLine(std::string_view line, std::string* scratch) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  // Fast path, a word at a time and without branches: no ESC and no byte >= 0x80 means
  // nothing to do. A byte of x = w ^ 0x1b..1b is zero where w holds ESC, and
  // (x - 0x01..) & ~x & 0x80.. is nonzero exactly when x has a zero byte.
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  constexpr uint64_t kEsc = 0x1b * kOnes;
  uint64_t high = 0, esc = 0;
  size_t i = 0;
  for (; i + 8 <= line.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, line.data() + i, 8);
    const uint64_t x = w ^ kEsc;
    high |= w;
    esc |= (x - kOnes) & ~x;
  }
  if (i < line.size()) {
    uint64_t w = 0x2020202020202020ull;  // padding: spaces, neither ESC nor high
    std::memcpy(&w, line.data() + i, line.size() - i);
    const uint64_t x = w ^ kEsc;
    high |= w;
    esc |= (x - kOnes) & ~x;
  }
  if (((high | esc) & kHigh) == 0) return line;
  scratch->clear();
  scratch->reserve(line.size());
  const size_t n = line.size();
  i = 0;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) {
      // CSI: ESC [ params final(0x40-0x7e); OSC: ESC ] ... BEL or ESC \ ; other: ESC + one byte.
      if (i + 1 < n && line[i + 1] == '[') {
        size_t j = i + 2;
        while (j < n && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
        i = j < n ? j + 1 : n;
      } else if (i + 1 < n && line[i + 1] == ']') {
        size_t j = i + 2;
        while (j < n && line[j] != '\x07' &&
               !(line[j] == '\x1b' && j + 1 < n && line[j + 1] == '\\'))
          ++j;
        i = j >= n ? n : (line[j] == '\x07' ? j + 1 : j + 2);
      } else {
        i += 2;
      }
      continue;
    }
    if (c < 0x80) {
      // A run of plain bytes is copied at once (most of a line with one bar glyph or accent).
      size_t j = i + 1;
      while (j < n && static_cast<unsigned char>(line[j]) < 0x80 && line[j] != 0x1b) ++j;
      scratch->append(line.substr(i, j - i));
      i = j;
      continue;
    }
    // Invalid UTF-8 bytes become U+FFFD (base/utf8 decides what is valid).
    uint32_t cp = 0;
    const size_t len = Utf8Length(line, i, &cp);
    if (len > 0) {
      scratch->append(line.substr(i, len));
      i += len;
    } else {
      scratch->append("\xef\xbf\xbd");
      ++i;
    }
  }
  return *scratch;
}

namespace {

ParsedLine ParseLineOnce(std::string_view line) {
  ParsedLine p;
  std::string_view s = line;
  // Wrappers, outermost first; a few rounds cover stacks like compose + docker timestamps.
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    CivilTime t;
    size_t j;
    if ((j = ParseJournalShort(s, t)) != std::string_view::npos) {
      size_t m = SkipHostIdent(s, j, &p.wrapper_ident);
      if (m != std::string_view::npos) {
        p.wrapper_time = t;
        s = s.substr(m);
        changed = true;
      }
    } else if (!s.empty() && IsDigit(s[0]) &&
               (j = ParseRfc3339(s, 0, t)) != std::string_view::npos && At(s, j, ' ')) {
      // TGI's own format is an RFC 3339 time, two spaces and a level: an engine prefix.
      std::string_view rest = s.substr(j + 1);
      size_t k = 0;
      while (k < rest.size() && rest[k] == ' ') ++k;
      size_t w = rest.find(' ', k);
      std::string_view word = rest.substr(k, w == std::string_view::npos ? 0 : w - k);
      if (IsLevel(word) && rest.find("text_generation_") != std::string_view::npos) {
        p.time = t;
        p.level = word;
        p.style = PrefixStyle::kTgi;
        s = StripTgiTarget(rest, w + 1);
        p.message = s;
        return p;
      }
      std::string_view ident;
      size_t m = SkipHostIdent(s, j + 1, &ident);
      // journalctl -o short-iso: "2026-03-09T12:01:49+0000 host unit[1]: msg"
      if (m != std::string_view::npos && !IsLevel(word) && rest.find(' ') < rest.find(": ")) {
        p.wrapper_time = t;
        p.wrapper_ident = ident;
        s = s.substr(m);
      } else {
        p.wrapper_time = t;  // docker/kubectl --timestamps
        s = s.substr(j + 1);
      }
      changed = true;
    } else if (s.substr(0, 7) == "stdout " || s.substr(0, 7) == "stderr ") {
      // The CRI log file format (/var/log/pods/...): "<time> stderr F msg" (P: a partial line).
      if (s.size() > 9 && (s[7] == 'F' || s[7] == 'P') && s[8] == ' ') {
        s = s.substr(9);
        changed = true;
      }
    } else if (!s.empty() && s[0] == '{' && p.wrapper_time) {
      // LogQL/Loki output: "<time> {app="x", pod="y"} msg".
      size_t close = s.find("} ");
      if (close != std::string_view::npos && close < 512 && s.find('=') < close) {
        s = s.substr(close + 2);
        changed = true;
      }
    } else if (s.size() > 6 && s.substr(0, 5) == "[pod/") {
      size_t close = s.find("] ");
      if (close != std::string_view::npos && close < 512) {
        s = s.substr(close + 2);
        changed = true;
      }
    } else if (!s.empty() && s[0] != ' ') {
      // docker-compose: "name   | msg" (the name has no spaces). The name ends at the first
      // ' ' or '|' within 128 bytes (memchr: this runs on nearly every line).
      const std::string_view head = s.substr(0, 128);
      size_t k = std::min(head.find(' '), head.size());
      k = std::min(head.substr(0, k).find('|'), k);
      size_t spaces = k;
      while (spaces < s.size() && s[spaces] == ' ') ++spaces;
      if (k > 0 && spaces > k && spaces + 1 < s.size() && s[spaces] == '|' &&
          s[spaces + 1] == ' ') {
        s = s.substr(spaces + 2);
        changed = true;
      }
    }
    if (!changed) break;
  }
  // Engine prefixes: a vLLM process tag may precede the level/date prefix; Ray nests tags.
  for (int round = 0; round < 4; ++round) {
    std::string rank_before = p.rank;
    if (!ParseEnginePrefix(s, p)) break;
    if (p.rank.empty()) p.rank = rank_before;
    if (p.time && p.style != PrefixStyle::kVllm) break;
    if (p.time) break;
  }
  if (!p.time && p.wrapper_time) p.time = p.wrapper_time;
  p.message = s;
  return p;
}

}  // namespace

ParsedLine ParseLine(std::string_view line) {
  ParsedLine p = ParseLineOnce(line);
  if (p.time || p.style != PrefixStyle::kNone || !p.rank.empty()) return p;
  // An unknown constant-shaped prefix (an editor's line numbers, a k9s frame, a logger's name):
  // up to two leading tokens are skipped when what follows carries a known prefix.
  std::string_view rest = line;
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  for (int k = 0; k < 2; ++k) {
    size_t i = 0;
    while (i < rest.size() && i < 48 && rest[i] != ' ' && rest[i] != '\t') ++i;
    if (i == 0 || i >= rest.size() || i >= 48) break;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
    rest = rest.substr(i);
    if (rest.empty()) break;
    // Known prefixes start with one of these: a cheap test before a second parse.
    const char c = rest.front();
    if (c != '[' && c != '(' && !IsDigit(c) && !IsUpper(c)) continue;
    ParsedLine q = ParseLineOnce(rest);
    if (q.time || q.style != PrefixStyle::kNone) return q;
  }
  return p;
}

std::string CanonicalRank(std::string_view tag) {
  std::string out;
  out.reserve(tag.size());
  for (char c : tag) {
    if (out.size() >= 64) break;
    if (c == ' ') {
      if (!out.empty() && out.back() != '_') out.push_back('_');
    } else if (IsAlnum(c) || c == '_' || c == '-' || c == '.') {
      out.push_back(c);
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace spinup
