#include "logs/rich_traceback.h"

#include <algorithm>

namespace spinup {
namespace {

constexpr std::string_view kTopLeft = "\xe2\x95\xad";  // ╭
constexpr std::string_view kBar = "\xe2\x94\x82";      // │
constexpr std::string_view kMarker = "\xe2\x9d\xb1";   // ❱, rich's mark of the failing line
constexpr size_t kMaxPanelRows = 4000;                 // a panel with every frame's locals
constexpr size_t kMaxHeaderRows = 4;                   // a path folded over a few rows

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// "...cli.py:89": the header so far ends in its line number (a break at the space after it).
bool EndsInLineNumber(std::string_view s) {
  size_t i = s.size();
  while (i > 0 && IsDigit(s[i - 1])) --i;
  return i < s.size() && i > 0 && s[i - 1] == ':';
}

// A row's text between the panel's bars.
std::string_view RowContent(std::string_view row) {
  std::string_view s = TrimBlanks(row.substr(kBar.size()));
  if (s.ends_with(kBar)) s.remove_suffix(kBar.size());
  return TrimBlanks(s);
}

// A frame's header starts with its file: an absolute or home path, a Windows drive, `<string>`.
bool StartsPath(std::string_view s) {
  if (s.empty()) return false;
  const char c = s[0];
  if (c == '/' || c == '~' || c == '\\' || c == '<') return true;
  return s.size() > 2 && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) && s[1] == ':' &&
         (s[2] == '\\' || s[2] == '/');
}

// `❱ 78 │ │ code`: the code after the line number's column and rich's indent guides.
std::string_view MarkedCode(std::string_view s) {
  s = TrimBlanks(s.substr(kMarker.size()));
  size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i == 0) return {};
  s = TrimBlanks(s.substr(i));
  while (s.starts_with(kBar)) s = TrimBlanks(s.substr(kBar.size()));
  return s;
}

}  // namespace

bool QualifiedException(std::string_view e) {
  if (e.starts_with('[')) {  // the rank's tag
    const size_t close = e.find("] ");
    if (close == std::string_view::npos) return false;
    e.remove_prefix(close + 2);
  }
  const size_t colon = e.find(": ");
  if (colon == std::string_view::npos || colon > 120 || colon + 2 >= e.size()) return false;
  const std::string_view name = e.substr(0, colon);
  const size_t dot = name.rfind('.');
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  if (dot == std::string_view::npos || dot + 2 >= name.size() || !lower(name.front()) ||
      !upper(name[dot + 1]) || !lower(name[dot + 2])) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return c == '.' || c == '_' || IsDigit(c) || lower(c) || upper(c);
  });
}

bool FaulthandlerFrame(std::string_view message, std::string* line) {
  size_t at = 0;  // on every line that starts with a blank: the first bytes only
  while (at < message.size() && at <= 8 && message[at] == ' ') ++at;
  if (at > 8 || !message.substr(at).starts_with("File \"")) return false;
  const std::string_view s = message.substr(at);
  const size_t quote = s.find("\", line ", 6);
  if (quote == std::string_view::npos) return false;
  size_t i = quote + 8;
  const size_t digits = i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i == digits || s.substr(i, 4) != " in " || i + 4 >= s.size()) return false;
  line->assign(message.substr(0, at + i)).append(",").append(s.substr(i));
  return true;
}

bool RichTraceback::Offer(std::string_view row, std::string* line) {
  // Most lines: no box-drawing character (╭ and │ share their first byte) starts them.
  if (!in_panel_ && (row.empty() || row[0] != kTopLeft[0])) return false;
  row = TrimBlanks(row);
  if (row.starts_with(kTopLeft)) {
    // Only the traceback's own panel; the boxes of its frames' locals sit inside its rows.
    in_panel_ = row.find("Traceback") != std::string_view::npos;
    rows_ = 0;
    header_.clear();
    return false;
  }
  if (!in_panel_) {
    // An excerpt that starts, or resumes after a cut, inside the panel: a row that can only be a
    // frame's header (`│ /path/x.py:12 in f │`) says where it is.
    if (!row.starts_with(kBar) || !row.ends_with(kBar)) return false;
    const std::string_view content = RowContent(row);
    if (!StartsPath(content) || content.find(".py") == std::string_view::npos) return false;
    in_panel_ = true;
    rows_ = 0;
    header_.clear();
  }
  if (!row.starts_with(kBar) || ++rows_ > kMaxPanelRows) {
    in_panel_ = false;  // the panel's end (its ╰ row), or a paste that cut it
    header_.clear();
    return false;
  }
  const std::string_view content = RowContent(row);
  if (content.starts_with(kMarker)) {
    header_.clear();
    const std::string_view code = MarkedCode(content);
    if (code.empty()) return false;
    line->assign("    ").append(code);
    return true;
  }
  if (!header_.empty()) {
    // rich breaks a header at a space ("...py:89 in" + "serve") or folds a long path anywhere.
    if (content.empty() || content.starts_with(kBar) || ++header_rows_ > kMaxHeaderRows) {
      header_.clear();
      return false;
    }
    if (header_.ends_with(" in") || EndsInLineNumber(header_)) header_ += ' ';
    header_.append(content);
    return Header(line);
  }
  if (!StartsPath(content)) return false;
  header_.assign(content);
  header_rows_ = 1;
  return Header(line);
}

// `path:line in name`, complete: the line Python prints for the frame.
bool RichTraceback::Header(std::string* line) {
  const std::string_view h = header_;
  const size_t in = h.rfind(" in ");
  if (in == std::string_view::npos) return false;
  const std::string_view name = h.substr(in + 4);
  const std::string_view at = h.substr(0, in);
  const size_t colon = at.rfind(':');
  if (name.empty() || name.find(' ') != std::string_view::npos || colon == std::string_view::npos ||
      colon == 0 || colon + 1 == at.size()) {
    return false;
  }
  const std::string_view number = at.substr(colon + 1);
  for (char c : number) {
    if (!IsDigit(c)) return false;
  }
  line->assign("  File \"")
      .append(at.substr(0, colon))
      .append("\", line ")
      .append(number)
      .append(", in ")
      .append(name);
  header_.clear();
  return true;
}

}  // namespace spinup
