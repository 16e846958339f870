#include "logs/engine_prefix.h"

#include <algorithm>
#include <string>
#include <utility>

#include "logs/text_scan.h"

namespace spinup {

using scan::At;
using scan::Digits;
using scan::FindByte;
using scan::IsAlnum;
using scan::IsDigit;
using scan::IsLevel;
using scan::IsUpper;
using scan::ParseClock;
using scan::ParseDateTime;
using scan::ParseFraction;

namespace {

// The 2024-2026 SGLang tag list: " TP2", " DP0 TP2 EP0", " PP0", " ATTN_CP1", " MOE_DP1".
bool ParseSglangTags(std::string_view tags, std::string* rank) {
  // tags: "TP2" / "DP0 TP2 EP0" (leading space removed)
  size_t i = 0;
  while (i < tags.size()) {
    size_t sp = FindByte(tags, ' ', i);
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
  size_t sp = FindByte(s.substr(0, 9), ' ');
  if (sp == std::string_view::npos || !IsLevel(s.substr(0, sp))) return 0;
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

// DeepSpeed's logger after its time: "[INFO] [server.py:38:__init__] msg". Returns where the
// message starts, or 0.
size_t DeepSpeedLevelAndSource(std::string_view s) {
  if (!At(s, 0, '[')) return 0;  // most lines: SGLang's message follows its time
  const size_t level_end = FindByte(s.substr(0, 12), ']');
  if (level_end == std::string_view::npos || !IsLevel(s.substr(1, level_end - 1)) ||
      !At(s, level_end + 1, ' ') || !At(s, level_end + 2, '[')) {
    return 0;
  }
  const std::string_view source = s.substr(level_end + 2, 160);
  const size_t source_end = FindByte(source, ']');
  if (source_end == std::string_view::npos ||
      source.substr(0, source_end).find(".py:") == source.npos)
    return 0;
  const size_t start = level_end + 2 + source_end + 1;
  return At(s, start, ' ') ? start + 1 : start;
}

// TensorRT-LLM's rank tags, at s[i]: "[RANK 3]" (Python logger, the C++ runtime's iteration
// lines), "[MPI_Rank 1]" (Python logger of 0.x), "[3]" (C++ logger with a rank). On success sets
// *rank, moves i past the tag and one space, and returns true.
bool TrtllmRankTag(std::string_view s, size_t& i, std::string* rank) {
  if (!At(s, i, '[')) return false;
  size_t d = i + 1;
  if (s.substr(d, 5) == "RANK ") {
    d += 5;
  } else if (s.substr(d, 9) == "MPI_Rank ") {
    d += 9;
  }
  size_t e = d;
  while (e < s.size() && e < d + 7 && IsDigit(s[e])) ++e;
  if (e == d || !At(s, e, ']')) return false;
  *rank = "rank" + std::string(s.substr(d, e - d));
  i = At(s, e + 1, ' ') ? e + 2 : e + 1;
  return true;
}

// TensorRT-LLM's Python logger: "[12/20/2025-04:21:37] [TRT-LLM] [I] msg", also without the time
// and with a rank ("[TRT-LLM] [RANK 0] [I] msg", 0.x "[TRT-LLM] [MPI_Rank 1] [I] msg"); and
// TensorRT's own logger beside it ("[12/20/2025-04:21:37] [TRT] [E] msg"). `close` is the first
// ']'. Sets p.message on success.
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
  } else if (inner != "TRT-LLM" && inner != "TRT") {
    return false;
  }
  if (tag != 0) {
    if (s.substr(tag, 10) == "[TRT-LLM] ") {
      tag += 10;
    } else if (s.substr(tag, 6) == "[TRT] ") {
      tag += 6;
    } else {
      return false;
    }
  } else {
    tag = close + 2;
    if (!At(s, close + 1, ' ')) return false;
  }
  // Optional rank, then the one-letter level "[I] ".
  std::string rank;
  const bool ranked = TrtllmRankTag(s, tag, &rank);
  if (!At(s, tag, '[') || !At(s, tag + 2, ']')) return false;
  if (ranked) p.rank = std::move(rank);
  p.level = s.substr(tag + 1, 1);
  if (t.year != 0) p.time = t;
  p.style = PrefixStyle::kTrtllm;
  size_t m = tag + 3;
  if (At(s, m, ' ')) ++m;
  p.message = s.substr(std::min(m, s.size()));
  return true;
}

// The C++ runtime's logger since 2026: "05-01-2026 01:00:00.100000 [TRT-LLM] [I] [0] msg" (local
// time, microseconds, then maybe the rank).
bool ParseTrtllmCppTimed(std::string_view& msg, ParsedLine& p) {
  std::string_view s = msg;
  CivilTime t;
  const size_t j = ParseMonthFirstDateTime(s, '-', t);
  if (j == std::string_view::npos) return false;
  if (s.substr(j, 11) != " [TRT-LLM] " || !At(s, j + 11, '[') || !At(s, j + 13, ']')) return false;
  p.level = s.substr(j + 12, 1);
  size_t m = j + 14;
  if (At(s, m, ' ')) ++m;
  std::string rank;
  if (TrtllmRankTag(s, m, &rank)) p.rank = std::move(rank);
  p.time = t;
  p.style = PrefixStyle::kTrtllm;
  msg = s.substr(std::min(m, s.size()));
  return true;
}

// SGLang's "[2026-03-09 12:01:53(.mmm)?( TAGS)?]", "[12:01:53 TP0]", "[06-17 13:46:56]" at s[0],
// whose bracket closes at `close`.
bool ParseSglangTime(std::string_view& msg, size_t close, ParsedLine& p) {
  std::string_view s = msg;
  std::string_view inner = s.substr(1, close - 1);
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
  if (j == std::string_view::npos) return false;
  j = ParseFraction(inner, j, t);
  std::string rank;
  if (j < inner.size()) {
    if (inner[j] != ' ' || !ParseSglangTags(inner.substr(j + 1), &rank)) return false;
  }
  p.time = t;
  p.rank = std::move(rank);
  p.style = PrefixStyle::kSglang;
  msg = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
  // "[2025-09-15 02:22:37] WARNING quantization.py:1680: msg" is a Python logger's format
  // (TensorRT-LLM's modules use it), not SGLang's: SGLang prints no level or source file.
  if (size_t src = PythonLevelAndSource(msg); src != 0) {
    p.level = msg.substr(0, FindByte(msg, ' '));
    p.style = PrefixStyle::kPython;
    msg = msg.substr(src);
  } else if (size_t start = DeepSpeedLevelAndSource(msg); start != 0) {
    p.level = msg.substr(1, FindByte(msg, ']') - 1);
    p.style = PrefixStyle::kPython;
    msg = msg.substr(start);
  }
  return true;
}

// A bracketed prefix: SGLang's time and tags or "[gpu_id=0]"; TensorRT-LLM's "[TRT-LLM] [I]"
// (Python) or "[TensorRT-LLM][INFO]" (C++).
bool ParseBracketPrefix(std::string_view& msg, ParsedLine& p) {
  std::string_view s = msg;
  size_t close = FindByte(s.substr(0, 97), ']');
  if (close == std::string_view::npos) return false;
  std::string_view inner = s.substr(1, close - 1);
  if (IsDigit(inner.empty() ? ' ' : inner[0]) && ParseSglangTime(msg, close, p)) return true;
  if (inner.size() > 20 && IsDigit(inner[1]) && ParseBracketGlog(msg, close, p)) return true;
  // SGLang's tags with the time cut out of the bracket ("[TP0] ", "[ DP0 TP2 EP0] ").
  const std::string_view tags = inner.substr(At(inner, 0, ' ') ? 1 : 0);
  if (std::string rank; !tags.empty() && IsUpper(tags[0]) && ParseSglangTags(tags, &rank)) {
    p.rank = std::move(rank);
    p.style = PrefixStyle::kSglang;
    msg = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
    return true;
  }
  if (inner.substr(0, 7) == "gpu_id=" && inner.size() > 7 && inner.size() < 12) {
    for (size_t k = 7; k < inner.size(); ++k) {
      if (!IsDigit(inner[k])) return false;
    }
    p.rank = "gpu" + std::string(inner.substr(7));
    p.style = PrefixStyle::kSglang;
    msg = s.substr(At(s, close + 1, ' ') ? close + 2 : close + 1);
    return true;
  }
  // PyTorch's prefix on each line a rank prints (torchrun, vLLM's workers: "[rank0]: " before
  // every line of its traceback): the rank, then its own line, indentation kept.
  if (inner.size() > 4 && inner.size() < 10 && inner.substr(0, 4) == "rank" &&
      At(s, close + 1, ':')) {
    for (size_t k = 4; k < inner.size(); ++k) {
      if (!IsDigit(inner[k])) return false;
    }
    p.rank = std::string(inner);
    msg = s.substr(At(s, close + 2, ' ') ? close + 3 : close + 2);
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
    // A rank after the level: "[TensorRT-LLM][INFO][0] " or "[TensorRT-LLM][INFO] [RANK 0] ".
    std::string rank;
    if (TrtllmRankTag(s, m, &rank)) {
      p.rank = std::move(rank);
    } else if (At(s, m, ' ')) {
      ++m;
      if (TrtllmRankTag(s, m, &rank)) p.rank = std::move(rank);
    }
    msg = s.substr(std::min(m, s.size()));
    return true;
  }
  return false;
}

// The tag's rank name: "Worker_rank1" for vLLM 0.8-0.9's "(VllmWorker rank=1 pid=31)", one name per
// process for the pid-only worker tags, the tag itself otherwise.
std::string VllmTagRank(std::string_view name, std::string_view worker_rank,
                        std::string_view pid_text) {
  // "Worker_rank" and "Worker-" are canonical already and the numbers are digits: CanonicalRank
  // would only cap the name at 64 bytes (a line of vLLM workers reads this on most lines).
  auto numbered = [](std::string_view prefix, std::string_view digits) {
    std::string r;
    r.reserve(prefix.size() + digits.size());
    r.append(prefix).append(digits.substr(0, 64 - prefix.size()));
    return r;
  };
  if (!worker_rank.empty()) return numbered("Worker_rank", worker_rank);
  // (RayWorkerVllm: vLLM 0.2-0.3's name for RayWorkerWrapper.)
  if (name == "Worker" || name == "VllmWorkerProcess" || name == "RayWorkerWrapper" ||
      name == "VllmWorker" || name == "RayWorkerVllm") {
    return numbered("Worker-", pid_text);
  }
  return CanonicalRank(name);
}

// vLLM process tag: "(Worker_TP0 pid=400) ", Ray "(RayWorkerWrapper pid=1, ip=...) ", nested Ray
// data actors, and pastes that lost the opening parenthesis. The tag sits at the start and its name
// has no spaces, so " pid=" can only be at the first space: looking only there keeps every other
// line cheap.
bool ParseVllmProcessTag(std::string_view& msg, size_t first_space, ParsedLine& p) {
  std::string_view s = msg;
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
  // vLLM 0.10: "(VllmWorker TP1 pid=31) ", "(VllmWorker DP0 TP1 pid=31) ": the parallel ranks
  // between the name and the pid are the rank.
  size_t ranks_at = std::string_view::npos;
  for (int w = 0; w < 3 && worker_rank.empty() && pid != std::string_view::npos; ++w) {
    size_t k = pid + 1, letters = 0, digits = 0;
    while (k < s.size() && letters < 4 && IsUpper(s[k])) ++k, ++letters;
    while (k < s.size() && digits < 4 && IsDigit(s[k])) ++k, ++digits;
    if (letters == 0 || digits == 0 || !At(s, k, ' ')) break;
    if (ranks_at == std::string_view::npos) ranks_at = pid + 1;
    pid = k;
  }
  if (pid == std::string_view::npos || s.substr(pid, 5) != " pid=") return false;
  size_t close = FindByte(s.substr(0, pid + 64), ')', pid);
  if (close == std::string_view::npos || pid + 5 >= s.size() || !IsDigit(s[pid + 5])) {
    return false;
  }
  size_t start = s[0] == '(' ? 1 : 0;
  std::string_view name = s.substr(start, first_space - start);
  // Nested Ray actor names carry parentheses; keep only the last identifier.
  size_t open = name.rfind('(');
  if (open != std::string_view::npos) name = name.substr(open + 1);
  if (name.empty()) return false;
  size_t pid_end = pid + 5;
  while (pid_end < s.size() && IsDigit(s[pid_end])) ++pid_end;
  p.remote_node = s.substr(pid_end, 5) == ", ip=";
  p.rank = ranks_at != std::string_view::npos
               ? CanonicalRank(s.substr(ranks_at, pid - ranks_at))
               : VllmTagRank(name, worker_rank, s.substr(pid + 5, pid_end - pid - 5));
  p.style = PrefixStyle::kVllm;
  size_t m = close + 1;
  if (At(s, m, ' ')) ++m;
  msg = s.substr(m);
  return true;
}

// Where vLLM's source location at s[j] ("[file.py:12] ", old "file.py:12] ") closes: the first
// "] " within 160 bytes, with no space before it and ".py:" inside; npos when there is none. One
// pass (finds for "] ", then ".py:" and ' ' in what it closes, cost three on most vLLM lines).
size_t VllmLocationEnd(std::string_view s, size_t j) {
  const std::string_view head = s.substr(0, std::min(s.size(), j + 160));
  size_t k = j;
  for (;; ++k) {
    k = scan::FindEither(head, ']', ' ', k);
    if (k == std::string_view::npos || head[k] == ' ') return std::string_view::npos;
    if (At(s, k + 1, ' ')) break;
  }
  const std::string_view loc = s.substr(j, k - j);
  for (size_t d = FindByte(loc, '.'); d != std::string_view::npos; d = FindByte(loc, '.', d + 1)) {
    if (loc.substr(d, 4) == ".py:") return k;
  }
  return std::string_view::npos;
}

// vLLM's level and source location with the time cut out ("INFO [file.py:12] msg", old "INFO
// api.py:206] msg"): a paste trimmed for width, or a logging config without the time. The
// location, ".py:" inside, tells it from a sentence that starts with a level word.
bool ParseVllmLevelOnly(std::string_view& msg, size_t sp, ParsedLine& p) {
  const std::string_view s = msg;
  const size_t close = VllmLocationEnd(s, sp + 1);
  if (close == std::string_view::npos) return false;
  p.level = s.substr(0, sp);
  p.style = PrefixStyle::kVllm;
  msg = s.substr(std::min(close + 2, s.size()));
  return true;
}

// A level before a full date, as Ray Serve prints ("INFO 2025-07-01 10:02:01,204 controller 377 --
// msg") and Python's logging with "%(levelname)s %(asctime)s": any program's, so no engine's style.
bool ParseLevelIsoDate(std::string_view& msg, size_t sp, ParsedLine& p) {
  const std::string_view s = msg;
  CivilTime t;
  size_t j = scan::ParseDateTime(s, sp + 1, ' ', t);
  if (j == std::string_view::npos) return false;
  j = scan::ParseFraction(s, j, t);
  if (!At(s, j, ' ')) return false;
  p.level = s.substr(0, sp);
  p.time = t;
  p.style = PrefixStyle::kPython;
  msg = s.substr(j + 1);
  // NVIDIA NIM's "INFO 2024-10-02 19:55:31.004 ngc_injector.py:245] msg": vLLM's source location.
  if (const size_t close = VllmLocationEnd(msg, 0); close != std::string_view::npos) {
    msg.remove_prefix(std::min(close + 2, msg.size()));
    return true;
  }
  // Ray's "<component> <pid> -- ": where it logs from, not what it says.
  if (const size_t dash = msg.substr(0, 64).find(" -- "); dash != std::string_view::npos) {
    const size_t pid = msg.rfind(' ', dash - 1);
    if (pid != std::string_view::npos && pid + 1 < dash &&
        msg.substr(0, pid).find(' ') == std::string_view::npos &&
        std::all_of(msg.begin() + pid + 1, msg.begin() + dash, scan::IsDigit)) {
      msg.remove_prefix(dash + 4);
    }
  }
  return true;
}

// vLLM level + date: "INFO 08-29 04:16:14 [file.py:12] " or old "INFO 07-12 19:04:13 api.py:206] ".
// A level word is at most 8 bytes, so it ends at the first space.
bool ParseVllmLevelDate(std::string_view& msg, size_t sp, ParsedLine& p) {
  std::string_view s = msg;
  if (sp == std::string_view::npos || sp > 8 || !IsLevel(s.substr(0, sp))) return false;
  CivilTime t;
  int mo = Digits(s, sp + 1, 2), d = Digits(s, sp + 4, 2);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || !At(s, sp + 3, '-') || !At(s, sp + 6, ' ')) {
    return (At(s, sp + 5, '-') && ParseLevelIsoDate(msg, sp, p)) || ParseVllmLevelOnly(msg, sp, p);
  }
  t.month = mo;
  t.day = d;
  size_t j = ParseClock(s, sp + 7, t);
  if (j == std::string_view::npos) return false;
  j = ParseFraction(s, j, t);
  p.level = s.substr(0, sp);
  p.time = t;
  p.style = PrefixStyle::kVllm;
  if (At(s, j, ' ')) ++j;
  if (const size_t close = VllmLocationEnd(s, j); close != std::string_view::npos) j = close + 2;
  msg = s.substr(std::min(j, s.size()));
  return true;
}

// TGI's level and tracing target with the time cut out ("INFO text_generation_launcher: msg",
// "WARN shard-manager: text_generation_launcher: msg"): the crate name within the first bytes
// after the level tells it from a sentence that starts with a level word.
bool ParseTgiLevelOnly(std::string_view& msg, size_t sp, ParsedLine& p) {
  std::string_view s = msg;
  // tracing pads the level to five columns (" INFO"): a paste with the time cut keeps the pad.
  if (sp == 0 && s.size() > 1 && s[1] >= 'A' && s[1] <= 'Z') {
    s.remove_prefix(1);
    sp = FindByte(s.substr(0, 128), ' ');
  }
  if (sp == std::string_view::npos || sp > 8 || !IsLevel(s.substr(0, sp))) return false;
  // The crate follows the level within a span's name or two: only those bytes are searched.
  constexpr std::string_view kCrate = "text_generation_";
  const size_t crate = s.substr(0, sp + 1 + 160 + kCrate.size()).find(kCrate, sp + 1);
  if ((crate == std::string_view::npos || s.find(": ", crate) == s.npos) &&
      !StartsWithTgiSpan(s.substr(sp + 1))) {
    return false;
  }
  p.level = s.substr(0, sp);
  p.style = PrefixStyle::kTgi;
  p.client_request = IsTgiRequestSpan(s.substr(sp + 1));
  msg = StripTgiTarget(s, sp + 1);
  if (p.rank.empty()) p.rank = TgiSpanRank(msg);
  return true;
}

}  // namespace

// vLLM colours its process tag ("\x1b[1;36m(Worker_TP0 pid=4)\x1b[0;0m INFO ..."); a paste that
// lost the ESC bytes keeps "[1;36m", or shows them as "^[[1;36m". Neither is part of the line.
void StripColourRemnant(std::string_view& s) {
  size_t i = 0;
  if (s.size() > 4 && s[0] == '^' && s[1] == '[' && s[2] == '[') {
    i = 3;
  } else if (s.size() > 2 && s[0] == '[' && IsDigit(s[1])) {
    i = 1;
  } else {
    return;
  }
  size_t j = i;
  while (j < s.size() && j < i + 12 && (IsDigit(s[j]) || s[j] == ';')) ++j;
  if (j == i || j >= s.size() || s[j] != 'm') return;
  s.remove_prefix(j + 1);
  if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
}

bool ParseEnginePrefix(std::string_view& msg, ParsedLine& p) {
  if (!msg.empty() && (msg[0] == '[' || msg[0] == '^')) StripColourRemnant(msg);
  if (msg.empty()) return false;
  if (msg[0] == '[') return ParseBracketPrefix(msg, p);
  // glog's level letter and date ("I0501 ..."), TensorRT-LLM's C++ date ("05-01-2026 ..."): both
  // are told by two bytes before any parse.
  if (msg.size() > 20) {
    const char c = msg[0];
    if ((c == 'I' || c == 'W' || c == 'E' || c == 'F') &&
        (IsDigit(msg[1]) ? ParseGlog(msg, p) : msg[1] == ' ' && ParseGlogIsoTail(msg, p))) {
      return true;
    }
    if (IsDigit(c) && msg[2] == '-' && ParseTrtllmCppTimed(msg, p)) return true;
  }
  // The first space within 128 bytes (npos when none): where a process tag's " pid=" or the end
  // of a level word must be.
  const size_t first_space = FindByte(msg.substr(0, 128), ' ');
  if (ParseVllmProcessTag(msg, first_space, p) || ParseVllmLevelDate(msg, first_space, p)) {
    return true;
  }
  return ParsePythonLogging(msg, p) || ParseTgiLevelOnly(msg, first_space, p);
}

size_t SgrRemnantAt(std::string_view s, size_t i) {
  size_t j = i;
  if (s.substr(i, 3) == "^[[") {
    j += 3;
  } else if (At(s, i, '[')) {
    j += 1;
  } else {
    return 0;
  }
  const size_t params = j;
  while (j < s.size() && j < params + 12 && (IsDigit(s[j]) || s[j] == ';')) ++j;
  if (j == params || !At(s, j, 'm')) return 0;
  return j + 1 - i;
}

namespace {

// Whether line[k] ('[') follows an ESC: the byte, or JSON's escape of it ("\\u001b", Docker's
// json-file lines), which the JSON reader decodes into the byte later.
bool AfterEsc(std::string_view line, size_t k) {
  if (k > 0 && line[k - 1] == '\x1b') return true;
  return k >= 6 && (line.substr(k - 6, 6) == "\\u001b" || line.substr(k - 6, 6) == "\\u001B");
}

// Where the first colour remnant within the first `limit` bytes starts, npos when none.
size_t FirstSgrRemnant(std::string_view line, size_t limit) {
  const std::string_view head = line.substr(0, limit);
  // Inline searches (a memchr call each cost more over these few bytes, on most lines).
  for (size_t k = FindByte(head, '['); k != std::string_view::npos;
       k = FindByte(head, '[', k + 1)) {
    if (AfterEsc(line, k)) continue;  // a real escape sequence
    // What follows tells first: a remnant's parameters, or caret notation's second '['.
    const char next = k + 1 < line.size() ? line[k + 1] : '\0';
    if (next == '[' && k > 0 && line[k - 1] == '^' && SgrRemnantAt(line, k - 1) != 0) return k - 1;
    if ((IsDigit(next) || next == ';') && SgrRemnantAt(line, k) != 0) {
      return k >= 4 && line.substr(k - 4, 4) == "#033" ? k - 4 : k;
    }
  }
  return std::string_view::npos;
}

}  // namespace

bool StripSgrRemnants(std::string_view line, std::string* out) {
  // A wrapper's prefix ("tgi-1  | ", a pod's name) may come before the first one.
  constexpr size_t kLookahead = 48;
  const size_t first = FirstSgrRemnant(line, kLookahead);
  if (first == std::string_view::npos) return false;
  out->assign(line.substr(0, first));
  size_t i = first;
  while (i < line.size()) {
    size_t k = line.find('[', i);
    if (k == std::string_view::npos) k = line.size();
    // caret notation "^[[0m" starts one byte before its '['; syslog's octal escape of ESC
    // ("#033[0m", rsyslog and CloudWatch exports of a TGI container) four bytes before
    const bool octal = k < line.size() && k >= i + 4 && line.substr(k - 4, 4) == "#033";
    size_t start = k < line.size() && k > i && line[k - 1] == '^' ? k - 1 : k;
    out->append(line.substr(i, (octal ? k - 4 : start) - i));
    if (k == line.size()) break;
    // A whole escape sequence ("\x1b[0m") is CleanLine's to remove.
    const size_t len = AfterEsc(line, start) ? 0 : SgrRemnantAt(line, start);
    if (len == 0) {
      if (octal) out->append("#033");
      out->append(line.substr(start, k + 1 - start));
      i = k + 1;
    } else {
      i = start + len;
    }
  }
  return true;
}

std::string CanonicalRank(std::string_view tag) {
  // ':' stays: Ray names a replica "ServeReplica:app:deployment".
  // Built in a local buffer and copied once: a push_back per byte cost more than the rest of
  // the prefix parse (a rank is read on most lines of a multi-GPU log).
  char out[64];
  size_t n = 0;
  for (char c : tag) {
    if (n >= sizeof out) break;
    if (c == ' ') {
      if (n != 0 && out[n - 1] != '_') out[n++] = '_';
    } else if (IsAlnum(c) || c == '_' || c == '-' || c == '.' || c == ':') {
      out[n++] = c;
    }
  }
  while (n != 0 && out[n - 1] == '_') --n;
  return std::string(out, n);
}

size_t ParseMonthFirstDateTime(std::string_view s, char sep, CivilTime& t) {
  const int mo = Digits(s, 0, 2), d = Digits(s, 3, 2), y = Digits(s, 6, 4);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970 || !At(s, 2, sep) || !At(s, 5, sep) ||
      !At(s, 10, ' ')) {
    return std::string_view::npos;
  }
  CivilTime tt;
  tt.year = y;
  tt.month = mo;
  tt.day = d;
  const size_t j = ParseClock(s, 11, tt);
  if (j == std::string_view::npos) return j;
  t = tt;
  return ParseFraction(s, j, t);
}

}  // namespace spinup
