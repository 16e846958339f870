// glog's line prefix, as Triton (the tensorrtllm_backend's server) and other C++ servers print it,
// and PyTorch's bracketed variant (engine_prefix.h).
#include <string_view>

#include "logs/engine_prefix.h"
#include "logs/text_scan.h"

namespace spinup {

using scan::At;
using scan::Digits;
using scan::IsDigit;
using scan::ParseClock;
using scan::ParseFraction;

namespace {

// glog's "MMDD HH:MM:SS[.frac]" at s[at], shared by its plain and bracketed forms. Where the stamp
// ends, or npos.
// PyTorch's own C++ logger writes month * 100 + day unpadded (`unpadded_month`): "W418" is
// April 18.
size_t ParseMonthDayClock(std::string_view s, size_t at, CivilTime& t,
                          bool unpadded_month = false) {
  const size_t month_digits = unpadded_month && At(s, at + 3, ' ') ? 1 : 2;
  const int mo = Digits(s, at, month_digits), d = Digits(s, at + month_digits, 2);
  const size_t space = at + month_digits + 2;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || !At(s, space, ' ')) return std::string_view::npos;
  t.month = mo;
  t.day = d;
  const size_t j = ParseClock(s, space + 1, t);
  return j == std::string_view::npos ? j : ParseFraction(s, j, t);
}

// A source location, "model_lifecycle.cc:818": a file name, a colon, a line number.
bool IsSourceLocation(std::string_view loc) {
  const size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= loc.size() ||
      loc.find(' ') != std::string_view::npos) {
    return false;
  }
  for (size_t k = colon + 1; k < loc.size(); ++k) {
    if (!IsDigit(loc[k])) return false;
  }
  return true;
}

// glog's "100348 model_lifecycle.cc:818] " at s[j]: the thread and the source file. Where its
// "] " is, or npos.
size_t GlogThreadAndSource(std::string_view s, size_t j) {
  const size_t tid = j;
  while (j < s.size() && j < tid + 12 && IsDigit(s[j])) ++j;
  if (j == tid || !At(s, j, ' ')) return std::string_view::npos;
  const size_t close = s.find("] ", j + 1);
  if (close == std::string_view::npos || close - j > 96) return std::string_view::npos;
  return IsSourceLocation(s.substr(j + 1, close - j - 1)) ? close : std::string_view::npos;
}

// PyTorch's compiler logs through this prefix too ("W0318 16:21:09.841000 229
// torch/_inductor/utils.py:1137] [0/0] Not enough SMs ..."): its source file is what says the line
// is the compiler's, so the message keeps it.
bool CompilerSource(std::string_view loc) {
  return loc.starts_with("torch/_inductor/") || loc.starts_with("torch/_dynamo/");
}

}  // namespace

// glog, as Triton (the tensorrtllm_backend's server) and other C++ servers print it:
// "I0501 01:00:00.245480 100348 model_lifecycle.cc:818] msg" (level letter, MMDD, time, thread,
// source file). No year: the stream anchors it.
bool ParseGlog(std::string_view& msg, ParsedLine& p) {
  const std::string_view s = msg;
  CivilTime t;
  size_t j = ParseMonthDayClock(s, 1, t);
  if (j == std::string_view::npos) return false;
  while (At(s, j, ' ')) ++j;
  const size_t close = GlogThreadAndSource(s, j);
  if (close == std::string_view::npos) return false;
  p.level = s.substr(0, 1);
  p.time = t;
  p.style = PrefixStyle::kGlog;
  const size_t source = s.find(' ', j) + 1;  // after the thread id
  msg = s.substr(CompilerSource(s.substr(source, close - source)) ? source : close + 2);
  return true;
}

// PyTorch's C++ log prefix in brackets, on c10d's and ProcessGroupNCCL's lines: "[W1009
// 03:00:55.123624934 socket.cpp:752] msg", some releases with the thread id before the file
// ("[W0109 02:26:52.112000 882 socket.cpp:752]"), January to September unpadded ("[W418 ..."). No
// year: the stream anchors it.
bool ParseBracketGlog(std::string_view& msg, size_t close, ParsedLine& p) {
  const std::string_view s = msg;
  const char level = s[1];
  if (level != 'I' && level != 'W' && level != 'E' && level != 'F') return false;
  CivilTime t;
  size_t j = ParseMonthDayClock(s, 2, t, true);
  if (j == std::string_view::npos || j >= close || !At(s, j, ' ')) return false;
  ++j;
  size_t tid = j;
  while (tid < close && IsDigit(s[tid])) ++tid;
  if (tid > j && At(s, tid, ' ')) j = tid + 1;  // the thread id
  if (!IsSourceLocation(s.substr(j, close - j))) return false;
  p.level = s.substr(1, 1);
  p.time = t;
  p.style = PrefixStyle::kGlog;
  if (CompilerSource(s.substr(j, close - j))) {
    msg = s.substr(j);
    return true;
  }
  msg = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
  return true;
}

// Triton's --log-format ISO8601: "2025-09-01T12:00:31Z I 1 model_lifecycle.cc:839] msg", its time
// read as a leading stamp before this: the level letter, thread and source file.
bool ParseGlogIsoTail(std::string_view& msg, ParsedLine& p) {
  const size_t close = GlogThreadAndSource(msg, 2);
  if (close == std::string_view::npos) return false;
  p.level = msg.substr(0, 1);
  p.style = PrefixStyle::kGlog;
  msg.remove_prefix(close + 2);
  return true;
}

}  // namespace spinup
