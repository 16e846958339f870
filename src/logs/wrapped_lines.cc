#include "logs/wrapped_lines.h"

#include <cstddef>
#include <cstring>
#include <string>

#include "logs/line_parser.h"

namespace spinup {
namespace {

constexpr std::string_view kFrameOpen = "File \"";
// A frame's path is a file name: longer than this it is not one, or not a wrap of one.
constexpr size_t kMaxPathBytes = 512;
// How far into a line a JSON object may start (behind a wrapper's time or a pod's name).
constexpr size_t kMaxJsonStart = 96;

enum class Tail { kWhole, kCut, kOther };

// Whether `text` starts with `lit` (and moves past it), is cut inside it, or is something else.
Tail Consume(std::string_view& text, std::string_view lit) {
  if (text.starts_with(lit)) {
    text.remove_prefix(lit.size());
    return Tail::kWhole;
  }
  return lit.starts_with(text) ? Tail::kCut : Tail::kOther;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A frame line's text from its `File "` on, against `File "PATH", line N, in NAME` (faulthandler
// writes " in " without the comma): whole, cut before its end, or of another shape.
Tail FrameFrom(std::string_view frame) {
  frame.remove_prefix(kFrameOpen.size());
  const size_t quote = frame.find('"');
  if (quote == std::string_view::npos)
    return frame.size() <= kMaxPathBytes ? Tail::kCut : Tail::kOther;
  if (quote > kMaxPathBytes) return Tail::kOther;
  std::string_view rest = frame.substr(quote + 1);
  if (Tail t = Consume(rest, ", line "); t != Tail::kWhole) return t;
  size_t digits = 0;
  while (digits < rest.size() && IsDigit(rest[digits])) ++digits;
  if (digits == rest.size()) return Tail::kCut;  // cut inside the number, or before it
  if (digits == 0) return Tail::kOther;
  rest.remove_prefix(digits);
  Tail t = Consume(rest, ", in ");
  if (t == Tail::kOther) t = Consume(rest, " in ");
  if (t != Tail::kWhole) return t;
  return rest.empty() || rest.front() == ' ' ? Tail::kCut : Tail::kWhole;
}

// Where the line's record of a known shape starts, found from its first quote (a log's prefix
// holds none): the `{` of a JSON object near the line's start, or the `File "` of a frame.
struct Shaped {
  Unfinished kind = Unfinished::kNone;  // kJson or kFrame when found
  size_t at = 0;
};

Shaped FindShaped(std::string_view line) {
  const void* q = std::memchr(line.data(), '"', line.size());
  if (q == nullptr) return {};
  const auto quote = static_cast<size_t>(static_cast<const char*>(q) - line.data());
  if (quote >= 1 && line[quote - 1] == '{' && quote - 1 <= kMaxJsonStart) {
    return {Unfinished::kJson, quote - 1};
  }
  const size_t open = kFrameOpen.size() - 1;  // `File ` before the quote
  if (quote >= open && line.substr(quote - open, open) == kFrameOpen.substr(0, open)) {
    return {Unfinished::kFrame, quote - open};
  }
  return {};
}

// The object's nesting depth at the text's end (0: closed), or -1 when it closes too often or
// text follows its close.
int JsonDepthAtEnd(std::string_view object) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < object.size(); ++i) {
    const char c = object[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return -1;
      if (depth == 0) {
        const size_t more = object.find_first_not_of(" \t\r", i + 1);
        return more == std::string_view::npos ? 0 : -1;
      }
    }
  }
  return depth;
}

// A line of its own, not a fragment: indented (a traceback's code line, a pretty-printed
// document), or the start of a new frame or object.
bool StartsItsOwnLine(std::string_view next) {
  if (next.empty() || next[0] == '\t' || next.starts_with("  ")) return true;
  if (next.starts_with("{\"")) return true;
  const size_t lead = next.find_first_not_of(' ');
  return lead != std::string_view::npos && next.substr(lead).starts_with(kFrameOpen);
}

bool IsWordByte(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// `RuntimeError: ...`, `torch.OutOfMemoryError: ...`, `KeyboardInterrupt`: an exception's line.
bool StartsException(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (IsWordByte(line[i]) || line[i] == '.')) ++i;
  const std::string_view name = line.substr(0, i);
  for (std::string_view end : {"Error", "Exception", "Interrupt", "Exit", "Warning"}) {
    if (name.ends_with(end)) return i == line.size() || line[i] == ':';
  }
  return false;
}

// A table's or a panel's row (Triton's model table, a rich traceback's box, a banner): such
// blocks hold many lines of one width that no wrap made.
bool StartsBlockRow(std::string_view line) {
  if (line.empty()) return false;
  const char c = line[0];
  if (c == '|' || c == '+' || c == '=' || c == '*' || c == '#') return true;
  if (c == '-' && line.starts_with("--")) return true;
  // U+2500-U+257F (box drawing) and U+2580-U+259F (blocks): E2 94-96 xx in UTF-8.
  return line.size() >= 2 && static_cast<unsigned char>(c) == 0xE2 &&
         static_cast<unsigned char>(line[1]) >= 0x94 && static_cast<unsigned char>(line[1]) <= 0x96;
}

}  // namespace

size_t Columns(std::string_view line) {
  size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

bool StartsRecord(std::string_view line) {
  if (line.starts_with('>')) line = StripQuoteMarks(line);  // a quoted paste marks every line
  if (line.empty() || line[0] == '\t' || line.starts_with("  ") || StartsBlockRow(line)) {
    return true;
  }
  std::string scratch;
  line = CleanLine(line, &scratch);  // a live log's colours
  const ParsedLine p = ParseLine(line);
  if (p.time || p.style != PrefixStyle::kNone || !p.level.empty() || !p.wrapper_ident.empty() ||
      p.message.data() != line.data()) {
    return true;  // a prefix of the log's or a wrapper's
  }
  std::string_view msg = p.message;
  while (!msg.empty() && msg.front() == ' ') msg.remove_prefix(1);
  if (msg.starts_with("Traceback (most recent call last)") || msg.starts_with(kFrameOpen) ||
      msg.starts_with("{\"") || StartsException(msg)) {
    return true;
  }
  const auto bar = ParseTqdm(msg);
  return bar && bar->bar.data() == msg.data();  // a bar printed on its own line
}

Unfinished UnfinishedRecord(std::string_view line) {
  const Shaped shaped = FindShaped(line);
  if (shaped.kind == Unfinished::kJson) {
    return JsonDepthAtEnd(line.substr(shaped.at)) > 0 ? Unfinished::kJson : Unfinished::kNone;
  }
  if (shaped.kind != Unfinished::kFrame) return Unfinished::kNone;
  switch (FrameFrom(line.substr(shaped.at))) {
    case Tail::kCut:
      return Unfinished::kFrame;
    case Tail::kWhole:
      return Unfinished::kFrameName;
    case Tail::kOther:
      break;
  }
  return Unfinished::kNone;
}

bool ContinuesRecord(std::string_view held, Unfinished kind, std::string_view next) {
  if (kind == Unfinished::kNone || StartsItsOwnLine(next)) return false;
  if (kind == Unfinished::kWidth) return !StartsRecord(next);
  if (kind == Unfinished::kFrameName) {
    next = next.substr(0, next.find_last_not_of(" \t") + 1);  // a copy's padding
    // The rest of a function's name: one word starting lower-case, as Python's are (an
    // exception's name, which may stand alone below a traceback, starts upper-case).
    constexpr size_t kMaxNameRest = 64;
    if (next.empty() || next.size() > kMaxNameRest ||
        !(IsWordByte(next[0]) && !(next[0] >= 'A' && next[0] <= 'Z'))) {
      return false;
    }
    for (char c : next) {
      if (!IsWordByte(c)) return false;
    }
    return true;
  }
  const Shaped shaped = FindShaped(held);
  if (kind == Unfinished::kJson) {
    if (shaped.kind != Unfinished::kJson) return false;
    std::string joined(held.substr(shaped.at));
    joined.append(next);
    return JsonDepthAtEnd(joined) >= 0;
  }
  if (shaped.kind != Unfinished::kFrame) return false;
  const size_t frame = shaped.at;
  const std::string_view head = held.substr(frame + kFrameOpen.size());
  if (head.find('"') == std::string_view::npos && head.substr(0, 1) != "<") {
    // The path itself was cut: its rest runs to the closing quote without a space.
    const std::string_view path_rest = next.substr(0, next.find('"'));
    if (path_rest.find(' ') != std::string_view::npos) return false;
  }
  std::string joined(held.substr(frame));
  joined.append(next);
  return FrameFrom(joined) != Tail::kOther;
}

}  // namespace spinup
