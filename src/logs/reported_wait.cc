#include "logs/reported_wait.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "base/duration.h"
#include "logs/text_find.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

constexpr size_t kMaxSentence = 1000;  // a paragraph of an issue is one line

// A paragraph's sentences, split also at the dashes and semicolons between clauses that tell of
// other tries or other times ("did not help; NCCL_P2P_DISABLE=1 fixes it").
std::vector<std::string_view> Clauses(std::string_view paragraph) {
  static constexpr std::string_view kBreaks[] = {
      ". ", "? ", "! ", "; ", " \xe2\x80\x94 ", " \xe2\x80\x93 ", " -- "};
  std::vector<std::string_view> out;
  size_t from = 0;
  while (from < paragraph.size()) {
    size_t end = paragraph.npos;
    size_t width = 0;
    for (const std::string_view b : kBreaks) {
      const size_t at = paragraph.find(b, from);
      if (at < end) end = at, width = b.size();
    }
    out.push_back(paragraph.substr(from, end == paragraph.npos ? paragraph.npos : end + 1 - from));
    if (end == paragraph.npos) break;
    from = end + width;
  }
  return out;
}

// Whether `word` occurs in s, found by its bytes j and j + 1 (see FindWord; " over " by "ov",
// not by every blank of a traceback's frame lines).
bool Contains(std::string_view s, std::string_view word, size_t j) {
  return scan::FindWord(s, word, 0, j) != std::string_view::npos;
}

// Whether s has a byte >= 0x80, 8 bytes a step: most lines have none, and all are asked.
bool HasHighByte(std::string_view s) {
  size_t i = 0;
  uint64_t any = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    any |= w;
  }
  for (; i < s.size(); ++i) any |= static_cast<unsigned char>(s[i]);
  return (any & 0x8080808080808080ull) != 0;
}

// Words that say the start made no progress; a duration alone ("loading takes 20 minutes on the
// other host") claims nothing about this line. One case-insensitive pass: bare lines are many.
const RE2& HangWords() {
  static const RE2 kHang(
      "(?i)hang|hung|stuck|forever|nothing|no progress|no more|no output|no new|froze|frozen|wait|"
      "sits |sat |sitting|sit there|sit at |sit like th|stays |stayed |still at|still there|"
      "been there|"
      "been here|been like th|still like "
      "this|still the "
      "same|unchanged|no change|"
      "indefinitely|never finish|never complete|never reach|never print|never get|never move|"
      "never progress|still here|still waiting|no further|nothing further|that's it\\.|thats it\\.|"
      // What it last printed and that it still runs ("that's the last line. pod has been Running
      // (0/1 ready) for 40 min now", "cell has been running 45 minutes ... never returns").
      "the last line|last output|been running|never returns|never came back|it stops|stops here|"
      // A stop after a stated time ("after 10 minutes I pressed ctrl-c", "gave up after an hour",
      // the terminal's own "^C after 35 min").
      "ctrl-c|ctrl\\+c|control-c|killed it|gave up|\\^c |"
      // Leaving it for a stated time ("I left it for over an hour (until 11:15)").
      "left it (?:for|running|alone|sitting|there|overnight|over)|"
      // Spanish, German, French, Portuguese ("Lo dejé una hora entera", "steht jetzt seit 45
      // Minuten da").
      "colgad|atascad|se queda|no avanza|no pasa de|lo dejé|esperé|hängt|hängen|steht jetzt|"
      "seit \\d|gewartet|bloqué|coincé|j'ai attendu|travad|esperei");
  return kHang;
}

// An exception's line: its first word names it ("torch.distributed.DistStoreError: Timed out after
// 121 seconds waiting for clients").
bool NamesAnException(std::string_view s) {
  const std::string_view first = s.substr(0, s.find(' '));
  if (!first.ends_with(':')) return false;
  return first.find('.') != first.npos || first.ends_with("Error:") ||
         first.ends_with("Exception:") || first.ends_with("Warning:") ||
         first.ends_with("Timeout:");
}

// Whether the word before s[at] ('=') is upper case ("TP", "NCCL_P2P_DISABLE"): a person's
// shorthand or an environment setting, where a program's key=value lists use lower-case keys.
bool UpperCaseKeyBefore(std::string_view s, size_t at) {
  size_t i = at;
  while (i > 0 && ((s[i - 1] >= 'A' && s[i - 1] <= 'Z') || (s[i - 1] >= '0' && s[i - 1] <= '9') ||
                   s[i - 1] == '_')) {
    --i;
  }
  return i < at && (i == 0 || !((s[i - 1] >= 'a' && s[i - 1] <= 'z') || s[i - 1] == '.'));
}

// Whether a '|' of `s` stands outside parentheses: a table's column, a bar's edge or a shell's
// pipe. One inside them is a query a sentence quotes ("(fields @timestamp, @message | sort
// @timestamp asc)").
bool BareBar(std::string_view s) {
  int depth = 0;
  for (size_t i = scan::FindByte(s, '|'), from = 0; i != s.npos;
       i = scan::FindByte(s, '|', i + 1)) {
    for (; from < i; ++from) depth += s[from] == '(' ? 1 : s[from] == ')' && depth > 0 ? -1 : 0;
    if (depth == 0) return true;
  }
  return false;
}

// Whether six words or more stand between s[from] and s[to]: two settings a sentence names far
// apart ("hangs with tp=8 ... no error ... tp=1 works"), not one list of them.
bool ProseBetween(std::string_view s, size_t from, size_t to) {
  size_t words = 0;
  for (size_t i = from; i < to && words < 6; ++i)
    words += s[i] == ' ' && i + 1 < to && s[i + 1] != ' ';
  return words >= 6;
}

// Whether s holds a program's key=value list: two lower-case settings side by side, or a value
// that opens a list or a dict. One "tp=4", any number of upper-case settings ("TP=8 PP=2"),
// settings in an aside, a parenthesis opened after a space ("the export (nfsvers=3,
// rsize=65536) reads"; a program's own follow a name: "PyTorchConfig(use_cuda_graph=True, ...)"),
// and settings far apart in a sentence are a person's shorthand. One pass, left to right.
bool KeyValueList(std::string_view s) {
  if (scan::FindByte(s, '=') == s.npos) return false;
  constexpr size_t kMaxDepth = 32;
  uint32_t asides = 0;  // bit d: the parenthesis open at depth d opened after a space
  size_t depth = 0;
  size_t last = s.npos;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') {
      const uint32_t bit = depth < kMaxDepth ? uint32_t{1} << depth : 0;
      asides = i == 0 || s[i - 1] == ' ' ? asides | bit : asides & ~bit;
      ++depth;
    } else if (s[i] == ')') {
      depth -= depth > 0 ? 1 : 0;
    } else if (s[i] == '=') {
      if (scan::At(s, i + 1, '[') || scan::At(s, i + 1, '{')) return true;
      const bool aside = depth > 0 && depth <= kMaxDepth && ((asides >> (depth - 1)) & 1u) != 0;
      if (UpperCaseKeyBefore(s, i) || aside) continue;
      if (last != s.npos && !ProseBetween(s, last, i)) return true;
      last = i;
    }
  }
  return false;
}

// A writer's heading in brackets before the sentence ("[sglang 0.4.1, A10G 24GB, awq] -- stuck
// at ..."): a list of words with commas, where a program's bracket holds a time, a tag, keys and
// values or a Python list of quoted strings.
bool WritersHeading(std::string_view s, size_t close) {
  if (s.empty() || s[0] != '[' || close > 120) return false;
  const std::string_view inner = s.substr(1, close - 1);
  if (inner == "*") return true;  // Jupyter's mark of a cell still running
  return inner.find(", ") != inner.npos && inner.find_first_of("'\"[:=") == inner.npos;
}

// A program's line, not a sentence: key=value lists, bracketed tags, URLs, progress bars, an
// exception.
bool ProgramPunctuation(std::string_view s) {
  if (NamesAnException(s) || BareBar(s) || KeyValueList(s)) return true;
  // One step from each ']' and ':' (rare in a sentence) rather than a search per pair.
  for (size_t i = scan::FindByte(s, ']'); i != s.npos; i = scan::FindByte(s, ']', i + 1)) {
    if (scan::At(s, i + 1, ' ') && !WritersHeading(s, i)) return true;
  }
  // A URL, unless it is an environment variable's value the sentence names
  // ("Using HF_ENDPOINT=https://hf-mirror.com the download ... never moves").
  for (size_t i = scan::FindByte(s, ':'); i != s.npos; i = scan::FindByte(s, ':', i + 1)) {
    if (!s.substr(i).starts_with("://")) continue;
    size_t scheme = i;
    while (scheme > 0 && s[scheme - 1] >= 'a' && s[scheme - 1] <= 'z') --scheme;
    if (scheme == 0 || s[scheme - 1] != '=' || !UpperCaseKeyBefore(s, scheme - 1)) return true;
  }
  return false;
}

// The sentence without its `code spans` (a command quoted inside it: "`kubectl logs -l
// role=leader,role=worker`"): their punctuation is the command's, not the sentence's. A buffer
// kept per thread; the line itself where it has no backtick.
std::string_view WithoutCodeSpans(std::string_view line) {
  if (scan::FindByte(line, '`') == line.npos) return line;
  thread_local std::string buffer;
  buffer.clear();
  bool in_code = false;
  for (char c : line) {
    if (c == '`') {
      in_code = !in_code;
    } else if (!in_code) {
      buffer.push_back(c);
    }
  }
  return buffer;
}

// ASCII lowercase into a buffer kept per thread: bare lines are many, so no allocation per line and
// no locale lookup per character.
std::string_view LowerAscii(std::string_view line) {
  thread_local std::string buffer;
  buffer.assign(line);
  for (char& c : buffer) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return buffer;
}

double UnitSeconds(std::string_view unit) {
  switch (unit.empty() ? 's' : unit[0]) {
    case 'h':
      return 3600;
    case 's':
      return unit.starts_with("stund") ? 3600 : 1;  // German hours
    case 'd':
      return 86400;
    case 'm':
      return unit.starts_with("ms") || unit.starts_with("mil") ? 0.001 : 60;
    default:
      return 1;
  }
}

// Two times of day in one sentence ("the last line was printed at 10:04 and at 10:31 there's still
// nothing", "pasted at 18:05, the last line has been there since 17:22"): the wait is the span
// from the earliest to the latest, within a day.
std::optional<double> ClockTimesApart(std::string_view lower) {
  static const RE2 kClock(R"((?:^|[\s(~])([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?:[\s,.;)]|$))");
  re2::StringPiece in(lower.data(), lower.size());
  int hours = 0, minutes = 0, seen = 0, first = 24 * 60, last = -1;
  while (seen < 8 && RE2::FindAndConsume(&in, kClock, &hours, &minutes)) {
    const int m = hours * 60 + minutes;
    first = std::min(first, m);
    last = std::max(last, m);
    ++seen;
  }
  if (seen < 2 || last <= first) return std::nullopt;
  return 60.0 * (last - first);
}

// The writer's note set beside or under the line it points at ("    <- hangs here, been 20+
// min", "  \xe2\x86\x90 stuck", "       ^ stuck here"), or opening a line of its own ("==> stuck
// here. now 14:58"): the words after the arrow. Other indented lines are a program's.
std::string_view BesideTheLine(std::string_view line) {
  if (line.empty()) return line;
  const char c = line.front();
  if (c != ' ' && c != '\t' && c != '<' && c != '=' && c != '-' && c != '^' && c != '\xe2') {
    return line;  // most lines
  }
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  std::string_view rest = line.substr(i);
  // (Also one that opens the line, pointing at the line above or below: "==> stuck here".)
  for (std::string_view arrow :
       {"<--", "<-", "\xe2\x86\x90", "^ ", "^^", "==>", "=>", "-->", "->", "\xe2\x86\x92"}) {
    if (!rest.starts_with(arrow)) continue;
    rest.remove_prefix(arrow.size());
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    return rest;
  }
  return line;
}

}  // namespace

size_t NoteBehindTheLine(std::string_view line) {
  constexpr std::string_view kLeftArrow = "\xe2\x86\x90";  // U+2190
  // (Linear in the line, whose bytes are untrusted: each search goes on from the last candidate,
  // and a candidate reads only up to its note's second blank.)
  size_t next_left = line.find(kLeftArrow, 1);
  for (size_t at = 1; at < line.size(); ++at) {
    if (next_left < at) next_left = line.find(kLeftArrow, at);
    const char* next =
        static_cast<const char*>(std::memchr(line.data() + at, '<', line.size() - at));
    const size_t arrow =
        std::min(next ? static_cast<size_t>(next - line.data()) : line.size(), next_left);
    if (arrow >= line.size()) return std::string_view::npos;
    at = arrow;
    if (line[arrow - 1] != ' ' && line[arrow - 1] != '\t') continue;
    size_t end = arrow + (line[arrow] == '<' ? 1 : kLeftArrow.size());
    if (line[arrow] == '<') {
      const size_t dashes = end;
      while (end < line.size() && line[end] == '-') ++end;
      if (end == dashes) continue;  // "<" alone: a comparison, a tag
    }
    // Words after it (three or more, the first a letter's): "x <- y" is code, not a note.
    if (end >= line.size() || line[end] != ' ') continue;
    while (end < line.size() && line[end] == ' ') ++end;
    if (end == line.size() || !scan::IsAlnum(line[end]) || scan::IsDigit(line[end])) continue;
    int blanks = 0;
    for (size_t i = end; i < line.size() && blanks < 2; ++i) blanks += line[i] == ' ';
    if (blanks < 2) continue;
    size_t blank = arrow;
    while (blank > 0 && (line[blank - 1] == ' ' || line[blank - 1] == '\t')) --blank;
    if (blank > 0) return blank;
  }
  return std::string_view::npos;
}

namespace {

// A parsed duration's seconds, or nullopt where it was not one.
std::optional<double> Seconds(const Result<double>& d) {
  return d.ok() ? std::optional<double>(*d) : std::nullopt;
}

}  // namespace

std::optional<double> KubernetesAgeSeconds(std::string_view line) {
  // Most lines are neither, told by a byte or two before any search: `kubectl describe` indents
  // its events, and a row ends in its AGE's unit after a digit.
  if (line.size() < 8 || line.size() > 512) return std::nullopt;
  if (line.front() == ' ') {
    if (!Contains(line, " over ", 1)) return std::nullopt;
    static const RE2 kEvent(
        R"(\(x\d+ over ((?:\d{1,6}[smhd]){1,3})\)\s+kubelet\s+(?:Readiness|Startup) probe failed)");
    std::string span;
    if (RE2::PartialMatch(line, kEvent, &span)) return Seconds(ParseDuration(span));
    return std::nullopt;
  }
  // A row ends in its AGE; the restarts column must be 0 (a restarted container is younger).
  const char unit = line.back();
  if ((unit != 's' && unit != 'm' && unit != 'h' && unit != 'd') ||
      !(line[line.size() - 2] >= '0' && line[line.size() - 2] <= '9')) {
    return std::nullopt;
  }
  static const RE2 kRow(R"(^[a-z0-9][-a-z0-9.]*\s+\d{1,3}/\d{1,3}\s+[A-Za-z:]+\s+0\s+)"
                        R"(((?:\d{1,6}[smhd]){1,3})\s*$)");
  std::string age;
  if (!RE2::FullMatch(line, kRow, &age)) return std::nullopt;
  return Seconds(ParseDuration(age));
}

bool SaysItWorksWith(std::string_view sentence) {
  if (sentence.size() < 12 || sentence.size() > kMaxSentence ||
      (sentence.find("--") == sentence.npos && scan::FindByte(sentence, '_') == sentence.npos)) {
    return false;
  }
  static const RE2 kWorks(
      R"((?i)\b(?:works?|worked|working now|comes? up|came up|starts? (?:fine|normally|up|in \d)|)"
      R"(started (?:fine|normally|up)|loads? (?:fine|in \d)|fix(?:es|ed)\b|solved?\b|solves\b|)"
      R"(resolved?\b|resolves\b|goes away|went away|no longer hangs?|runs fine|goes through|)"
      R"(serves? fine|(?:gets?|got|goes|went) past (?:it|this|that|there)\b|)"
      R"((?:makes?|made|lets?|gets?|got) it (?:to )?(?:start|work|come up|load|run|boot))\b)");
  // A command at a shell prompt is no sentence ("root@host:/workspace# python3 -m ...").
  static const RE2 kPrompt(R"(^(?:\S*[@:]\S*)?[$#] )");
  if (RE2::PartialMatch(sentence, kPrompt)) return false;
  static const RE2 kDenied(
      R"((?i)\b(?:not|no luck|still (?:hangs?|stuck|fails?|crash(?:es)?|the same)|same (?:error|result|hang|problem)|neither|nor|without success)\b|n't)");
  return RE2::PartialMatch(sentence, kWorks) && !RE2::PartialMatch(sentence, kDenied);
}

bool SaysItRanAgain(std::string_view sentence) {
  if (sentence.size() < 6 || sentence.size() > kMaxSentence) return false;
  static const RE2 kAgain(
      R"((?i)\b(?:re-?ran|re-?run|ran (?:it |this |that |the same (?:command )?)?again|)"
      R"(tried (?:it |this |that )?again|retried|(?:second|third|another|next) (?:try|attempt|run)\b))");
  return RE2::PartialMatch(sentence, kAgain);
}

std::vector<std::string_view> SentencesSayingItWorks(std::string_view paragraph) {
  std::vector<std::string_view> out;
  if (paragraph.size() > 4 * kMaxSentence) return out;
  for (const std::string_view sentence : Clauses(paragraph)) {
    if (SaysItWorksWith(sentence)) out.push_back(sentence);
  }
  return out;
}

std::optional<double> CommandTimeSeconds(std::string_view line) {
  // Told by its first or last bytes before any search: bare lines are many.
  if (line.size() < 6 || line.size() > 200) return std::nullopt;
  std::string a, b, c;
  if (line.starts_with("real")) {
    static const RE2 kReal(R"(real\s+(?:(\d{1,6})m)?(\d{1,9}(?:[.,]\d{1,3})?)s?\s*)");
    if (!RE2::FullMatch(line, kReal, &a, &b)) return std::nullopt;
    return (a.empty() ? 0 : 60.0 * std::atof(a.c_str())) + std::atof(b.c_str());
  }
  // A CI runner that cancelled the job at its time limit: the command ran that long. (Rare bytes
  // first: 'x' for "execution", '%' for the shells' CPU share; one scan tells a line with neither.)
  const size_t x_or_percent = scan::FindEither(line, 'x', '%');
  if (x_or_percent == line.npos) return std::nullopt;
  if (scan::FindByte(line, 'x', x_or_percent) != line.npos && Contains(line, "execution t", 0)) {
    static const RE2 kCi(R"(execution took longer than ((?:\d{1,4}h)?(?:\d{1,4}m)?(?:\d{1,6}s)?)|)"
                         R"(exceeded the maximum execution time of (\d{1,6}) minutes)");
    if (!RE2::PartialMatch(line, kCi, &a, &b)) return std::nullopt;
    if (!b.empty()) return 60.0 * std::atof(b.c_str());
    return Seconds(ParseDuration(a));
  }
  static const RE2 kClock(
      R"((?:^|\s)(?:(\d{1,4}):)?(\d{1,2}):(\d{2}(?:\.\d{1,3})?)(?: total$|elapsed ))");
  if (scan::FindByte(line, '%') == line.npos ||
      !(line.ends_with(" total") || line.find("elapsed ") != line.npos) ||
      (line.find("cpu") == line.npos && line.find("CPU") == line.npos) ||
      !RE2::PartialMatch(line, kClock, &a, &b, &c)) {
    return std::nullopt;
  }
  return (a.empty() ? 0 : 3600.0 * std::atof(a.c_str())) + 60.0 * std::atof(b.c_str()) +
         std::atof(c.c_str());
}

// The same claim in the words of a report written in Chinese, Japanese, Korean or Russian ("等了30
// 分钟还是卡在这里", "40分以上このままです", "1시간째 멈춰 있습니다", "висит уже 20 минут"): a
// word that it sits still and a number with its unit. Only lines with non-ASCII bytes.
std::optional<double> ReportedWaitElsewhere(std::string_view line) {
  // (The high byte first: most lines are ASCII, and ProgramPunctuation scans the line four times.)
  if (line.size() < 6 || line.size() > kMaxSentence || !HasHighByte(line) ||
      ProgramPunctuation(line)) {
    return std::nullopt;
  }
  static const RE2 kStill(
      "卡住|卡在|卡死|卡了|没反应|没有反应|不动|没动|停在|无响应|没有输出|没输出|一直|等了|"
      "のまま|止まっ|止まる|固まっ|進まな|進みません|動かな|応答がな|待っ|待ちま|"
      "멈춰|멈춤|멈췄|그대로|진행이 안|진행되지|응답이 없|기다려|기다렸|"
      "(?i:завис|висит|ничего не происходит|не двигается|жду|ждал)");
  if (!RE2::PartialMatch(line, kStill)) return std::nullopt;
  static const RE2 kNumber(
      "(\\d{1,6}(?:\\.\\d{1,3})?)\\s*(分钟|分鐘|分|분|(?i:мин)|小时|小時|時間|시간|(?i:час)|秒|초|("
      "?i:сек))");
  re2::StringPiece in(line.data(), line.size());
  std::string number, unit;
  std::optional<double> most;
  while (RE2::FindAndConsume(&in, kNumber, &number, &unit)) {
    const bool hours = unit == "小时" || unit == "小時" || unit == "時間" || unit == "시간" ||
                       unit == "час" || unit == "Час";
    const bool seconds = unit == "秒" || unit == "초" || unit == "сек" || unit == "Сек";
    const double s = std::strtod(number.c_str(), nullptr) * (hours ? 3600 : seconds ? 1 : 60);
    if (!most || s > *most) most = s;
  }
  // "从 16:40 等到 17:15 都没动": two times of day, as in English.
  if (!most) most = ClockTimesApart(line);
  return most;
}

namespace {

// One claim of how long the start sat still (ReportedWaitSeconds, without other occasions).
std::optional<double> ReportedWaitInClaim(std::string_view line) {
  if (const std::optional<double> elsewhere = ReportedWaitElsewhere(line)) return elsewhere;
  if (line.size() < 12 || line.size() > kMaxSentence || line.front() == ' ' ||
      line.front() == '\t' || scan::CountByte(line, ' ') < 3 ||
      ProgramPunctuation(WithoutCodeSpans(line))) {
    return std::nullopt;
  }
  if (!RE2::PartialMatch(line, HangWords())) return std::nullopt;
  const std::string_view lower = LowerAscii(line);
  // "it does NOT hang forever, just curious", "isn't stuck", "it is still printing": the writer
  // says it moves.
  static const RE2 kDenied(
      R"((?:\bnot|n't|\bnever)\s+(?:\w+\s+)?(?:hang|hangs|hanging|hung|stuck|frozen|froze)\b|)"
      R"(\b(?:still|keeps?|slowly) (?:printing|going|progressing|moving|advancing|scrolling|)"
      R"(running through)\b|)"
      R"(\b(?:bars?|it|they|logs?|progress) (?:is|are|keeps?) (?:still )?(?:printing|progressing|moving|)"
      R"(advancing)\b)");
  // ("keeps printing exactly this every 10s": the same wait line again is no progress.)
  static const RE2 kRepeats(
      R"(\b(?:keeps?|still) printing (?:exactly |just |only )?(?:this|that|the same|it)\b)");
  if (RE2::PartialMatch(lower, kDenied) && !RE2::PartialMatch(lower, kRepeats)) return std::nullopt;
  static const RE2 kNumber(
      R"((?:^|[\s(~<>])(\d{1,6}(?:\.\d{1,3})?)\s*\+?\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s|days?|)"
      R"(minutos|minuten|minute|horas|hora|stunden|stunde|heures|heure|segundos|sekunden)\b)");
  static const RE2 kWords(
      R"(\b(?:an?|one|half an|a few|a couple of|several|two|three) (hours?|days?|minutes?)\b|)"
      R"(\b(?:una|eine|une|uma) (hora|stunde|heure)\b)");
  static const RE2 kForever(R"(\b(?:forever|indefinitely|over ?night|all night)\b)");
  std::optional<double> most;
  re2::StringPiece in(lower);
  std::string number, unit;
  while (RE2::FindAndConsume(&in, kNumber, &number, &unit)) {
    // "20 minutes in, still this": the time since the start, not how long it sat still.
    const std::string_view after(in.data(), in.size());
    if (after.starts_with(" in") &&
        (after.size() == 3 || std::string_view(",.;:!?").find(after[3]) != after.npos)) {
      continue;
    }
    // "the OLD server (3 days old)": an age, not a wait. ("stops here, this was 40 min ago" is
    // one: "ago" says how long since the log's last line.)
    if (after.starts_with(" old")) continue;
    // A size ("/dev/shm says 64M") is no duration: minutes are written lower-case.
    const size_t unit_at = static_cast<size_t>(in.data() - lower.data()) - unit.size();
    if (unit == "m" && unit_at < line.size() && line[unit_at] == 'M') continue;
    const double s = std::strtod(number.c_str(), nullptr) * UnitSeconds(unit);
    if (!most || s > *most) most = s;
  }
  // "1h15m", "2h 30min": hours and minutes run together.
  static const RE2 kHoursMinutes(R"((?:^|[\s(~<>])(\d{1,4})h ?(\d{1,2}) ?m(?:in|ins)?\b)");
  re2::StringPiece compact(lower);
  std::string minutes;
  while (RE2::FindAndConsume(&compact, kHoursMinutes, &number, &minutes)) {
    const double s =
        std::strtod(number.c_str(), nullptr) * 3600 + std::strtod(minutes.c_str(), nullptr) * 60;
    if (!most || s > *most) most = s;
  }
  re2::StringPiece words(lower);
  while (RE2::FindAndConsume(&words, kWords, &unit)) {
    const double s = lower.find("half an") != lower.npos ? 1800 : UnitSeconds(unit);
    if (!most || s > *most) most = s;
  }
  // "the start takes forever" says it is slow, not that it stopped.
  static const RE2 kSlowly(R"(\b(?:takes?|taking|took) (?:so |like |literally )?forever\b)");
  if (RE2::PartialMatch(lower, kForever) && !RE2::PartialMatch(lower, kSlowly)) {
    // "Sits there forever. Waited 45 minutes, then Ctrl-C": the length stated beside it is the
    // wait (before a stop only a stated length says it was stuck); a few seconds is not one.
    if (most && *most >= 60) return most;
    return std::numeric_limits<double>::infinity();
  }
  if (!most) most = ClockTimesApart(lower);
  return most;
}

}  // namespace

// A clause about another run ("it sat ~20 min last week on the other box") says nothing of this
// one: the time it claims is not counted.
std::optional<double> ReportedWaitSeconds(std::string_view line) {
  line = BesideTheLine(line);
  static const RE2 kElsewhen(
      R"((?i)\b(?:last (?:week|time|month|night|run|year)|yesterday|the other (?:box|machine|node|)"
      R"(server|host|cluster)|another (?:box|machine|node|server|host)|previous(?:ly)? (?:run|start|)"
      R"(version|release)|before the (?:upgrade|update|reboot)|(?:spent|wasted|lost) (?:a|an|the|)"
      R"(half|all|most|\d+|two|three|several|hours|days))\b)");
  // (The claim first: most lines make none, and are told so by their first bytes.)
  std::optional<double> whole = ReportedWaitInClaim(line);
  if (!whole || !RE2::PartialMatch(line, kElsewhen)) return whole;
  std::optional<double> most;
  for (const std::string_view clause : Clauses(line)) {
    if (RE2::PartialMatch(clause, kElsewhen)) continue;
    const std::optional<double> s = ReportedWaitInClaim(clause);
    if (s && (!most || *s > *most)) most = s;
  }
  return most;
}

}  // namespace spinup
