#include "logs/prose.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace spinup {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsLetter(char c) { return IsUpper(c) || IsLower(c); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Words a person's sentence about the log opens with and no program's message does: the first
// person, a greeting. (A program's own prose, OpenMPI's "It looks like MPI_INIT failed ...",
// opens with "It", "This", "Please": those are not here.)
constexpr std::array<std::string_view, 13> kOpeners = {"I",       "I'm",   "I've",  "I'd", "I'll",
                                                       "We",      "We're", "We've", "My",  "Our",
                                                       "Earlier", "Hi",    "Hello"};

// Words a reporter opens a line about a symptom with ("Getting NCCL error, log:", "Got a NCCL
// error"). A program's "Got fatal signal from worker processes" has no article after "Got".
constexpr std::array<std::string_view, 6> kSymptomOpeners = {
    "Getting", "Seeing", "Hitting", "Facing", "Encountered", "Encountering"};
constexpr std::array<std::string_view, 5> kArticles = {"a", "an", "the", "this", "same"};

// Counts up to `enough`: the callers ask "at least N words", and bare lines run long.
size_t CountWords(std::string_view s, size_t enough = 4) {
  size_t words = 0;
  bool in_word = false;
  for (char c : s) {
    const bool blank = c == ' ' || c == '\t';
    if (!blank && !in_word && ++words == enough) return words;
    in_word = !blank;
  }
  return words;
}

// A first-person "I" as a word of its own ("With --port 8000 I get ..."), or "I'm"/"I've". Looks
// for the rare capital first: this runs on every bare line that opens with a capital.
bool HasFirstPersonI(std::string_view s) {
  const char* const begin = s.data();
  const char* const end = begin + s.size();
  for (const char* at = begin + 1; at < end;) {
    const void* found = std::memchr(at, 'I', static_cast<size_t>(end - at));
    if (found == nullptr) return false;
    const char* i = static_cast<const char*>(found);
    const char* after = i + 1;
    if (i[-1] == ' ' && (after == end || *after == ' ' || *after == '\'' || *after == ',')) {
      return true;
    }
    at = after;
  }
  return false;
}

bool MarkdownHeading(std::string_view s) {
  size_t hashes = 0;
  while (hashes < s.size() && hashes < 7 && s[hashes] == '#') ++hashes;
  if (hashes == 0 || hashes > 6 || hashes + 1 >= s.size() || s[hashes] != ' ') return false;
  const char next = s[hashes + 1];
  return IsLetter(next) || static_cast<unsigned char>(next) >= 0x80;  // a word or an emoji
}

// "(the docs say ...)", "(20 minutes later, still no ...)": a remark in brackets. Ray's tags
// open with a name and "pid=" or "ip=", or close at once ("(raylet) ", "(raylet, ip=10.0.0.2) ",
// "(RayWorkerWrapper pid=1) ").
bool Aside(std::string_view s) {
  if (s.size() < 3 || !(IsLower(s[1]) || (s[1] >= '0' && s[1] <= '9'))) return false;
  size_t end = 1;
  while (end < s.size() && s[end] != ' ' && s[end] != ')' && s[end] != '=') ++end;
  if (end == s.size() || s[end] != ' ' || s.substr(end - 1, 5) == ", ip=") return false;
  return CountWords(s) >= 4 && s.find("pid=") == std::string_view::npos;
}

// "Error: `RuntimeError: Engine core initialization failed.`": markdown's inline code around an
// exception's name. Programs put flags and identifiers in backticks, never an exception's name.
bool QuotesAnException(std::string_view s) {
  for (size_t i = s.find('`'); i != std::string_view::npos; i = s.find('`', i + 1)) {
    size_t j = i + 1;
    while (j < s.size() &&
           (IsLetter(s[j]) || (s[j] >= '0' && s[j] <= '9') || s[j] == '_' || s[j] == '.')) {
      ++j;
    }
    if (j >= s.size() || (s[j] != ':' && s[j] != '`')) continue;
    const std::string_view word = s.substr(i + 1, j - i - 1);
    if (word.ends_with("Error") || word.ends_with("Exception")) return true;
  }
  return false;
}

// Where " \"" first occurs in s at or after `from`: found by its quote (a byte few lines hold),
// not by its space (a search per word).
size_t FindSpaceQuote(std::string_view s, size_t from) {
  for (size_t q = s.find('"', from + 1); q != std::string_view::npos; q = s.find('"', q + 1)) {
    if (s[q - 1] == ' ') return q - 1;
  }
  return std::string_view::npos;
}

// A sentence's double-quoted error ("still \"CUDA error: out of memory\". Pod has ..."): the quote
// opens after a space and closes before a space or punctuation, and names an error.
bool QuotesAnErrorInDoubleQuotes(std::string_view s) {
  size_t open = FindSpaceQuote(s, 0);
  while (open != std::string_view::npos) {
    const size_t from = open + 2;
    const size_t close = s.find('"', from);
    if (close == std::string_view::npos) return false;
    const std::string_view quoted = s.substr(from, close - from);
    const bool ends = close + 1 == s.size() ||
                      std::string_view(" .,;:)?!").find(s[close + 1]) != std::string_view::npos;
    if (ends && quoted.size() >= 8 && quoted.size() <= 200 &&
        (quoted.find("rror") != quoted.npos || quoted.find("xception") != quoted.npos ||
         quoted.find("out of memory") != quoted.npos)) {
      return true;
    }
    open = FindSpaceQuote(s, close + 1);
  }
  return false;
}

bool IsLowerWord(std::string_view w) {
  while (!w.empty() && (w.back() == ',' || w.back() == '.')) w.remove_suffix(1);
  return !w.empty() &&
         std::all_of(w.begin(), w.end(), [](char c) { return IsLower(c) || c == '\''; });
}

// The words of `s` (up to `most`) and how many of them are lowercase.
std::pair<size_t, size_t> CountLowerWords(std::string_view s, size_t most) {
  size_t words = 0, lower = 0;
  for (size_t i = 0; i < s.size() && words < most;) {
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t from = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i == from) break;
    ++words;
    lower += IsLowerWord(s.substr(from, i - from)) ? 1 : 0;
  }
  return {words, lower};
}

// "prefill node for comparison reached `The server is fired up and ready to roll!` at 11:23:40.":
// a sentence in lower case around a quote in backticks (markdown's code), which no program's
// bare line is. Five words or more outside the quotes, four of them lowercase, and none of a
// record's punctuation there (Rust's "called `Result::unwrap()` on an `Err` value: Os { code: 98,
// ... }" is a program's panic).
bool SentenceQuotingCode(std::string_view s) {
  size_t words = 0, lower = 0, quotes = 0;
  size_t at = 0;
  while (at < s.size()) {
    const size_t open = s.find('`', at);
    const std::string_view outside =
        s.substr(at, open == std::string_view::npos ? s.npos : open - at);
    if (outside.find_first_of("{}[]=|<>") != std::string_view::npos ||
        outside.find("::") != std::string_view::npos) {
      return false;
    }
    const auto [w, l] = CountLowerWords(outside, SIZE_MAX);
    words += w;
    lower += l;
    if (open == std::string_view::npos) break;
    const size_t close = s.find('`', open + 1);
    if (close == std::string_view::npos) return false;  // not a closed quote
    ++quotes;
    at = close + 1;
  }
  return quotes > 0 && words >= 5 && lower >= 4;
}

// "Not a CUDA out of memory issue this time, the GPU is empty:": a person's sentence introducing
// what follows, with several lowercase words and a closing colon. A program's lines that end so
// are a traceback's joints ("During handling of the above exception ...:", "Current thread 0x...
// (most recent call first):") or announce an exception ("...Error:", "Retrying. Error:").
bool IntroducesWhatFollows(std::string_view s) {
  if (s.size() < 16 || s.back() != ':') return false;
  for (std::string_view word : {"xception", "most recent call"}) {
    if (s.find(word) != std::string_view::npos) return false;
  }
  if (s.ends_with("Error:") || s.ends_with("error:")) return false;
  // An exception whose message introduces its details ("RuntimeError: Version mismatch: The cluster
  // was started with:", then Ray's versions).
  const std::string_view first = s.substr(0, s.find(' '));
  if (first.ends_with("Error:") || first.ends_with("Exception:")) return false;
  const auto [words, lower] = CountLowerWords(s, SIZE_MAX);
  return words >= 5 && lower >= 3;
}

// An issue's title, as GitHub's issue templates prefix it ("[Bug]: NCCL error ...").
// An exception's name as a report's title, the writer's own sentence after it ("RuntimeError: Not
// enough memory when serving Llama-3.3-70B on 2x A100. I set --mem-fraction-static 0.6 because
// ..."): an engine's message does not go on in the first person after a full stop.
bool ExceptionTitleThenSentence(std::string_view s) {
  for (size_t stop = s.find(". "); stop != std::string_view::npos; stop = s.find(". ", stop + 2)) {
    std::string_view next = s.substr(stop + 2);
    next = next.substr(0, next.find(' '));
    if (std::find(kOpeners.begin(), kOpeners.end(), next) != kOpeners.end() &&
        CountWords(s.substr(stop + 2), 4) >= 4) {
      return true;
    }
  }
  return false;
}

bool IssueTitle(std::string_view s) {
  for (std::string_view tag : {"[Bug]", "[BUG]", "[Usage]", "[Installation]", "[Performance]",
                               "[Feature]", "[Misc]", "[Doc]", "[RFC]"}) {
    if (s.starts_with(tag)) return true;
  }
  return false;
}

// A sentence that opens with the model's size or the GPUs' count ("405B FP8 on 8xH100 hangs
// during CUDA graph capture, every time."): a person's, not an engine's line (those open with a
// stamp, a name or a level). Six words or more, and none of a record's '=', '|' or ':'.
bool SizeOpensASentence(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && i < 5 && IsDigit(s[i])) ++i;
  if (i == 0 || i >= s.size()) return false;
  const char unit = s[i];
  if (unit != 'B' && unit != 'b' && unit != 'x') return false;
  size_t j = i + 1;
  while (j < s.size() && (IsLetter(s[j]) || IsDigit(s[j]))) ++j;
  if (j >= s.size() || s[j] != ' ' || (unit != 'x' && j != i + 1)) return false;
  const std::string_view head = s.substr(0, 160);
  return CountWords(s, 6) >= 6 && head.find_first_of("=|:") == std::string_view::npos;
}

// A number and a blank, then a lower-case word ("135 bytes each"): no stamp, level or code.
bool NumberThenWord(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && i < 8 && IsDigit(s[i])) ++i;
  return i > 0 && i + 1 < s.size() && s[i] == ' ' && IsLower(s[i + 1]);
}

// An incident timeline's note: "14:02 restarted pod llm-70b after node drain" (a time of day to the
// minute, then lowercase words). Programs stamp to the second and print a level or a capital.
bool TimelineNote(std::string_view s) {
  if (s.size() < 12 || !IsDigit(s[0]) || !IsDigit(s[1]) || s[2] != ':' || !IsDigit(s[3]) ||
      !IsDigit(s[4]) || s[5] != ' ' || !IsLower(s[6])) {
    return false;
  }
  const auto [words, lower] = CountLowerWords(s.substr(6), 8);
  return words >= 3 && lower * 2 >= words;
}

// "Getting NCCL error, log:", "Got a NCCL error": `first` is the line's first word, `rest` what
// follows it.
bool ReportsASymptom(std::string_view first, std::string_view rest) {
  // The opener first: this runs on every bare line that opens with a capital.
  const bool opener =
      std::find(kSymptomOpeners.begin(), kSymptomOpeners.end(), first) != kSymptomOpeners.end();
  if ((!opener && first != "Got") || rest.empty() || rest.front() != ' ' || CountWords(rest) < 2) {
    return false;
  }
  if (opener) return true;
  rest.remove_prefix(1);
  const std::string_view next = rest.substr(0, rest.find(' '));
  return std::find(kArticles.begin(), kArticles.end(), next) != kArticles.end();
}

}  // namespace

bool IsMarkdownFence(std::string_view line) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
  if (!line.starts_with("```") && !line.starts_with("~~~")) return false;
  const std::string_view info = line.substr(3);  // a language: "text", "bash", "python"
  return std::all_of(info.begin(), info.end(),
                     [](char c) { return IsLetter(c) || (c >= '0' && c <= '9') || c == '-'; });
}

bool NamesAnException(std::string_view line) {
  if (line.starts_with('[')) {  // the rank PushError put before it
    const size_t close = line.find("] ");
    if (close != std::string_view::npos) line.remove_prefix(close + 2);
  }
  const size_t colon = line.find(": ");
  if (colon == 0 || colon == std::string_view::npos || colon > 120) return false;
  return std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
  });
}

// Characters of Chinese, Japanese or Korean text (UTF-8 lead bytes 0xE3-0xED: kana, CJK
// ideographs, Hangul), counted up to `enough`.
size_t CjkCharacters(std::string_view line, size_t enough) {
  size_t n = 0;
  for (size_t i = 0; i + 2 < line.size() && n < enough; ++i) {
    const auto lead = static_cast<unsigned char>(line[i]);
    if (lead >= 0xE3 && lead <= 0xED && (static_cast<unsigned char>(line[i + 1]) & 0xC0) == 0x80) {
      ++n;
      i += 2;
    }
  }
  return n;
}

// Whether any byte is outside ASCII, eight at a time (most lines are ASCII).
bool HasHighByte(std::string_view line) {
  size_t i = 0;
  for (; i + 8 <= line.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, line.data() + i, 8);
    if ((w & 0x8080808080808080ULL) != 0) return true;
  }
  for (; i < line.size(); ++i) {
    if (static_cast<unsigned char>(line[i]) >= 0x80) return true;
  }
  return false;
}

// A shell's report of how its child died, in a Chinese or Japanese locale ("已杀死", "非法指令
// (核心已转储)", "セグメンテーション違反 (コアダンプ)"): the shell's line, not a person's.
bool ShellSignalReport(std::string_view line) {
  if (line.size() > 80) return false;
  static constexpr std::string_view kReports[] = {
      "\xE5\xB7\xB2\xE6\x9D\x80\xE6\xAD\xBB",              // 已杀死
      "\xE6\xAE\xB5\xE9\x94\x99\xE8\xAF\xAF",              // 段错误
      "\xE9\x9D\x9E\xE6\xB3\x95\xE6\x8C\x87\xE4\xBB\xA4",  // 非法指令
      "\xE5\xBC\xB7\xE5\x88\xB6\xE7\xB5\x82\xE4\xBA\x86",  // 強制終了
      "\xE3\x82\xBB\xE3\x82\xB0\xE3\x83\xA1\xE3\x83\xB3\xE3\x83\x86\xE3\x83\xBC\xE3\x82\xB7\xE3\x83"
      "\xA7\xE3\x83\xB3\xE9\x81\x95\xE5\x8F\x8D",  // セグメンテーション違反
      "\xE4\xB8\x8D\xE6\xAD\xA3\xE3\x81\xAA\xE5\x91\xBD\xE4\xBB\xA4",  // 不正な命令
      "\xEC\xA3\xBD\xEC\x97\x88\xEC\x9D\x8C",                          // 죽었음
      "\xEC\x84\xB8\xEA\xB7\xB8\xEB\xA9\x98\xED\x85\x8C\xEC\x9D\xB4\xEC\x85\x98",  // 세그멘테이션
      "\xEC\x9E\x98\xEB\xAA\xBB\xEB\x90\x9C"};                                     // 잘못된
  // The word alone, or before its parenthesis ("(核心已转储)") or the command the shell names.
  return std::any_of(std::begin(kReports), std::end(kReports), [&](std::string_view r) {
    return line.starts_with(r) && (line.size() == r.size() || line[r.size()] == ' ');
  });
}

bool GoesOnANote(std::string_view text) {
  if (text.empty() || text.size() > 400) return false;
  if (LooksLikeProse(text)) return true;
  return IsLetter(text.front()) && CountWords(text, 5) >= 5 && !text.starts_with("File ") &&
         text.find("\", line ") == std::string_view::npos &&
         text.find(".py:") == std::string_view::npos;
}

bool LooksLikeProse(std::string_view line) {
  if (line.empty()) return false;
  // The engines print English: a sentence in Chinese, Japanese or Korean is the person's (a path
  // with a directory or two in those scripts is not a sentence).
  if (static_cast<unsigned char>(line.front()) >= 0x80) {
    return CjkCharacters(line.substr(0, 3), 1) == 1 && !ShellSignalReport(line);
  }
  if (HasHighByte(line) && CjkCharacters(line, 4) >= 4) return true;
  if (line.front() == '#') return MarkdownHeading(line);
  if (line.front() == '(') return Aside(line);
  if (line.front() == '`') return QuotesAnException(line);
  if (line.front() == '[') return IssueTitle(line);
  if (IsDigit(line.front())) {
    // "135 bytes each. the ansible role did `git clone` ...": a count, then the writer's words.
    return SizeOpensASentence(line) || TimelineNote(line) ||
           (line.find('`') != std::string_view::npos && NumberThenWord(line) &&
            SentenceQuotingCode(line));
  }
  if (IsLower(line.front())) {
    return line.find('`') != std::string_view::npos && SentenceQuotingCode(line);
  }
  if (!IsUpper(line.front())) return false;
  if (IntroducesWhatFollows(line)) return true;
  size_t end = 0;
  while (end < line.size() && (IsLetter(line[end]) || line[end] == '\'')) ++end;
  if (end < line.size() && line[end] != ' ' && line[end] != ',') {  // "Error:", "I0501"
    // A later note of the writer's ("Update: adding --shm-size 1g fixed it, ..."): its words.
    static constexpr std::array<std::string_view, 10> kNoteLabels = {
        "Update", "UPDATE", "Upd", "UPD", "Edit", "EDIT", "Solved", "SOLVED", "Workaround", "PS"};
    if (line[end] == ':' && CountWords(line.substr(end + 1), 4) >= 4 &&
        std::find(kNoteLabels.begin(), kNoteLabels.end(), line.substr(0, end)) != kNoteLabels.end())
      return true;
    if (line[end] != ':') return false;
    return (line.find('`') != std::string_view::npos && QuotesAnException(line)) ||
           (NamesAnException(line) && ExceptionTitleThenSentence(line.substr(end + 1)));
  }
  const std::string_view first = line.substr(0, end);
  const bool opens = std::find(kOpeners.begin(), kOpeners.end(), first) != kOpeners.end();
  if (ReportsASymptom(first, line.substr(end))) return true;
  // A short label with an "I" in it ("Error I get:") is a person's too.
  const size_t words = CountWords(line);
  // A question of six words or more ("TGI 2.2.0, 4x A100. Logs are full of NCCL WARN, is it safe
  // to put traffic on it?") is asked of the reader; an engine's prompts end in "[y/N]".
  if (line.back() == '?' && CountWords(line, 6) >= 6) return true;
  return (opens && words >= 4) || (words >= 3 && HasFirstPersonI(line)) ||
         (line.find('`') != std::string_view::npos && QuotesAnException(line)) ||
         (words >= 4 && QuotesAnErrorInDoubleQuotes(line));
}

}  // namespace spinup
