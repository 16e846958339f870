// Service-manager and syslog line formats besides journalctl's default (line_parser.cc reads that
// one and short-iso): journalctl -o short-full and -o short-unix, and RFC 5424 syslog as a log
// server or `logger --rfc5424` writes it. Pure: bytes in, an index out; every index is checked.
#include "logs/syslog_formats.h"

#include <algorithm>
#include <array>

#include "logs/text_scan.h"

namespace spinup {
namespace {

using scan::At;
using scan::IsDigit;

bool IsTimeZoneWord(std::string_view w) {
  if (w.empty() || w.size() > 6) return false;
  for (char c : w) {
    if (!scan::IsAlnum(c) && c != '+' && c != '-') return false;
  }
  return true;
}

}  // namespace

size_t ParseJournalShortFull(std::string_view s, CivilTime& t) {
  if (s.size() < 28 || s[3] != ' ' || !scan::IsDayName(s)) return std::string_view::npos;
  CivilTime tt;
  size_t j = scan::ParseDateTime(s, 4, ' ', tt);
  if (j == std::string_view::npos) return j;
  j = scan::ParseFraction(s, j, tt);
  if (!At(s, j, ' ')) return std::string_view::npos;
  const size_t zone = j + 1;
  const size_t end = s.find(' ', zone);
  if (end == std::string_view::npos || !IsTimeZoneWord(s.substr(zone, end - zone))) {
    return std::string_view::npos;
  }
  t = tt;  // as printed, in the zone it names (one clock per log)
  return end + 1;
}

size_t ParseJournalShortUnix(std::string_view s, CivilTime& t) {
  size_t i = 0;
  int64_t seconds = 0;
  while (i < s.size() && i < 11 && IsDigit(s[i])) seconds = seconds * 10 + (s[i++] - '0');
  if (i < 9 || !At(s, i, '.')) return std::string_view::npos;
  size_t j = ++i;
  int millis = 0;
  while (j < s.size() && j < i + 9 && IsDigit(s[j])) {
    if (j < i + 3) millis = millis * 10 + (s[j] - '0');
    ++j;
  }
  if (j - i < 3 || !At(s, j, ' ')) return std::string_view::npos;
  t = UnixMsToCivil(seconds * 1000 + millis);
  return j + 1;
}

size_t ParseSyslog5424(std::string_view s, CivilTime& t, std::string_view* app) {
  // "<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD MSG"
  if (s.size() < 20 || s[0] != '<') return std::string_view::npos;
  size_t i = 1;
  while (i < s.size() && i < 4 && IsDigit(s[i])) ++i;
  if (i == 1 || s.substr(i, 3) != ">1 ") return std::string_view::npos;
  i += 3;
  CivilTime tt;
  const size_t j = scan::ParseRfc3339(s, i, tt);
  if (j == std::string_view::npos || !At(s, j, ' ')) return std::string_view::npos;
  // HOST, APP, PROCID, MSGID: one word each ("-" when absent).
  std::string_view fields[4];
  size_t k = j + 1;
  for (auto& f : fields) {
    const size_t sp = s.find(' ', k);
    if (sp == std::string_view::npos || sp == k || sp - k > 255) return std::string_view::npos;
    f = s.substr(k, sp - k);
    k = sp + 1;
  }
  // Structured data: "-" or one or more "[...]" elements.
  if (At(s, k, '-')) {
    ++k;
  } else if (At(s, k, '[')) {
    const size_t close = s.find("] ", k);
    if (close == std::string_view::npos || close - k > 1024) return std::string_view::npos;
    k = close + 1;
  } else {
    return std::string_view::npos;
  }
  if (k < s.size() && s[k] != ' ') return std::string_view::npos;
  t = tt;
  *app = fields[1] == "-" ? std::string_view() : fields[1];
  return std::min(k + 1, s.size());
}

namespace {

// `journalctl --no-hostname`: the identifier right after the time. Only one with its pid
// ("sglang-wrap[30112]: ") or the kernel's, so a sentence's "Aug 21 02:30 we saw: " is none.
size_t SkipIdentOnly(std::string_view s, size_t i, std::string_view* ident) {
  size_t k = i;
  while (k < s.size() && k - i < 256 && s[k] != ' ' && s[k] != ':') ++k;
  if (k == i || !At(s, k, ':') || !At(s, k + 1, ' ')) return std::string_view::npos;
  const std::string_view word = s.substr(i, k - i);
  const size_t open = word.find('[');
  const bool pid = open != word.npos && open > 0 && word.back() == ']' && open + 2 < word.size() &&
                   std::all_of(word.begin() + static_cast<std::ptrdiff_t>(open) + 1, word.end() - 1,
                               [](char c) { return IsDigit(c); });
  if (!pid && word != "kernel") return std::string_view::npos;
  *ident = word;
  return k + 2;
}

}  // namespace

size_t SkipHostIdent(std::string_view s, size_t i, std::string_view* ident) {
  if (const size_t m = SkipIdentOnly(s, i, ident); m != std::string_view::npos) return m;
  size_t sp = s.find(' ', i);
  if (sp == std::string_view::npos || sp == i || sp - i > 255) return std::string_view::npos;
  size_t j = sp + 1;
  size_t k = j;
  while (k < s.size() && k - j < 256 && s[k] != ' ' && s[k] != ':') ++k;
  if (k == j || !At(s, k, ':') || !At(s, k + 1, ' ')) return std::string_view::npos;
  *ident = s.substr(j, k - j);
  return k + 2;
}

bool StripServiceManagerTime(std::string_view& s, ParsedLine& p) {
  if (s.empty()) return false;
  const char c = s[0];
  CivilTime t;
  std::string_view ident;
  size_t m = std::string_view::npos;
  if (c == '<') {
    m = ParseSyslog5424(s, t, &ident);
  } else if (scan::IsUpper(c) || IsDigit(c)) {
    const size_t j = IsDigit(c) ? ParseJournalShortUnix(s, t) : ParseJournalShortFull(s, t);
    if (j != std::string_view::npos) m = SkipHostIdent(s, j, &ident);
  }
  if (m == std::string_view::npos) return false;
  p.wrapper_time = t;
  p.wrapper_ident = ident;
  s = s.substr(m);
  return true;
}

}  // namespace spinup
