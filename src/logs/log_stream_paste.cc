// What pasted text adds to a log, read by LogStream: tracebacks whose header was cut, a terminal's
// ^C echo behind a wrapper, a paste indented as a whole, a wrapper's prefix nobody taught spinup.
#include "logs/log_stream.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "base/assign.h"
#include "logs/prose.h"
#include "logs/reported_wait.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

// A Python traceback's frame line: `File "x.py", line 12, in fn` (faulthandler's and py-spy's stack
// dumps are shaped otherwise: no comma before "in", or `fn (x.py:12)`).
bool IsPythonFrame(std::string_view msg) {
  size_t i = 0;
  // A paste's own line numbers ("16436   File ...") come first.
  while (i < msg.size() && i < 9 && msg[i] >= '0' && msg[i] <= '9') ++i;
  if (i > 0 && (i == msg.size() || (msg[i] != ' ' && msg[i] != '\t'))) i = 0;
  while (i < msg.size() && (msg[i] == ' ' || msg[i] == '\t')) ++i;
  msg.remove_prefix(i);
  if (msg.substr(0, 6) != "File \"") return false;
  size_t line = msg.find("\", line ", 6);
  if (line == std::string_view::npos) return false;
  size_t d = line + 8;
  size_t digits = d;
  while (d < msg.size() && msg[d] >= '0' && msg[d] <= '9') ++d;
  return d > digits && msg.substr(d, 5) == ", in ";
}

}  // namespace

// Where a terminal's "^C" sits in the cleaned line when a wrapper or prefix stripped before the
// message holds it (or the message starts with it), else npos. Only the stripped part is searched.
size_t LogStream::EchoBehindWrapper(std::string_view message) const {
  if ((segment_bytes_ & scan::kCaret) == 0) return std::string_view::npos;  // no '^': no "^C"
  const std::string_view clean = last_clean_;
  if (message.data() < clean.data() || message.data() > clean.data() + clean.size()) {
    return std::string_view::npos;
  }
  const auto prefix = static_cast<size_t>(message.data() - clean.data());
  if (message.size() >= 2 && message[0] == '^' && message[1] == 'C') return prefix;
  if (prefix < 2) return std::string_view::npos;
  return clean.substr(0, prefix).find("^C");
}

// A pasted excerpt often starts inside a traceback, its "Traceback (most recent call last)" header
// cut off: the first frame line stands for the header, so a log that ends there still ends in an
// error. A header (or a logged stack, "Stack (most recent call last)") opens a block; a line a rule
// speaks for that is not a frame closes it.
void LogStream::NoteTraceback(const ParsedLine& p, std::string_view msg, std::string_view text,
                              std::optional<int64_t> t) {
  for (int idx : matched_) {
    if (idx == traceback_rule_) {
      in_traceback_ = true;
      open_frame_.clear();
      return;
    }
  }
  // Only the first byte past the blanks is looked at on most lines (this runs on every line).
  size_t i = 0;
  while (i < msg.size() && (msg[i] == ' ' || msg[i] == '\t')) ++i;
  const char first = i < msg.size() ? msg[i] : '\0';
  // faulthandler's dump of the stacks ("Thread 0x7f... (most recent call first):"), of a crash or
  // of a hang (dump_traceback_later, py-spy): frames, and no exception of its own.
  if ((first == 'S' && msg.substr(i, 29) == "Stack (most recent call last)") ||
      ((first == 'T' || first == 'C') && msg.ends_with("(most recent call first):"))) {
    in_traceback_ = true;
    open_frame_.clear();
    return;
  }
  if ((first == 'F' || (first >= '0' && first <= '9')) && IsPythonFrame(msg.substr(i))) {
    if (!in_traceback_)
      Emit(ResetEvent(LogEvent::Kind::kError, t, p.rank, "generic.traceback_cut", text));
    in_traceback_ = true;
    AssignBytes(open_frame_, msg.substr(i, 400));
  } else if (!matched_.empty() && !msg.empty() && msg.front() != ' ' && msg.front() != '\t') {
    in_traceback_ = false;
  }
}

// Facts a report's line states beside the log: a kubelet event's age, `time`'s run length, and the
// writer's word that the log below is another try of theirs ("re-ran with NCCL_DEBUG=WARN:", a line
// that introduces what follows). True when the line is the writer's, not read further.
bool LogStream::NoteReportFacts(std::string_view msg) {
  if (on_kubernetes_age_) {
    if (const std::optional<double> age = KubernetesAgeSeconds(msg)) on_kubernetes_age_(*age);
  }
  if (on_command_time_) {
    if (const std::optional<double> ran = CommandTimeSeconds(msg)) on_command_time_(*ran);
  }
  if (msg.empty() || msg.back() != ':' || !SaysItRanAgain(msg)) return false;
  if (on_retry_by_hand_) on_retry_by_hand_();
  in_report_ = true;
  return true;
}

// A person's sentence: whether it says a flag or setting made the start work (SaysItWorksWith), or
// that the log after it is another try of theirs (SaysItRanAgain).
void LogStream::NoteWorksWith(std::string_view sentence) {
  if (on_retry_by_hand_ && SaysItRanAgain(sentence)) on_retry_by_hand_();
  if (!on_works_with_) return;
  for (const std::string_view said : SentencesSayingItWorks(sentence)) on_works_with_(said);
}

// Python's report of an exception that ended a thread, not the process ("Exception in thread
// nixl_handshake_listener:", then its traceback): the process goes on (its waits after it say so),
// so the traceback's fatal lines are errors (Emit). Read from the lines alone, whatever rules
// match: the first unindented line past the header is its exception, the next one (not a chain)
// ends it.
void LogStream::NoteThreadException(std::string_view msg) {
  if (!msg.empty() && msg.front() == 'E' && msg.starts_with("Exception in thread ") &&
      !msg.starts_with("Exception in thread MainThread")) {
    thread_exception_ = 1;
    return;
  }
  if (thread_exception_ == 0 || msg.empty() || msg.front() == ' ' || msg.front() == '\t' ||
      msg.starts_with("Traceback (most recent")) {
    return;
  }
  if (msg.starts_with("During handling") || msg.starts_with("The above exception")) {
    thread_exception_ = 1;  // a chained exception follows
    return;
  }
  thread_exception_ = thread_exception_ == 1 ? 2 : 0;
}

// Python's report of an exception it could not raise ("Exception ignored in: <function
// Socket.__del__ ...>", then a traceback): a finaliser failing while objects are torn down. It
// never stopped a process, so neither it nor its traceback is evidence; the exception line
// after its frames ends it.
bool LogStream::SkipsUnraisable(std::string_view msg) {
  if (!in_unraisable_) {
    if (msg.empty() || msg[0] != 'E' || !msg.starts_with("Exception ignored in: ")) return false;
    in_unraisable_ = true;
    return true;
  }
  size_t i = 0;
  while (i < msg.size() && (msg[i] == ' ' || msg[i] == '\t')) ++i;
  const std::string_view rest = msg.substr(i);
  if (i > 0 || rest.starts_with("Traceback (most recent call last)") || IsPythonFrame(rest)) {
    return true;  // its header, frames and code lines
  }
  in_unraisable_ = false;  // its exception
  return true;
}

std::string_view LogStream::AsTracebackLine(std::string_view msg) {
  if (msg.empty() || (msg[0] != ' ' && msg[0] != 'F')) return msg;  // most lines
  return FaulthandlerFrame(msg, &frame_line_) ? std::string_view(frame_line_) : msg;
}

// A paste indented as a whole (a markdown code block by indentation, a list item's content): the
// indent of a block's first line (4 or more spaces, or a tab), while every line of the block has
// it, is not the server's. A block starts the log or follows a blank line, so the code lines of a
// traceback in a plain log never start one.
std::string_view LogStream::Unindent(std::string_view line) {
  // An indented block inside a markdown quote is indented after the quote's marks, and the
  // quote's own blank line (">") starts a block.
  line_quoted_ = !line.empty() && line[0] == '>';
  if (line_quoted_) {
    const std::string_view inner = StripQuoteMarks(line);
    if (inner.find_first_not_of(" \t\r") == std::string_view::npos) {
      block_start_ = true;
      return line;
    }
    line = inner;
  }
  const bool at_start = std::exchange(block_start_, false);
  if (indent_ == 0 && !at_start) return line;
  const char mark = !line.empty() && line[0] == '\t' ? '\t' : ' ';
  size_t k = 0;
  while (k < line.size() && k < 64 && line[k] == mark) ++k;
  // (After a blank line a block indented deeper is a block of its own: a sentence indented as a
  // list item's content, then the log indented under it.)
  if (indent_ > 0 && mark == indent_mark_ && k >= indent_ && !(at_start && k > indent_)) {
    return line.substr(indent_);
  }
  indent_ = 0;
  if (at_start && (k >= 4 || (mark == '\t' && k >= 1))) {
    indent_ = k;
    indent_mark_ = mark;
    return line.substr(k);
  }
  return line;
}

// The line with the entities HTML escaping writes decoded ("&gt;" "&lt;" "&quot;" "&#39;" "&#x27;"
// "&amp;"): a log copied out of a page's source or an HTML e-mail. A server writes none of them
// itself, and "&" followed by anything else is left as it is.
std::string_view LogStream::UnescapeHtml(std::string_view line) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&gt;", '>'},    {"&lt;", '<'},  {"&quot;", '"'}, {"&#39;", '\''},
      {"&#x27;", '\''}, {"&#34;", '"'}, {"&amp;", '&'}};
  size_t amp = line.find('&');
  if (amp == std::string_view::npos) return line;
  std::string out;
  size_t from = 0;
  bool any = false;
  for (; amp != std::string_view::npos; amp = line.find('&', amp + 1)) {
    for (const auto& [entity, c] : kEntities) {
      if (line.substr(amp, entity.size()) != entity) continue;
      out.append(line.substr(from, amp - from));
      out.push_back(c);
      from = amp + entity.size();
      any = true;
      break;
    }
  }
  if (!any) return line;
  out.append(line.substr(from));
  html_ = std::move(out);
  return html_;
}

// ParseLine, learning the unknown prefixes that repeat before known ones: three lines with the same
// one make it the log's wrapper, stripped from every later line (a traceback behind "0: " too).
ParsedLine LogStream::ReadLine(std::string_view clean) {
  constexpr int kSeenToLearn = 3;
  constexpr size_t kMaxKept = 16;
  ParsedLine p = ParseLine(clean, learned_prefixes_.empty() ? nullptr : &learned_prefixes_);
  if (p.skipped_prefix.empty() || learned_prefixes_.size() >= 4) return p;
  auto it = std::find_if(skipped_prefixes_.begin(), skipped_prefixes_.end(),
                         [&](const auto& e) { return e.first == p.skipped_prefix; });
  if (it == skipped_prefixes_.end()) {
    if (skipped_prefixes_.size() >= kMaxKept) return p;
    skipped_prefixes_.emplace_back(std::string(p.skipped_prefix), 0);
    it = skipped_prefixes_.end() - 1;
  }
  if (++it->second == kSeenToLearn) learned_prefixes_.push_back(it->first);
  return p;
}

namespace {
constexpr size_t kMinWrap = 60, kMaxWrap = 512;  // no terminal's width is outside these
}  // namespace

// A record cut by a terminal's wrap: the fragments are joined before the line is read, up to
// the longest line the stream keeps, in at most kMaxParts fragments (a frame wraps two or three
// times at 80 columns, a JSON line of TGI's a few more).
void LogStream::OfferSegment(std::string_view segment) {
  constexpr int kMaxParts = 12;
  // Columns count only for a line as wide as the widest so far (and any wrap width) or wider:
  // one of fewer bytes has fewer columns too, and its byte count does as well. A line holding
  // escape sequences was not copied from a terminal's screen, which keeps none: it has no width.
  size_t columns = segment.size();
  if ((segment_bytes_ & scan::kEscOrHigh) != 0 && columns >= std::max(kMinWrap, max_columns_)) {
    columns = std::memchr(segment.data(), 0x1b, segment.size()) != nullptr ? 0 : Columns(segment);
  }
  if (last_at_max_ || columns >= max_columns_) NoteColumns(segment, columns);  // else no change
  const bool fills_width = wrap_columns_ != 0 && columns == wrap_columns_;
  if (held_kind_ != Unfinished::kNone) {
    // A quoted paste (GitHub's "Quote reply") marks every fragment: the rest is behind the marks.
    const std::string_view rest =
        held_.starts_with('>') && segment.starts_with('>') ? StripQuoteMarks(segment) : segment;
    if (held_parts_ < kMaxParts && held_.size() + rest.size() <= opt_.max_line_bytes &&
        ContinuesRecord(held_, held_kind_, rest)) {
      // Blanks a copy padded the fragment with are not the record's (one may be: a cut at a space).
      const size_t end = held_.find_last_not_of(" \t");
      if (end != std::string::npos && held_.size() - end > 2) held_.resize(end + 1);
      held_.append(rest);
      held_bytes_ |= segment_bytes_;
      ++held_parts_;
      held_kind_ = UnfinishedRecord(held_);
      if (held_kind_ == Unfinished::kNone && fills_width) held_kind_ = Unfinished::kWidth;
      if (held_kind_ == Unfinished::kNone || held_parts_ >= kMaxParts) ReleaseHeld();
      return;
    }
    ReleaseHeld();
  }
  // Frames and JSON lines hold a quote; the line search noted whether this one does.
  Unfinished kind =
      (segment_bytes_ & scan::kQuote) != 0 ? UnfinishedRecord(segment) : Unfinished::kNone;
  if (kind == Unfinished::kNone && fills_width) kind = Unfinished::kWidth;
  // A wrap's first fragment fills the terminal: a shorter line was not cut (a live log's short
  // frame lines, a faulthandler dump's, are read at once).
  if (kind != Unfinished::kNone && segment.size() >= kMinWrap) {
    held_.assign(segment);
    held_bytes_ = segment_bytes_;
    held_kind_ = kind;
    held_parts_ = 1;
    held_line_no_ = line_no_;
    return;
  }
  HandleSegment(segment);
}

// A paste wrapped at W columns has its long lines all exactly W wide, each followed by a line
// that starts no record. Two such lines of different text (digits aside: a crash loop repeats a
// line with new times, ranks repeat it with their own numbers) at the widest width so far teach
// W; a wider line later says there is no wrap. (One line cut inside a word is no proof: NCCL's
// lines end in a word and the next starts with the host's lower-case name.)
void LogStream::NoteColumns(std::string_view segment, size_t columns) {
  constexpr size_t kVotes = 2;
  if (last_at_max_ && !StartsRecord(segment)) {
    if (std::find(wrap_votes_.begin(), wrap_votes_.end(), last_key_) == wrap_votes_.end()) {
      wrap_votes_.push_back(last_key_);
    }
    if (wrap_votes_.size() >= kVotes) wrap_columns_ = max_columns_;
  }
  if (columns > max_columns_) {
    max_columns_ = columns;
    wrap_votes_.clear();
    wrap_columns_ = 0;
  }
  last_at_max_ =
      wrap_columns_ == 0 && columns == max_columns_ && columns >= kMinWrap && columns <= kMaxWrap;
  if (last_at_max_) {
    uint64_t key = 1469598103934665603ull;  // FNV-1a over the bytes that are not digits
    for (char c : segment) {
      if (c >= '0' && c <= '9') continue;
      key = (key ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    last_key_ = key;
  }
}

// Reads the held record as the line it started on, with the byte classes of its fragments.
void LogStream::ReleaseHeld() {
  released_.swap(held_);  // both keep their buffers for the next record
  held_.clear();
  held_kind_ = Unfinished::kNone;
  held_parts_ = 0;
  const uint64_t line_no = std::exchange(line_no_, held_line_no_);
  const unsigned bytes = std::exchange(segment_bytes_, held_bytes_);
  HandleSegment(released_);
  line_no_ = line_no;
  segment_bytes_ = bytes;
}

// Lines in a log that no server process printed as its own: a person's, Python's teardown report.
bool LogStream::NotTheServers(const ParsedLine& p) {
  const bool under_note = std::exchange(note_open_, false);
  if (!in_traceback_ && p.style == PrefixStyle::kNone) {
    if (p.rank.empty() && p.level.empty()) {
      // A sentence that says how long the start sat there is the report's, whatever it quotes
      // ("It never reaches \"The server is fired up\", stuck for 30 minutes").
      if (const std::optional<double> wait = ReportedWaitSeconds(p.message)) {
        if (on_reported_wait_) on_reported_wait_(*wait);
        NoteWorksWith(p.message);
        in_report_ = note_open_ = true;
        ReadProse(p.message);
        return true;
      }
      // (The line is still read, unless it is the writer's: a kubelet's event may be a probe
      // kill's record.)
      if (NoteReportFacts(p.message)) return true;
    }
    // A note's sentence may go on on the next lines, indented under its first ("<--- hangs
    // here, py-spy shows ...", then "     With --disable-custom-all-reduce it serves fine.").
    const std::string_view said = under_note ? NoteGoingOn(p) : std::string_view();
    if (!said.empty() || IsPersonsLine(p)) {
      NoteWorksWith(said.empty() ? p.message : said);
      in_report_ = note_open_ = true;
      ReadProse(said.empty() ? p.message : said);
      return true;
    }
    if (IsMarkdownFence(p.message)) {
      ++fences_;
      return true;
    }
  }
  return SkipsUnraisable(p.message);
}

// A bug report's sentence about the log ("I get CUDA out of memory when ..."): a line with no
// engine prefix (a wrapper's is the paste's, as every line of it carries the same).
bool LogStream::IsPersonsLine(const ParsedLine& p) const {
  if (!p.rank.empty() || !p.level.empty() || p.wrapper_ident == "systemd[1]") return false;
  if (LooksLikeProse(p.message)) return true;
  // "With --disable-cuda-graph it starts fine (slow though). No NCCL error, no exception, just
  // stuck at 0/23.": what a flag did, in words; no exception's line (its first word ends in ':').
  const std::string_view first = p.message.substr(0, p.message.find(' '));
  return !p.message.empty() && scan::IsUpper(p.message[0]) && !first.ends_with(':') &&
         SaysItWorksWith(p.message);
}

// The next line of a person's note, indented under it (GoesOnANote): its words, unindented.
std::string_view LogStream::NoteGoingOn(const ParsedLine& p) const {
  std::string_view text = p.message;
  if (!p.rank.empty() || !p.level.empty() || text.empty() || (text[0] != ' ' && text[0] != '\t')) {
    return {};
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return GoesOnANote(text) ? text : std::string_view();
}

}  // namespace spinup
