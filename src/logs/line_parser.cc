#include "logs/line_parser.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/utf8.h"
#include "logs/clock_reading.h"
#include "logs/engine_prefix.h"
#include "logs/line_parser_internal.h"
#include "logs/script_stamps.h"
#include "logs/syslog_formats.h"
#include "logs/text_scan.h"

namespace spinup {

using line_internal::ReadLinePrefixes;
using line_internal::StripBracketedScriptTime;
using line_internal::StripDateOutputTime;
using line_internal::StripShipperTime;
using scan::At;
using scan::Digits;
using scan::IsDigit;
using scan::IsLevel;
using scan::IsUpper;
using scan::ParseClock;
using scan::ParseFraction;
using scan::ParseRfc3339;

namespace {

// A journal line's month: "Mar", or under a Chinese, Japanese or Korean locale "3月" / "12월"
// (journalctl prints the locale's abbreviation). Sets `end` to the index after it; 0 if none.
int JournalMonth(std::string_view s, size_t& end) {
  // Under a German locale journalctl writes "Mär", "Mai", "Okt", "Dez" (the rest as in English).
  if (s.starts_with("M\xC3\xA4r ")) {
    end = 4;
    return 3;
  }
  if (s.size() > 3 && s[3] == ' ') {
    end = 3;
    if (const int month = scan::MonthNumber(s)) return month;
    const std::string_view word = s.substr(0, 3);
    return word == "Mai" ? 5 : word == "Okt" ? 10 : word == "Dez" ? 12 : 0;
  }
  if (s.empty() || !IsDigit(s[0])) return 0;
  size_t i = 0;
  int month = 0;
  while (i < 2 && i < s.size() && IsDigit(s[i])) month = month * 10 + (s[i++] - '0');
  const std::string_view rest = s.substr(i);
  if (i == 0 || month < 1 || month > 12 ||
      (!rest.starts_with("\xE6\x9C\x88") && !rest.starts_with("\xEC\x9B\x94"))) {
    return 0;
  }
  end = i + 3;
  return month;
}

// journalctl short: "Mar 09 12:01:49 host ident[pid]: ". Returns index of the message.
size_t ParseJournalShort(std::string_view s, CivilTime& t) {
  size_t m = 0;
  const int month = s.size() < 16 ? 0 : JournalMonth(s, m);
  if (month == 0 || !At(s, m, ' ')) return std::string_view::npos;
  int day = Digits(s, m + 1, 2);
  if (day < 0 && At(s, m + 1, ' ')) day = Digits(s, m + 2, 1);
  if (day < 1 || day > 31 || !At(s, m + 3, ' ')) return std::string_view::npos;
  CivilTime tt;
  tt.month = month;
  tt.day = day;
  size_t j = ParseClock(s, m + 4, tt);
  if (j == std::string_view::npos) return j;
  j = ParseFraction(s, j, tt);
  if (!At(s, j, ' ')) return std::string_view::npos;
  t = tt;
  return j + 1;
}

// How far a local time of day is from the UTC one beside it, in minutes, where that is a zone's
// offset: whole quarter hours (within two minutes: the two stamps are taken apart), -12 to +14
// hours. nullopt otherwise.
std::optional<int> ZoneOffsetBetween(const CivilTime& local, const CivilTime& utc) {
  int d = (local.hour * 60 + local.minute) - (utc.hour * 60 + utc.minute);
  if (d > 14 * 60) d -= 24 * 60;
  if (d < -12 * 60) d += 24 * 60;
  const int quarters = (d + (d >= 0 ? 7 : -7)) / 15;
  if (d - quarters * 15 > 2 || quarters * 15 - d > 2 || d > 14 * 60 || d < -12 * 60) {
    return std::nullopt;
  }
  return quarters * 15;
}

// After an RFC 3339 time at s[0..j): TGI's own prefix (then `p` is complete and true is
// returned), journalctl -o short-iso's host and unit, or docker/kubectl --timestamps.
bool StripRfc3339(std::string_view& s, size_t j, const CivilTime& t, ParsedLine& p) {
  // TGI's own format is an RFC 3339 time, two spaces and a level: an engine prefix.
  std::string_view rest = s.substr(j + 1);
  size_t k = 0;
  while (k < rest.size() && rest[k] == ' ') ++k;
  size_t w = rest.find(' ', k);
  std::string_view word = rest.substr(k, w == std::string_view::npos ? 0 : w - k);
  if (IsLevel(word) && (rest.find("text_generation_") != std::string_view::npos ||
                        (w != std::string_view::npos && StartsWithTgiSpan(rest.substr(w + 1))))) {
    p.time = t;
    p.level = word;
    p.style = PrefixStyle::kTgi;
    p.client_request = IsTgiRequestSpan(rest.substr(w + 1));
    s = StripTgiTarget(rest, w + 1);
    p.message = s;
    if (p.rank.empty()) p.rank = TgiSpanRank(s);
    return true;
  }
  std::string_view ident;
  size_t m = SkipHostIdent(s, j + 1, &ident);
  // journalctl -o short-iso: "2026-03-09T12:01:49+0000 host unit[1]: msg". A Z time is docker's
  // or kubectl's, never journalctl's: `vllm serve: error:` after it is no host and unit.
  // (A host name has no '/': "ecs/tgi/0d3e5f7a" is a log stream's.)
  if (m != std::string_view::npos && s[j - 1] != 'Z' && !IsLevel(word) &&
      rest.find(' ') < rest.find(": ") && rest.substr(0, rest.find(' ')).find('/') == rest.npos) {
    p.wrapper_time = t;
    p.wrapper_ident = ident;
    s = s.substr(m);
  } else {
    p.wrapper_time = t;  // docker/kubectl --timestamps
    const bool zulu = s[j - 1] == 'Z';
    s = s.substr(j + 1);
    // A log shipper's host or container name between its time and the line, whose own dated
    // stamp follows (Vector, Fluent Bit: "...T13:50:06.077+05:30 tgi-qwen14b 2024-12-07T08:20:06Z
    // INFO ..."), or a log stream's name before a JSON line or a dated one (`aws logs tail`:
    // "...+00:00 ecs/tgi/8c1e55a2 {"timestamp":...}").
    const size_t blank = s.find(' ');
    const bool dated = blank != std::string_view::npos && s.size() > blank + 6 &&
                       IsDigit(s[blank + 1]) && IsDigit(s[blank + 2]) && IsDigit(s[blank + 3]) &&
                       IsDigit(s[blank + 4]) && s[blank + 5] == '-';
    const bool json = blank != std::string_view::npos && s.size() > blank + 2 &&
                      s[blank + 1] == '{' && s[blank + 2] == '"';
    // A stream's path-like name before any line, behind `aws logs tail`'s time with its offset
    // ("+00:00 ecs/tgi/0d3e5f7a RuntimeError: ..."; docker's and kubectl's end in Z): a name,
    // not a path (which starts with '/').
    const bool stream = !zulu && blank != std::string_view::npos && blank >= 8 && s[0] != '/' &&
                        s.substr(0, blank).find('/') != std::string_view::npos;
    if ((dated || json || stream) && blank > 0 && blank < 96 &&
        std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(blank), [&](char c) {
          return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
                 c == '.' || c == '_' || c == '/';
        })) {
      p.wrapper_ident = s.substr(0, blank);
      s = s.substr(blank + 1);
    }
  }
  return false;
}

// Open MPI's `mpirun --tag-output`: "[1,5]<stderr>:msg" (job, rank, stream), how TensorRT-LLM's and
// Triton's multi-GPU runs are often launched. The rank is kept unless the engine names its own.
bool StripMpirunTag(std::string_view& s, ParsedLine& p) {
  size_t i = 1;
  while (i < s.size() && i < 8 && IsDigit(s[i])) ++i;
  if (i == 1 || !At(s, i, ',')) return false;
  const size_t r = ++i;
  while (i < s.size() && i < r + 8 && IsDigit(s[i])) ++i;
  if (i == r || s.substr(i, 2) != "]<") return false;
  const size_t close = s.find(">:", i + 2);
  if (close == std::string_view::npos || close > i + 10) return false;
  p.rank = "rank" + std::string(s.substr(r, i - r));
  s = s.substr(close + 2);
  return true;
}

// Slurm's `srun --label`: "3: msg", the task's number (multi-node SGLang and vLLM are often
// started under srun). Labels padded with spaces (past 9 tasks) are left to the learned prefixes.
// A task is a node's launcher, not a tensor-parallel rank: no rank is taken from it.
bool StripSrunLabel(std::string_view& s) {
  size_t i = 0;
  while (i < s.size() && i < 5 && IsDigit(s[i])) ++i;
  if (i == 0 || s.substr(i, 2) != ": " || i + 2 >= s.size()) return false;
  s = s.substr(i + 2);
  return true;
}

// `grep -n`'s line number: "134:INFO ..." (and "135-..." for a context line of -A/-B/-C): a person
// grepped the log. The line itself follows at once, and there never starts with a digit or a
// blank ("10:02:19" is a clock, "2025-06-12" a date, "3: msg" srun's label).
bool StripGrepLineNumber(std::string_view& s) {
  size_t i = 0;
  while (i < s.size() && i < 7 && IsDigit(s[i])) ++i;
  if (i == 0 || i + 1 >= s.size() || (s[i] != ':' && s[i] != '-')) return false;
  const char next = s[i + 1];
  if (IsDigit(next) || next == ' ' || next == '\t' || next == ':' || next == '-') return false;
  s = s.substr(i + 1);
  return true;
}

// Wrappers that carry no time: CRI's stream and tag, LogQL's labels, kubectl's [pod/...],
// docker-compose's "name   | ", mpirun's "[1,0]<stdout>:", srun's "0: ", grep -n's "12:". True
// when one was stripped.
bool StripUntimedWrapper(std::string_view& s, ParsedLine& p) {
  if (s.substr(0, 7) == "stdout " || s.substr(0, 7) == "stderr ") {
    // The CRI log file format (/var/log/pods/...): "<time> stderr F msg" (P: a partial line).
    if (s.size() <= 9 || (s[7] != 'F' && s[7] != 'P') || s[8] != ' ') return false;
    s = s.substr(9);
    return true;
  }
  if (!s.empty() && s[0] == '{' && p.wrapper_time) {
    // LogQL/Loki output: "<time> {app="x", pod="y"} msg".
    size_t close = s.find("} ");
    if (close == std::string_view::npos || close >= 512 || s.find('=') >= close) return false;
    s = s.substr(close + 2);
    return true;
  }
  if (s.size() > 8 && s[0] == '[' && IsDigit(s[1]) && StripMpirunTag(s, p)) return true;
  if (s.size() > 6 && s.substr(0, 5) == "[pod/") {
    size_t close = s.find("] ");
    if (close == std::string_view::npos || close >= 512) return false;
    const std::string_view tag = s.substr(0, close);
    p.source = tag.substr(tag.rfind('/') + 1);  // "[pod/name/container]": the container
    s = s.substr(close + 2);
    return true;
  }
  if (s.empty() || s[0] == ' ') return false;
  if (IsDigit(s[0]) && (StripSrunLabel(s) || StripGrepLineNumber(s))) return true;
  // docker-compose: "name   | msg" (the name has no spaces). The name ends at the first ' ' or
  // '|' within 128 bytes (a word at a time: this runs on nearly every line).
  const std::string_view head = s.substr(0, 128);
  size_t k = std::min(scan::FindEither(head, ' ', '|'), head.size());
  // pm2's "0|name   | msg": the app's id and a bar before its name.
  if (k < head.size() && head[k] == '|' && IsDigit(s[0]) &&
      std::all_of(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(k), IsDigit)) {
    const size_t end = std::min(scan::FindEither(head.substr(k + 1), ' ', '|'), head.size());
    if (end == 0 || k + 1 + end >= head.size() || head[k + 1 + end] != ' ') return false;
    k += 1 + end;
  }
  size_t spaces = k;
  while (spaces < s.size() && s[spaces] == ' ') ++spaces;
  if (k == 0 || spaces <= k || spaces + 1 >= s.size() || s[spaces] != '|' || s[spaces + 1] != ' ') {
    return false;
  }
  p.source = s.substr(0, k);
  s = s.substr(spaces + 2);
  return true;
}

// Ray's log deduplication appends " [repeated 7x across cluster]" to a line several workers
// printed (vLLM's Ray executor): the message ends before it, so "... in load_model$" still matches.
std::string_view StripRayRepeat(std::string_view s) {
  constexpr std::string_view kTail = "x across cluster]";
  if (s.size() < kTail.size() + 12 || s.back() != ']' ||
      s.substr(s.size() - kTail.size()) != kTail) {
    return s;
  }
  size_t open = s.rfind(" [repeated ");
  if (open == std::string_view::npos || s.size() - open > 40) return s;
  for (size_t k = open + 11; k < s.size() - kTail.size(); ++k) {
    if (!IsDigit(s[k])) return s;
  }
  return s.substr(0, open);
}

// The first ' ' or '\t' in s[0, limit), else min(size, limit): 16 bytes a step (most lines that
// reach ParseLine's second try have no known prefix, and this runs for each of them).
size_t FirstBlank(std::string_view s, size_t limit) {
  const std::string_view head = s.substr(0, limit);
  const size_t k = scan::FindEither(head, ' ', '\t');
  return k == std::string_view::npos ? head.size() : k;
}

// What ReadLinePrefixes returns where no wrapper or prefix starts the line: the message alone.
ParsedLine PlainLine(std::string_view line) {
  ParsedLine p;
  p.message = StripRayRepeat(line);
  return p;
}

// Each parser's first test, in one pass over the first word: journalctl's month, an RFC 3339 time,
// CRI's stream, mpirun's and kubectl's brackets, compose's name (ReadLinePrefixes' wrappers;
// LogQL's labels need a wrapper's time first), then ParseEnginePrefix's: brackets and colour
// remnants, digits (TensorRT-LLM's C++ date, Python logging), glog's level letter, vLLM's process
// tag and level word. Keep them in step with the parsers (line_parser_skip_test.cc checks).
// TGI's level padded to five columns, " INFO "/" WARN ", where a paste cut the time before it.
inline bool IsPaddedLevel(std::string_view s) {
  return s.size() > 6 && (s[1] == 'I' || s[1] == 'W') &&
         (s.substr(0, 6) == " INFO " || s.substr(0, 6) == " WARN ");
}

inline bool MayStart(std::string_view s) {
  if (s.empty()) return false;
  const char c = s[0];
  // A line that starts with a space (a traceback's frames and code) has none: a wrapper's or a
  // prefix's first byte is never one, and a process tag needs a name before its " pid=".
  if (c == ' ') return IsPaddedLevel(s);
  // '(': a process tag, whose rank words may come before " pid=" ("(VllmWorker TP0 pid=1) ").
  if (c == '[' || c == '(' || c == '^' || c == '<' || IsDigit(c)) return true;
  if (IsUpper(c)) {
    if (s.size() >= 16 && (s[3] == ' ' || s.starts_with("M\xC3\xA4r "))) return true;  // "Mär"
    if ((c == 'I' || c == 'W' || c == 'E' || c == 'F') && s.size() > 1 && IsDigit(s[1]))
      return true;
  } else if (c == 's' && (s.substr(0, 7) == "stdout " || s.substr(0, 7) == "stderr ")) {
    return true;
  }
  // The first ' ' or '|' within 128 bytes: where compose's name and vLLM's first word end.
  const std::string_view head = s.substr(0, 128);
  const size_t k = scan::FindEither(head, ' ', '|');
  if (k == std::string_view::npos) return s.size() > head.size();  // a long name: let it be read
  size_t sp = k;
  if (s[k] == '|') {
    sp = scan::FindByte(head, ' ', k);
    if (sp == std::string_view::npos) return false;
  }
  if (s.substr(sp, 5) == " pid=" || s.substr(sp, 6) == " rank=") return true;
  if (sp <= 8 && scan::IsLevel(s.substr(0, sp))) return true;
  // compose: "name   | " (the name ends at a space).
  if (s[k] != ' ') return false;
  size_t spaces = k;
  while (spaces < s.size() && s[spaces] == ' ') ++spaces;
  return spaces + 1 < s.size() && s[spaces] == '|' && s[spaces + 1] == ' ';
}

}  // namespace

namespace line_internal {

bool MayStartLinePrefix(std::string_view s) { return MayStart(s); }

ParsedLine ReadLinePrefixes(std::string_view line) {
  ParsedLine p;
  std::string_view s = line;
  // Wrappers, outermost first; a few rounds cover stacks like compose + docker timestamps.
  for (int round = 0; round < 4; ++round) {
    CivilTime t;
    size_t j;
    bool changed = false;
    const char* const ident_before = p.wrapper_ident.data();
    // The innermost wrapper that names a program says whose the line is: journald's identifier
    // without its pid ("nginx[998]" → "nginx"), or compose's and kubectl's names (set as stripped).
    auto note_ident = [&] {
      if (p.wrapper_ident.data() == ident_before || p.wrapper_ident.empty()) return;
      p.source = p.wrapper_ident.substr(0, p.wrapper_ident.find('['));
    };
    if ((j = ParseJournalShort(s, t)) != std::string_view::npos) {
      size_t m = SkipHostIdent(s, j, &p.wrapper_ident);
      if (m != std::string_view::npos) {
        p.wrapper_time = t;
        s = s.substr(m);
        changed = true;
      }
    } else if (MayStartServiceManagerLine(s) && StripServiceManagerTime(s, p)) {
      changed = true;
    } else if (!s.empty() && IsDigit(s[0]) &&
               (j = ParseRfc3339(s, 0, t)) != std::string_view::npos && At(s, j, ' ')) {
      // "...Z" or "...+08:00" (the offset applied): the log's clock is UTC.
      const bool local_wrapper = p.wrapper_time && !p.utc_stamp;
      p.utc_stamp = s[j - 1] == 'Z' || s.substr(19, j - 19).find_first_of("+-") != s.npos;
      if (StripRfc3339(s, j, t, p)) {  // TGI: complete, on its own UTC clock
        if (local_wrapper && p.utc_stamp) {
          p.wrapper_offset_min = ZoneOffsetBetween(*p.wrapper_time, t);
        }
        return p;
      }
      changed = true;
    } else {
      changed = StripUntimedWrapper(s, p) ||
                (!p.wrapper_time && (StripShipperTime(s, p) || StripDateOutputTime(s, p) ||
                                     StripBracketedScriptTime(s, p))) ||
                StripProcfileTime(s);
    }
    note_ident();
    if (!changed) break;
  }
  // Engine prefixes: a vLLM process tag may precede the level/date prefix; Ray nests tags.
  // A rank already read (a wrapper's, an outer tag's) stays unless the next prefix names one: it is
  // set aside, not copied, as ParseEnginePrefix only assigns p.rank when it succeeds.
  for (int round = 0; round < 4; ++round) {
    if (p.rank.empty()) {  // most lines: nothing to keep
      if (!ParseEnginePrefix(s, p)) break;
    } else {
      std::string rank_before = std::move(p.rank);
      p.rank.clear();
      if (!ParseEnginePrefix(s, p)) {
        p.rank = std::move(rank_before);
        break;
      }
      if (p.rank.empty()) p.rank = std::move(rank_before);
    }
    // vLLM's or TGI's level ends its prefix even without a time (a paste that cut the times
    // out): what follows is the message. TensorRT-LLM's C++ runtime may repeat its whole prefix
    // ("[TensorRT-LLM][ERROR] [TensorRT-LLM][ERROR] Assertion failed"), so it reads on.
    const bool level_ends = p.style == PrefixStyle::kVllm || p.style == PrefixStyle::kTgi;
    if (p.time || (level_ends && !p.level.empty())) break;
  }
  // One clock per log: a wrapper (journald, docker, kubectl, CRI) stamps every line, the engine
  // only some, in its container's time zone; mixing the two turns a zone offset into a stall.
  if (p.wrapper_time) {
    if (p.time && p.utc_stamp) p.local_offset_min = ZoneOffsetBetween(*p.time, *p.wrapper_time);
    p.local_wrapper_clock = !p.utc_stamp;
    p.time = p.wrapper_time;
  }
  p.message = StripRayRepeat(s);
  return p;
}

}  // namespace line_internal

// A log pasted as a markdown quote ("> line", nested "> > line"): the marks are the paste's, not
// the server's, so start-anchored rules still match.
std::string_view StripQuoteMarks(std::string_view s) {
  while (!s.empty() && s.front() == '>') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  }
  return s;
}

// A terminal UI's frame around each line (k9s: "│ msg   │"): the vertical bar U+2502 and the
// padding beside it are not part of the line, so end-anchored rules (traceback frames) still match.
std::string_view StripBoxFrame(std::string_view s) {
  constexpr std::string_view kBar = "\xe2\x94\x82";
  // The first (last) byte tells first: a 3-byte compare is a memcmp call, on every line.
  if (s.size() >= kBar.size() && s[0] == kBar[0] && s.substr(0, kBar.size()) == kBar) {
    s.remove_prefix(kBar.size());
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  }
  if (s.size() >= kBar.size() && s.back() == kBar.back() &&
      s.substr(s.size() - kBar.size()) == kBar) {
    s.remove_suffix(kBar.size());
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  }
  return s;
}

namespace {

bool IsLabelEnd(char c) { return c == ':' || c == '|' || c == ']' || c == '>'; }

// A journal line indented once more than its paste's block (a tab before an indented block): the
// indent is the paste's. The line as it is otherwise.
std::string_view JournalBehindIndent(std::string_view line) {
  const size_t k = line.find_first_not_of(" \t");
  if (k == std::string_view::npos || k > 16) return line;
  const std::string_view rest = line.substr(k);
  CivilTime t;
  std::string_view ident;
  const size_t j = ParseJournalShort(rest, t);
  return j != std::string_view::npos && SkipHostIdent(rest, j, &ident) != std::string_view::npos
             ? rest
             : line;
}

bool TracebackLine(std::string_view s) {
  return s.starts_with("Traceback (most recent call last):") || s.starts_with("File \"");
}

}  // namespace

ParsedLine ParseLine(std::string_view line, const std::vector<std::string>* learned) {
  if (!line.empty() && line.front() == '>') line = StripQuoteMarks(line);
  line = StripBoxFrame(line);
  if (learned != nullptr) {
    for (const std::string& prefix : *learned) {
      // The first byte tells first: a memcmp call per learned prefix, on every line, cost more.
      if (line.size() > prefix.size() && line[0] == prefix[0] &&
          line.substr(0, prefix.size()) == prefix) {
        line.remove_prefix(prefix.size());
        break;
      }
    }
  }
  // A traceback's frames and code lines, a fifth of a pasted excerpt, start with spaces: nothing to
  // read (MayStart's first test; the others cost more than they save on this first try).
  // (TGI's padded level is a prefix.)
  if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) line = JournalBehindIndent(line);
  ParsedLine p = line.empty() || (line[0] == ' ' && !IsPaddedLevel(line)) ? PlainLine(line)
                                                                          : ReadLinePrefixes(line);
  if (!p.time) {
    if (const std::optional<CivilTime> reading = ParseClockReading(p.message)) {
      p.time = *reading;  // date(1)'s output pasted after the log: the time it was pasted
      p.reading_offset_min = ReadingZoneOffsetMinutes(p.message);
      p.clock_reading = true;
      return p;
    }
    if (const std::optional<CivilTime> reading = ParseReportedClock(p.message)) {
      p.time = *reading;
      p.stated_reading = !reading->has_date();
      p.reading_offset_min = ReadingZoneOffsetMinutes(p.message);
      return p;
    }
  }
  if (p.time || p.style != PrefixStyle::kNone || !p.rank.empty()) return p;
  // An unknown constant-shaped prefix (an editor's line numbers, a k9s frame, a logger's name):
  // up to two leading tokens are skipped when what follows carries a known prefix, and a third
  // that is a label (DJL Serving's "INFO  PyProcess W-215-model-stdout: ").
  std::string_view rest = line;
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  for (int k = 0; k < 3; ++k) {
    size_t i = FirstBlank(rest, 48);
    if (i == 0 || i >= rest.size() || i >= 48) break;
    const char token_end = rest[i - 1];
    if (k == 2 && token_end != ':') break;  // a third token is a label ("W-215-model-stdout:")
    const size_t label_end = i;             // where the token ends in `rest`
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
    rest = rest.substr(i);
    if (rest.empty()) break;
    // Known prefixes start with one of these: a cheap test before a second parse.
    const char c = rest.front();
    // A host's or a task's label ("gpu-07: ", srun's padded " 3: ") before a traceback's lines,
    // which have no prefix of their own: skipped too, so the label is learned from them as well.
    // (PyTorch's "[rank0]: " stays: every rank has its own, and they are not one wrapper.)
    // The frame keeps its indentation: the label and one blank go.
    if (k == 0 && (c == 'T' || c == 'F') && line.front() != '[' && IsLabelEnd(token_end) &&
        p.message.size() == line.size() && TracebackLine(rest)) {
      const size_t label = static_cast<size_t>(rest.data() - line.data()) - (i - label_end);
      p.message = line.substr(label + 1);
      p.skipped_prefix = line.substr(0, label + 1);
      return p;
    }
    if (c != '[' && c != '(' && !IsDigit(c) && !IsUpper(c)) continue;
    if (!MayStart(rest)) continue;  // most second tries are words of a plain message
    ParsedLine q = ReadLinePrefixes(rest);
    if (q.time || q.style != PrefixStyle::kNone) {
      // Moved into `p`, the one object returned: every line's return is then elided (NRVO), not a
      // move of its rank string.
      p = std::move(q);
      p.skipped_prefix = line.substr(0, static_cast<size_t>(rest.data() - line.data()));
      return p;
    }
  }
  return p;
}

}  // namespace spinup
