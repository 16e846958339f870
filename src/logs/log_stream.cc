#include "logs/log_stream.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "base/assign.h"
#include "logs/export_rows.h"
#include "logs/json_line.h"
#include "logs/logfmt_line.h"
#include "logs/reported_wait.h"
#include "logs/systemd_message.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Whether s holds only spaces and tabs (Trim(s).empty(), without trimming the end).
bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

bool IsErrorLevel(std::string_view level) {
  return level == "ERROR" || level == "CRITICAL" || level == "FATAL" || level == "E" ||
         level == "F";
}

// "Method is_available not supported by backend 'marlin' on sm_86, falling back": the program
// went on another way, whatever level it logged it at.
bool SaysItFallsBack(std::string_view msg) {
  for (std::string_view words : {"falling back", "Falling back", "fall back to", "falls back to"}) {
    if (msg.find(words) != std::string_view::npos) return true;
  }
  return false;
}

// warnings.warn()'s format: "path/file.py:8: RuntimeWarning: message".
bool PythonWarning(std::string_view msg) {
  const size_t w = msg.find("Warning: ");
  return w != msg.npos && msg.substr(0, w).find(".py:") != msg.npos;
}

}  // namespace

LogStream::LogStream(const RuleSet& rules, LogStreamOptions options)
    : rules_(rules), opt_(std::move(options)) {
  if (!opt_.engine.empty()) {
    engine_ = opt_.engine;
    ++engine_epoch_;
    engine_forced_ = true;
    match_subset_ = rules_.EngineSubset(engine_);
  }
  // Which rules are generic, once: FirstPass and EmitRuleEvents ask it of every matched rule.
  generic_.reserve(rules_.rules().size());
  // 2: a cause's hidden pattern or a fallback frame (evidence only: an engine ERROR line it
  // matches is still an error, and the exception it names is still quoted).
  for (const LogRule& r : rules_.rules()) {
    NoteRuleWithARole(r, static_cast<int>(generic_.size()));
    const bool evidence = r.id.starts_with("cause.") || r.role == LogEvent::Role::kFallback;
    generic_.push_back(r.engine != "generic" ? 0 : evidence ? 2 : 1);
  }
  year_ = opt_.reference_year;
  if (opt_.max_line_bytes < 64) opt_.max_line_bytes = 64;
}

void LogStream::Feed(std::string_view bytes) {
  bytes_ += bytes.size();
  while (!bytes.empty()) {
    // One pass finds the line's end and whether a '\r' comes first (a tqdm redraw, rare).
    unsigned classes = scan::kAnyBytes;
    size_t len = scan::FindLineBreak(bytes, &classes);
    const bool cr = len < bytes.size() && bytes[len] == '\r';
    if (cr) {
      const void* nl_at = std::memchr(bytes.data() + len, '\n', bytes.size() - len);
      len = nl_at ? static_cast<size_t>(static_cast<const char*>(nl_at) - bytes.data())
                  : bytes.size();
    }
    const char* nl = len < bytes.size() ? bytes.data() + len : nullptr;
    std::string_view piece = bytes.substr(0, len);
    if (nl && partial_.empty() && !partial_truncated_) {
      // Fast path: a whole line inside the chunk needs no copy.
      piece = piece.substr(0, opt_.max_line_bytes);
      if (cr) {
        FeedLine(piece);
      } else {
        ++line_no_;  // FeedLine without its search for '\r': there is none
        if (!IsBlank(piece)) {
          segment_bytes_ = classes;
          OfferSegment(Unindent(piece));
          segment_bytes_ = scan::kAnyBytes;
        } else {
          block_start_ = true;
          if (held_kind_ != Unfinished::kNone) ReleaseHeld();  // a wrap leaves no blank line
        }
      }
    } else {
      if (!partial_truncated_) {
        size_t room = opt_.max_line_bytes - partial_.size();
        if (piece.size() > room) {
          partial_.append(piece.substr(0, room));
          partial_truncated_ = true;
        } else {
          partial_.append(piece);
        }
      }
      if (nl) {
        FeedLine(partial_);
        partial_.clear();
        partial_truncated_ = false;
      }
    }
    if (!nl) break;
    bytes.remove_prefix(len + 1);
  }
}

void LogStream::Finish() {
  if (!partial_.empty()) FeedLine(partial_);
  partial_.clear();
  partial_truncated_ = false;
  if (held_kind_ != Unfinished::kNone) ReleaseHeld();
}

void LogStream::FeedLine(std::string_view line) {
  ++line_no_;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    block_start_ = true;
    if (held_kind_ != Unfinished::kNone) ReleaseHeld();
    return;
  }
  line = Unindent(line);
  // tqdm redraws with '\r': every segment is a state of the bar (or a log line glued to it).
  later_segment_ = false;
  while (!line.empty()) {
    size_t cr = line.find('\r');
    std::string_view seg = line.substr(0, cr);
    if (!Trim(seg).empty()) {
      OfferSegment(seg);
      later_segment_ = true;
    }
    if (cr == std::string_view::npos) break;
    line.remove_prefix(cr + 1);
  }
  later_segment_ = false;
}

LogEvent& LogStream::ResetEvent(LogEvent::Kind kind, std::optional<int64_t> t,
                                std::string_view rank, std::string_view rule_id,
                                std::string_view text) {
  // One event reused for every line: its strings keep their buffers, so a matched line costs no
  // allocation.
  LogEvent& e = event_;
  e.kind = kind;
  e.time_ms = t;
  AssignBytes(e.rank, rank);
  e.phase.reset();
  AssignBytes(e.rule_id, rule_id);
  AssignBytes(e.text, text);
  e.line_no = line_no_;
  e.time_inferred = time_inherited_;
  e.quiet_level = false;
  e.bar.clear();
  e.progress_n = 0;
  e.progress_total = 0;
  e.elapsed_seconds.reset();
  e.engine_only = false;
  e.pinned = false;
  e.answer = false;
  e.while_serving = false;
  e.node_ready = false;
  e.in_process = false;
  e.rank_from_message = false;
  e.role = LogEvent::Role::kDirect;
  return e;
}

void LogStream::Emit(LogEvent& e) {
  // A thread died, not the process (NoteThreadException).
  if (thread_exception_ != 0 && e.kind == LogEvent::Kind::kFatal) e.kind = LogEvent::Kind::kError;
  e.in_report = in_report_;
  e.fences = fences_;
  e.quoted = line_quoted_;
  if (e.phase) line_phase_ = e.phase;
  if (on_event_) on_event_(e);
}

ParsedLine LogStream::Parse(std::string_view raw) {
  std::string_view clean = CleanLine(raw, &scratch_, (segment_bytes_ & scan::kEscOrHigh) == 0,
                                     (segment_bytes_ & scan::kBracket) == 0);
  // A paste copied from a page's source or an e-mail keeps its HTML entities ("&gt;", "&quot;").
  if ((segment_bytes_ & scan::kAmp) != 0) clean = UnescapeHtml(clean);
  // A text export's row (AWS CLI, fluent-bit's stdout): the log's line is one of its fields.
  if (!clean.empty() && (clean.front() == 'E' || clean.front() == '[')) {
    if (auto line = ExportedLine(clean, &export_line_)) clean = *line;
  }
  last_clean_ = clean;
  // A CSV export (a header row names its columns): each row's message column is the log's line.
  // Pasted as a markdown quote or an indented block, the marks are the paste's.
  if (csv_ || line_no_ <= kCsvHeaderLines) {
    std::string_view row = clean;
    if (!row.empty() && row.front() == '>') row = StripQuoteMarks(row);
    while (!row.empty() && (row.front() == ' ' || row.front() == '\t')) row.remove_prefix(1);
    std::string_view time;
    if (csv_ && ReadCsvRow(row, *csv_, &csv_message_, &time)) return ReadCsvMessage(time);
    // (A header has no blank but before a column's zone: "TimeGenerated [UTC]".)
    const size_t blank = row.find(' ');
    if (!csv_ && row.find(',') != std::string_view::npos &&
        (blank == std::string_view::npos || row.substr(blank, 2) == " [")) {
      csv_ = ReadCsvHeader(row);
    }
  }
  std::string_view object = clean;
  // A JSON-lines log pasted as a markdown quote: the object starts after the marks.
  if (!object.empty() && object.front() == '>') object = StripQuoteMarks(object);
  if (!object.empty() && object.front() == '{') {
    if (auto p = ParseStructured(object, ParsedLine{}, /*logfmt=*/false)) return std::move(*p);
    return ReadLine(clean);
  }
  return ReadWrapped(clean);
}

// Parse's common case. One object is returned on every path, so it is built in place (NRVO), not
// moved out (a move copies the rank string's bytes).
ParsedLine LogStream::ReadWrapped(std::string_view clean) {
  ParsedLine line = ReadLine(clean);
  // A text export's row behind a wrapper (a quoted paste, compose's prefix); not one already read
  // out of such a row (its buffer would be overwritten while read).
  if (line.message.size() != clean.size() && !line.message.empty() &&
      clean.data() != export_line_.data() &&
      (line.message.front() == 'E' || line.message.front() == '[')) {
    if (auto inner = ExportedLine(line.message, &export_line_)) return ReadExported(line, *inner);
  }
  // A CSV export's quoted message field (Datadog, CloudWatch, Splunk: `time,host,"INFO ...
  // ""x"""`): the quotes are the export's, not the line's.
  if (line.message.size() >= 2 && line.message.front() == '"' && line.message.back() == '"' &&
      line.message.data() != clean.data() && line.message.data()[-1] == ',') {
    return ReadCsvField(line);
  }
  // A JSON-lines log behind a wrapper (compose's "svc  | {...}", CRI, kubectl --prefix): the
  // object is read like one that starts the line, under the wrapper's clock.
  std::string_view m = line.message;
  if (MayBeLogfmt(m)) {
    if (auto p = ParseStructured(m, line, /*logfmt=*/true)) return std::move(*p);
  }
  if (m.size() < 2 || m.back() != '}') return line;
  if (m.front() != '{') {
    // fluentd's out_file: "time<TAB>tag<TAB>{record}", tab-separated fields with no blank.
    const size_t tab = m.substr(0, 258).find("\t{");
    if (tab == std::string_view::npos || tab > 256 ||
        m.substr(0, tab).find(' ') != std::string_view::npos) {
      return line;
    }
    m.remove_prefix(tab + 1);
  }
  if (auto p = ParseStructured(m, line, /*logfmt=*/false)) line = std::move(*p);
  return line;
}

// A structured line (a JSON object, or logfmt's key=value pairs) read through its message, level
// and time fields.
std::optional<ParsedLine> LogStream::ParseStructured(std::string_view object,
                                                     const ParsedLine& outer, bool logfmt) {
  auto j = logfmt ? ParseLogfmtLine(object, &json_message_)
                  : ParseJsonLogLine(object, &json_message_, /*keep_breaks=*/true);
  if (!j) return std::nullopt;
  // A message of several lines (TGI's --json-output keeps a shard's whole traceback in one): its
  // first line is this line's; the others are read after it as the lines they were, as the same
  // log in text form prints them (HandleSegment).
  if (const size_t nl = json_message_.find('\n'); nl != std::string::npos) {
    json_rest_.assign(json_message_, nl + 1);
    json_message_.resize(nl);
  }
  // The message may carry its own engine prefix (Docker's json-file driver wraps raw lines).
  // Decoded escapes ("\u0025") may add bytes the line did not hold.
  segment_bytes_ = scan::kAnyBytes;
  last_clean_ = CleanLine(json_message_, &json_scratch_);
  ParsedLine p = ReadLine(last_clean_);
  if (outer.wrapper_time) {
    p.time = p.wrapper_time = outer.wrapper_time;  // one clock per log: the outermost wrapper's
  } else if (!p.time && j->time) {
    p.time = p.wrapper_time = j->time;
  }
  if (p.wrapper_ident.empty()) p.wrapper_ident = outer.wrapper_ident;
  if (p.wrapper_ident.empty() && !j->ident.empty()) {
    json_ident_ = std::move(j->ident);  // journald's program name, as its text prefix gives it
    p.wrapper_ident = json_ident_;
  }
  if (p.source.empty()) p.source = outer.source;
  if (p.rank.empty()) p.rank = !j->rank.empty() ? std::move(j->rank) : outer.rank;
  if (p.level.empty()) {
    json_level_ = std::move(j->level);
    p.level = json_level_;
  }
  return p;
}

// A prefix a rules file taught (an engine the built-in parsers do not know): after the wrappers
// first (docker timestamps before the engine's prefix), then the whole line (a wrapper parser may
// have taken the start of the engine's own prefix).
void LogStream::ApplyTaughtPrefix(ParsedLine& p, std::string_view& msg, std::optional<int64_t>& t) {
  const PrefixBook& book = rules_.prefixes();
  if (p.style != PrefixStyle::kNone || !p.rank.empty() || book.empty()) return;
  if (!book.MayMatch(msg) && !book.MayMatch(last_clean_)) return;  // most lines: no call
  auto m = book.Match(msg);
  // The whole line only when the message is not all of it: compared as views (the message views
  // the line), not byte by byte; equal bytes elsewhere would fail the same match anyway.
  const bool whole = msg.data() == last_clean_.data() && msg.size() == last_clean_.size();
  if (!m && !whole) m = book.Match(last_clean_);
  if (!m) return;
  msg = m->message;
  if (!m->level.empty()) p.level = m->level;
  if (!m->rank.empty()) p.rank = CanonicalRank(m->rank);
  if (auto ms = m->time.empty() ? std::nullopt : ParseTimeArg(m->time)) {
    p.time = UnixMsToCivil(*ms);
    t = ResolveTime(p);
  }
  if (!engine_forced_ && engine_strength_ < 1) {
    engine_ = *m->engine;
    ++engine_epoch_;
    engine_strength_ = 1;
  }
}

// Weak engine detection from the prefix; a rule marked `detect` decides for good.
void LogStream::DetectEngineFromPrefix(PrefixStyle style) {
  if (engine_forced_) return;
  if (engine_strength_ < 1) {
    std::string_view e = EngineOfStyle(style);
    if (!e.empty()) {
      engine_ = std::string(e);
      ++engine_epoch_;
      engine_strength_ = 1;
    }
  } else if (engine_strength_ == 1 && style == PrefixStyle::kSglang && engine_ != "sglang") {
    // vLLM-formatted lines appear inside old SGLang (its vLLM import); never the reverse.
    engine_ = "sglang";
    ++engine_epoch_;
  }
}

// A bar no rule names (or a bare "  0%|...| 0/23") is still progress of the current phase. True
// when the line was a bar with a new reading; `*handled` when the text glued after it was handled
// as its own line.
bool LogStream::UnnamedBar(const ParsedLine& p, std::string_view msg, std::string_view text,
                           std::optional<int64_t> t, int depth, bool* handled) {
  if ((segment_bytes_ & scan::kPercent) == 0) return false;  // no "NN%": no bar
  auto bar = ParseLastTqdm(msg);
  if (!bar) return false;
  const bool redraw =
      !NewBarValue(bar->bar, bar->n, bar->total, bar->elapsed_s);  // a view: no copy per redraw
  if (!redraw) {
    LogEvent& e = ResetEvent(LogEvent::Kind::kProgress, t, p.rank, "tqdm", text);
    e.bar.assign(bar->bar);
    e.progress_n = bar->n;
    e.progress_total = bar->total;
    e.elapsed_seconds = bar->elapsed_s;
    e.phase = line_phase_;
    Emit(e);
  }
  // tqdm without a newline glues the next log line onto the bar.
  if (bar->end < msg.size()) {
    std::string_view rest = Trim(msg.substr(bar->end));
    if (!rest.empty() && rest.size() < msg.size() && depth < 4) {
      std::string copy(rest);
      HandleSegment(copy, depth + 1);
      *handled = true;
    }
  }
  // The same reading again is no progress, but its line still says the log went on then (a
  // frozen bar redrawn under `kubectl logs --timestamps`): the caller passes it on as activity.
  return !redraw;
}

void LogStream::HandleSegment(std::string_view raw, int depth) {
  // A writer's note behind the line ("... 5/35 [00:02<00:14]  <-- stuck here for 20 min") is
  // read after it, as the line of its own it would be on the next line.
  // (The line search noted whether it holds a '<' or a high byte: most hold neither.)
  const bool arrow = (segment_bytes_ & (scan::kAngle | scan::kEscOrHigh)) != 0;
  const size_t note = depth == 0 && arrow ? NoteBehindTheLine(raw) : std::string_view::npos;
  ReadSegment(raw.substr(0, note), depth);
  if (note != std::string_view::npos) ReadSegment(raw.substr(note), depth + 1);
  if (!json_rest_.empty()) {
    const std::string rest = std::move(json_rest_);
    json_rest_.clear();
    if (depth < 4) {
      for (std::string_view r = rest; !r.empty();) {
        const size_t nl = r.find('\n');
        HandleSegment(r.substr(0, nl), depth + 1);  // its own lines, if it is one, in turn
        r = nl == std::string_view::npos ? std::string_view() : r.substr(nl + 1);
      }
    }
  }
  if (rich_pending_) {
    rich_pending_ = false;
    const std::string line = std::move(rich_line_);  // read after the row that completed it
    ReadSegment(line, depth + 1);
  }
}

// A row of a rich traceback's panel, bare or behind a wrapper's prefix (whose bars ParseLine
// could not strip): a frame's line once its header's rows are joined.
void LogStream::NoteRichRow(const ParsedLine& p) {
  constexpr char kBoxLead = '\xe2';  // the first byte of every box-drawing character
  std::string_view row = last_clean_;
  if (!row.empty() && row[0] == '>') row = StripQuoteMarks(row);  // a quoted paste's marks
  while (!row.empty() && (row[0] == ' ' || row[0] == '\t')) row.remove_prefix(1);
  if (row.empty() || row[0] != kBoxLead) {
    row = p.message.empty() || p.message[0] != kBoxLead ? std::string_view() : p.message;
  }
  if (row.empty() && !rich_.in_panel()) return;  // most lines
  rich_pending_ = rich_.Offer(row, &rich_line_);
}

// The echo's time is the line before's, not its own: the key may have come long after.
void LogStream::EmitCtrlCEcho() {
  LogEvent& stop =
      ResetEvent(LogEvent::Kind::kStop, last_line_time_ms_, "", "generic.ctrl_c", "^C");
  stop.time_inferred = true;
  Emit(stop);
}

void LogStream::ReadSegment(std::string_view raw, int depth) {
  std::string unwrapped;  // outlives `p`, which may point into it
  ParsedLine p = Parse(raw);
  if (size_t at = EchoBehindWrapper(p.message); at != std::string_view::npos) {
    // The terminal's echo of Ctrl+C, often glued to the next line the server prints, at the start
    // or behind a wrapper (compose's "svc  | ", a quote mark): a stop, then the line without it.
    // Under a prompt that follows the log it stopped the follower, and the server runs on.
    if (!std::exchange(following_log_, false)) EmitCtrlCEcho();
    // The writer's words after it ("^C  <- after 20 minutes of nothing") are a sentence of their
    // own, not an indented program line.
    std::string_view after = last_clean_.substr(at + 2);
    while (!after.empty() && (after.front() == ' ' || after.front() == '\t'))
      after.remove_prefix(1);
    unwrapped.reserve(last_clean_.size());
    unwrapped.append(last_clean_.substr(0, at)).append(after);
    p = Parse(unwrapped);
  }
  if (NotTheServers(p)) {
    // The writer's note of the clock ("(no output after this. `date` -> Thu Jun 20 ...)"): the
    // time the log was pasted, though no server line.
    if (p.time && depth == 0 && on_activity_) {
      if (const std::optional<int64_t> t = ResolveTime(p)) on_activity_(t, {});
    }
    return;
  }
  std::string_view msg = AsTracebackLine(p.message);
  std::optional<int64_t> t = ResolveTime(p);
  // Text glued behind a bar (or a JSON record's rest) was printed with the line that carried it:
  // it has that line's time, not the latest time seen (a clock reading pasted above the log).
  // The same for a redraw after a '\r': the wrapper stamped the whole line (journald, kubectl
  // --timestamps). The time is marked inferred: a bar's own elapsed may date it more closely.
  const bool inherit = !t && (depth > 0 || later_segment_) && last_line_time_ms_;
  if (inherit) t = last_line_time_ms_;
  struct Restore {
    bool& flag;
    bool saved;
    ~Restore() { flag = saved; }
  } restore{time_inherited_, std::exchange(time_inherited_, inherit)};
  if (depth == 0) {
    last_line_time_ms_ = t;
    NoteRichRow(p);
  }
  if (!p.wrapper_ident.empty() && HostDaemonIdent(p.wrapper_ident)) {
    // (Its stamp still says the journal went on while the server printed nothing: a reading of
    // the clock, which opens no start.)
    if (t && depth == 0 && on_clock_reading_) on_clock_reading_(t, {});
    return;
  }
  // (Or its line without the journal's prefix, `journalctl -o cat`.)
  const bool bare_unit_line = p.wrapper_ident.empty() && p.style == PrefixStyle::kNone &&
                              p.rank.empty() && p.level.empty() && BareUnitLine(msg);
  if ((!p.wrapper_ident.empty() && IsSystemdIdent(p.wrapper_ident)) || bare_unit_line) {
    // The service manager's own line, not the server's: a fact about the unit or nothing.
    if (auto u = ParseSystemdMessage(msg);
        u && on_unit_event_ && !OtherProgramsUnit(u->unit, msg)) {
      u->time_ms = t;
      on_unit_event_(*u);
    }
    return;
  }
  ApplyTaughtPrefix(p, msg, t);
  // A bare "[07:02:10] " (a time of day, no tags) is any script's stamp as much as 2024 SGLang's:
  // the engine waits for a line of its own.
  const bool any_scripts_stamp =
      p.style == PrefixStyle::kSglang && p.rank.empty() && p.time && !p.time->has_date();
  if (!any_scripts_stamp) DetectEngineFromPrefix(p.style);
  if (p.remote_node && !remote_node_said_) {
    // A fact about the job, like the launch flags that say it spans nodes (multi_node.*).
    remote_node_said_ = true;
    Emit(ResetEvent(LogEvent::Kind::kInfo, t, p.rank, "multi_node.ray_remote_worker",
                    msg.substr(0, std::min(msg.size(), opt_.max_text_bytes))));
  }
  ReadMatched(p, msg, t, depth);
}

// The rules a server's line matches, turned into events.
void LogStream::ReadMatched(const ParsedLine& p, std::string_view msg, std::optional<int64_t> t,
                            int depth) {
  // Ranks print the same message line after line (each TP rank its own copy, tqdm redraws):
  // the rules matched depend only on the message and the subset, so a repeat reuses them.
  if (msg != last_message_ || match_subset_ != last_subset_) {
    rules_.Match(msg, &matched_, match_subset_);
    AssignBytes(last_message_, msg);
    last_subset_ = match_subset_;
  }
  if (OtherProgramsLine(p, msg, t)) {
    // Its clock still says the log went on (a web UI's requests under `docker compose logs -t`).
    if (t && depth == 0 && on_activity_) on_activity_(t, {});
    return;
  }
  // A Python warning ending in ':' goes on in the next line ("RuntimeWarning: Failed to read
  // commit hash:", then "No module named 'vllm._version'"), the warning's text, no failure.
  under_warning_ = warning_continues_;
  warning_continues_ = msg.size() > 12 && msg.back() == ':' && PythonWarning(msg);
  // A C++ exception's stack right under a warning (c10d's "[W...] TCP client failed to connect
  // ... - retrying", then "Exception raised from ..." and its frames) was caught and logged.
  const bool stack_line = msg.starts_with("Exception raised from ") || msg.starts_with("frame #");
  stack_of_warning_ = stack_line && warning_stack_open_;
  warning_stack_open_ =
      p.level == "W" || p.level == "WARNING" || p.level == "WARN" || stack_of_warning_;
  bool fatal = false;
  if (!FirstPass(&fatal)) {  // noise
    EmitKeptFacts(p, msg.size() > opt_.max_text_bytes ? msg.substr(0, opt_.max_text_bytes) : msg,
                  t);
    return;
  }
  std::string_view text =
      msg.size() > opt_.max_text_bytes ? msg.substr(0, opt_.max_text_bytes) : msg;
  bool any = false;
  bool named = false;
  bool progress = false;
  line_phase_.reset();
  NoteThreadException(msg);
  NoteTraceback(p, msg, text, t);
  EmitRuleEvents(p, msg, text, t, fatal, &any, &named, &progress);
  if (!any && in_traceback_ && QualifiedException(msg)) {
    // A traceback's exception whose class name does not say Error ("...errors.OutOfResources:"):
    // no rule names every such class, the traceback around it says what it is.
    Emit(ResetEvent(LogEvent::Kind::kError, t, p.rank, "generic.exception", text));
    return;
  }
  if (!progress) {
    bool handled = false;
    if (UnnamedBar(p, msg, text, t, depth, &handled)) any = named = true;
    if (handled) return;
  }
  if (p.client_request) {
    // A client's request reached the server (its handler logged this, even an error): it is up.
    Emit(ResetEvent(LogEvent::Kind::kRequestServed, t, "", "tgi.request_span", text));
    return;
  }
  if (!named && IsErrorLevel(p.level) && !msg.empty() && msg.front() != ' ' && msg.front() != '^' &&
      !SaysItFallsBack(msg)) {
    // An engine's own ERROR/CRITICAL line that no rule names (a cause's pattern is evidence, not
    // a name) is still a decisive error (frames and code lines of a logged traceback, which start
    // indented, are not; nor is one that says the program fell back to another way).
    Emit(ResetEvent(LogEvent::Kind::kError, t, p.rank, "level.error", text));
    return;
  }
  if (!any && p.clock_reading && on_clock_reading_) {
    on_clock_reading_(t, msg);
  } else if (!any && on_activity_) {
    on_activity_(t, msg);
  }
}

bool LogStream::NewBarValue(std::string_view bar, int64_t n, int64_t total,
                            std::optional<double> elapsed_s) {
  const double clock = elapsed_s.value_or(-1);
  for (auto& b : bars_) {
    if (b.bar == bar) {
      // The same reading again is no progress, unless the bar's own clock moved on by a minute or
      // more: a frozen download redrawn at [27:18<?, 0.00B/s] says how long it has been stuck, in
      // a paste whose lines carry no time of their own.
      if (b.n == n && b.total == total &&
          !(clock >= 0 && clock >= b.elapsed_s + kFrozenBarClockStep))
        return false;
      b.n = n;
      b.total = total;
      b.elapsed_s = clock;
      return true;
    }
  }
  if (bars_.size() >= 64) bars_.erase(bars_.begin());
  bars_.push_back({std::string(bar), n, total, clock});
  return true;
}

}  // namespace spinup
