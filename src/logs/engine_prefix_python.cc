// Python logging's prefixes (engine_prefix.h), and an engine's own prefix inside them.
#include <algorithm>
#include <string_view>

#include "logs/engine_prefix.h"
#include "logs/text_scan.h"

namespace spinup {

using scan::IsDigit;
using scan::IsLevel;
using scan::ParseDateTime;
using scan::ParseFraction;

namespace {

// An application's logger relaying the engine's own lines ("... - app.proc - INFO - [sglang]
// [2025-08-12 09:13:58 TP0] Load weight begin."), perhaps behind a tag naming the stream: the
// engine's prefix says more (its rank, its level, its time).
void ReadRelayedPrefix(std::string_view& msg, ParsedLine& p) {
  std::string_view inner = msg;
  const size_t tag_end = inner.size() > 4 && inner[0] == '[' ? inner.find("] ", 1) : inner.npos;
  if (tag_end != inner.npos && tag_end <= 24 && inner.size() > tag_end + 2) {
    const std::string_view tag = inner.substr(1, tag_end - 1);
    if (std::all_of(tag.begin(), tag.end(), [](char c) {
          return IsDigit(c) || (c >= 'a' && c <= 'z') || c == '_' || c == '-';
        })) {
      inner.remove_prefix(tag_end + 2);
    }
  }
  // An engine's prefix starts with its bracket, a process tag or a level word.
  if (inner.empty() ||
      !(inner[0] == '[' || inner[0] == '(' || (inner[0] >= 'A' && inner[0] <= 'Z')))
    return;
  ParsedLine engine;
  if (!ParseEnginePrefix(inner, engine) || engine.style == PrefixStyle::kPython) return;
  if (engine.time) p.time = engine.time;
  if (!engine.level.empty()) p.level = engine.level;
  if (!engine.rank.empty()) p.rank = std::move(engine.rank);
  p.style = engine.style;
  msg = inner;
}

// supervisord's own level words ("2025-08-20 10:01:00,100 WARN exited: vllm (...)").
bool IsSupervisorLevel(std::string_view w) {
  return w == "CRIT" || w == "ERRO" || w == "DEBG" || w == "TRAC" || w == "BLAT";
}

}  // namespace

// Python logging's default: "2025-03-03 18:46:45,039 - INFO - name: msg", or with the logger's name
// first ("2025-03-03 18:46:45,039 - app.proc - INFO - msg"); also the plain
// "%(asctime)s %(levelname)s %(message)s" shape, which supervisord prints too.
bool ParsePythonLogging(std::string_view& msg, ParsedLine& p) {
  std::string_view s = msg;
  if (s.size() <= 20 || !IsDigit(s[0])) return false;
  CivilTime t;
  size_t j = ParseDateTime(s, 0, ' ', t);
  if (j == std::string_view::npos) return false;
  j = ParseFraction(s, j, t);
  if (j < s.size() && s[j] == ' ') {
    const size_t word_end = s.find(' ', j + 1);
    if (word_end != std::string_view::npos && word_end - j <= 9) {
      std::string_view word = s.substr(j + 1, word_end - j - 1);
      if (IsLevel(word) || IsSupervisorLevel(word)) {
        p.level = word;
        p.time = t;
        p.style = PrefixStyle::kPython;
        msg = s.substr(word_end + 1);
        return true;
      }
    }
  }
  if (s.substr(j, 3) != " - ") return false;
  size_t lvl_end = s.find(" - ", j + 3);
  if (lvl_end == std::string_view::npos || lvl_end - j >= 40) return false;
  p.level = s.substr(j + 3, lvl_end - j - 3);
  // "%(asctime)s - %(name)s - %(levelname)s - %(message)s", as common: the logger's name first.
  if (!IsLevel(p.level)) {
    const size_t name_end = lvl_end;
    lvl_end = s.find(" - ", name_end + 3);
    if (lvl_end != std::string_view::npos && lvl_end - name_end <= 12 &&
        IsLevel(s.substr(name_end + 3, lvl_end - name_end - 3))) {
      p.level = s.substr(name_end + 3, lvl_end - name_end - 3);
    } else {
      lvl_end = name_end;
    }
  }
  p.time = t;
  p.style = PrefixStyle::kPython;
  msg = s.substr(lvl_end + 3);
  ReadRelayedPrefix(msg, p);
  return true;
}

}  // namespace spinup
