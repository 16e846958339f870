// LogStream turns bytes of a startup log into LogEvents, incrementally: feed it chunks split
// anywhere (a file read, a pipe, a followed journal) and it calls back per event. It is the one
// log path for `explain` (offline) and `watch`/`run` (live). Memory is bounded: one partial line
// (capped at max_line_bytes, the rest of a longer line is dropped) plus small per-bar state.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/csv_export.h"
#include "logs/line_parser.h"
#include "logs/rich_traceback.h"
#include "logs/rules.h"
#include "logs/text_scan.h"
#include "logs/wrapped_lines.h"
#include "spinup/startup.h"

namespace spinup {

struct LogStreamOptions {
  std::string engine;  // "" = auto-detect from prefixes and engine rules; else forced
  // Year for timestamps that lack one (vLLM, journalctl short) until a line carrying a year is
  // seen. The CLI passes the year of --now or of the clock.
  int reference_year = 1970;
  size_t max_line_bytes = 1 << 20;
  size_t max_text_bytes = 512;  // LogEvent::text cap
};

class LogStream {
 public:
  using EventFn = std::function<void(const LogEvent&)>;
  // Every line that is not noise and matched no rule: proof of life for the judge.
  using ActivityFn = std::function<void(std::optional<int64_t> time_ms, std::string_view message)>;
  // What systemd said about the unit in pasted `journalctl -u` text (its own lines, under the
  // "systemd[1]" identifier): starts, exits, failures, scheduled restarts, OOM kills, stops.
  using UnitEventFn = std::function<void(const UnitEvent& event)>;
  // Times already reported were off by `shift_ms` (year-less lines before the first dated one
  // were given the reference year): everything stated so far moves by that much.
  using ClockShiftFn = std::function<void(int64_t shift_ms)>;
  // A person's sentence pasted with the log says how long the start sat without output
  // (ReportedWaitSeconds, logs/reported_wait.h).
  using ReportedWaitFn = std::function<void(double seconds)>;

  // `rules` must outlive the stream and be compiled.
  LogStream(const RuleSet& rules, LogStreamOptions options);

  void OnEvent(EventFn fn) { on_event_ = std::move(fn); }
  void OnActivity(ActivityFn fn) { on_activity_ = std::move(fn); }
  // A clock reading pasted with the log (date(1)'s output, `systemctl status`'s "Active: ...
  // since ...; 2min ago"): the time the paste was taken, though no line of the server's.
  void OnClockReading(ActivityFn fn) { on_clock_reading_ = std::move(fn); }
  void OnUnitEvent(UnitEventFn fn) { on_unit_event_ = std::move(fn); }
  void OnClockShift(ClockShiftFn fn) { on_clock_shift_ = std::move(fn); }
  void OnReportedWait(ReportedWaitFn fn) { on_reported_wait_ = std::move(fn); }
  // Kubernetes' output pasted below the log says how long the pod had run then
  // (KubernetesAgeSeconds): a clock reading relative to the log's start.
  void OnKubernetesAge(ReportedWaitFn fn) { on_kubernetes_age_ = std::move(fn); }
  // The shell's `time` report pasted after the log says how long the command ran
  // (CommandTimeSeconds).
  void OnCommandTime(ReportedWaitFn fn) { on_command_time_ = std::move(fn); }
  // A person's sentence pasted with the log says a flag or setting made the start work
  // (SaysItWorksWith).
  using SentenceFn = std::function<void(std::string_view sentence)>;
  void OnWorksWith(SentenceFn fn) { on_works_with_ = std::move(fn); }
  // A person's line saying the log below is another try of theirs ("re-ran with X:").
  void OnRetryByHand(std::function<void()> fn) { on_retry_by_hand_ = std::move(fn); }

  void Feed(std::string_view bytes);
  // Flushes a last line without a newline. Feed may continue afterwards (a followed file).
  void Finish();
  // Handles one complete line (no '\n'; '\r' splits tqdm redraws). Exposed for tests/fuzzing.
  void FeedLine(std::string_view line);
  // A new start draws its bars from zero again: the reading a crashed start's bar showed is, in
  // the next start, that start's progress (the session calls this when the tracker begins one).
  void ForgetBars() { bars_.clear(); }

  const std::string& engine() const { return engine_; }  // "" until detected
  // Moves on whenever engine() may have changed: a caller that syncs on every event compares this.
  uint64_t engine_epoch() const { return engine_epoch_; }
  uint64_t lines() const { return line_no_; }
  uint64_t bytes() const { return bytes_; }
  std::optional<int64_t> last_time_ms() const { return last_time_ms_; }
  // The last frame line (`File "x.py", line 12, in fn`) of the traceback the text has ended
  // inside, its exception not yet printed; empty outside one.
  std::string_view open_traceback_frame() const {
    return in_traceback_ ? std::string_view(open_frame_) : std::string_view();
  }
  // The time the latest line stated itself (nullopt when it stated none), as the log's clock
  // reads it: no time zone applied.
  std::optional<int64_t> last_line_time_ms() const { return last_line_time_ms_; }

 private:
  // Cleans and parses one segment; JSON-lines objects are read through their message field.
  std::optional<ParsedLine> ParseStructured(std::string_view object, const ParsedLine& outer,
                                            bool logfmt);
  ParsedLine Parse(std::string_view raw);
  ParsedLine ReadLine(std::string_view clean);
  ParsedLine ReadWrapped(std::string_view clean);
  size_t EchoBehindWrapper(std::string_view message) const;
  std::string_view Unindent(std::string_view line);
  std::string_view UnescapeHtml(std::string_view line);
  void HandleSegment(std::string_view segment, int depth = 0);
  void ReadSegment(std::string_view segment, int depth);  // HandleSegment's one line
  void ReadMatched(const ParsedLine& p, std::string_view msg, std::optional<int64_t> t, int depth);
  void NoteRichRow(const ParsedLine& p);
  // A line to HandleSegment, unless it is a fragment of a record a terminal's wrap cut: an
  // unfinished record waits for its rest (log_stream_paste.cc, wrapped_lines.h).
  void OfferSegment(std::string_view segment);
  void ReleaseHeld();
  // Learns the paste's wrap width from the line's columns (see OfferSegment).
  void NoteColumns(std::string_view segment, size_t columns);
  // HandleSegment's steps (log_stream.cc).
  void ApplyTaughtPrefix(ParsedLine& p, std::string_view& msg, std::optional<int64_t>& t);
  void DetectEngineFromPrefix(PrefixStyle style);
  bool FirstPass(bool* fatal);
  void DropCancelled();
  bool PassesOver(const LogRule& r, int idx, std::string_view msg);
  void NoteServerPort(std::string_view msg);
  bool AnotherServersAddress(const LogRule& r, std::string_view msg) const;
  static constexpr std::string_view kServerPortRule = "generic.server_port";
  int server_port_rule_ = -1;  // its index, once (PassesOver asks of every matched rule)
  // A prompt that follows a log (`journalctl -f`, `kubectl logs -f`, `tail -f`): the ^C after it
  // ends the follower, not the server. A prompt that launches a server ends the following.
  static constexpr std::string_view kLogFollowRule = "generic.log_follow";
  static constexpr std::string_view kLaunchPromptRule = "manual.shell_prompt";
  int log_follow_rule_ = -1;
  int launch_prompt_rule_ = -1;
  bool following_log_ = false;
  std::vector<int> cancelling_;    // the rules that cancel others' matches (DropCancelled)
  std::vector<int> server_ports_;  // the servers' launch ports (NoteServerPort)
  void EmitKeptFacts(const ParsedLine& p, std::string_view text, std::optional<int64_t> t);
  // A writer's sentence, read for the rules that read prose (LogRule::prose) alone.
  void ReadProse(std::string_view sentence);
  void NoteRuleWithARole(const LogRule& r, int idx);
  std::vector<int> prose_matched_;
  void FillCaptures(const LogRule& r, int idx, std::string_view msg, LogEvent& e);
  void EmitRuleEvents(const ParsedLine& p, std::string_view msg, std::string_view text,
                      std::optional<int64_t> t, bool fatal, bool* any, bool* named, bool* progress);
  bool UnnamedBar(const ParsedLine& p, std::string_view msg, std::string_view text,
                  std::optional<int64_t> t, int depth, bool* handled);
  void NoteTraceback(const ParsedLine& p, std::string_view msg, std::string_view text,
                     std::optional<int64_t> t);
  // A faulthandler frame as a traceback prints it (FaulthandlerFrame), else `msg` itself.
  std::string_view AsTracebackLine(std::string_view msg);
  // Records a bar reading; false when it repeats the last one (tqdm reprints).
  bool NotTheServers(const ParsedLine& p);
  bool IsPersonsLine(const ParsedLine& p) const;
  // An indented sentence under a person's line: its text, unindented; empty when it is not one.
  std::string_view NoteGoingOn(const ParsedLine& p) const;
  bool SkipsUnraisable(std::string_view msg);
  void NoteThreadException(std::string_view msg);
  void NoteWorksWith(std::string_view sentence);
  bool NoteReportFacts(std::string_view msg);
  // True for a bar's new reading, or its same reading once its own clock moved on by
  // kFrozenBarClockStep seconds (a frozen bar's redraw still dates the paste).
  bool NewBarValue(std::string_view bar, int64_t n, int64_t total, std::optional<double> elapsed_s);
  static constexpr double kFrozenBarClockStep = 60;
  // Another program's line in a log of several (log_stream_sources.cc): compose services, journald
  // units, a pod's containers. A program is the server's once it prints an engine's line.
  bool OtherProgramsLine(const ParsedLine& p, std::string_view msg, std::optional<int64_t> t);
  bool OtherProgramsUnit(std::string_view unit, std::string_view message);
  struct SourceSeen {
    std::string name;
    bool server = false;       // it printed an engine's line
    bool other = false;        // its name says it is a known other program (a web UI, a proxy)
    bool engine_name = false;  // its name says it runs an engine ("vllm-1"): never another's
    bool exited = false;       // compose said it exited ("vllm-1 exited with code 1")
  };
  SourceSeen* NoteSource(std::string_view name);
  bool IsOther(const SourceSeen& s) const;
  std::optional<int64_t> ResolveTime(const ParsedLine& p);
  std::optional<ParsedLine> ReadingOnUtc(const ParsedLine& p) const;
  std::optional<ParsedLine> WrapperStampOnUtc(const ParsedLine& p);
  void DateTheUndated(CivilTime t);
  ParsedLine ReadCsvField(const ParsedLine& outer);
  ParsedLine ReadCsvMessage(std::string_view time);
  ParsedLine ReadExported(const ParsedLine& outer, std::string_view inner);
  std::optional<int64_t> DateTimeOfDay(CivilTime t, bool stated_reading);
  void Emit(LogEvent& e);
  void EmitCtrlCEcho();
  LogEvent& ResetEvent(LogEvent::Kind kind, std::optional<int64_t> t, std::string_view rank,
                       std::string_view rule_id, std::string_view text);

  const RuleSet& rules_;
  std::vector<uint8_t> generic_;  // by rule: its engine is "generic" (2: a cause's pattern)
  LogStreamOptions opt_;
  EventFn on_event_;
  ActivityFn on_activity_;
  ActivityFn on_clock_reading_;
  ReportedWaitFn on_reported_wait_;
  ReportedWaitFn on_kubernetes_age_;
  ReportedWaitFn on_command_time_;
  SentenceFn on_works_with_;
  std::function<void()> on_retry_by_hand_;
  UnitEventFn on_unit_event_;
  ClockShiftFn on_clock_shift_;
  std::string engine_;
  uint64_t engine_epoch_ = 0;
  bool engine_forced_ = false;
  int engine_strength_ = 0;  // 0 unknown, 1 from a prefix style, 2 from a `detect` rule
  // The rules matched against each message: all of them until the engine is settled (forced, or
  // strength 2); then that engine's and the generic ones, as HandleSegment skips the others.
  int match_subset_ = 0;
  // The message matched_ was found for, and its subset (see HandleSegment).
  std::string last_message_;
  bool warning_continues_ = false;   // the line was a Python warning that goes on in the next
  bool under_warning_ = false;       // the line goes on a Python warning's text
  bool warning_stack_open_ = false;  // a warning-level line, or a C++ stack line right under one
  bool stack_of_warning_ = false;    // the line is a C++ stack's under a warning (no error)
  int last_subset_ = -1;
  std::string partial_;
  bool partial_truncated_ = false;
  // A paste indented as a whole (log_stream_paste.cc): the indent, its byte, whether the next
  // line starts a block.
  size_t indent_ = 0;
  char indent_mark_ = ' ';
  bool block_start_ = true;
  // An unfinished record waiting for its rest (see OfferSegment): its text so far, its kind, how
  // many fragments it holds, the line it started on, the classes of its bytes.
  std::string held_;
  std::string released_;    // the record ReleaseHeld reads (HandleSegment never offers a line)
  std::string frame_line_;  // AsTracebackLine's
  Unfinished held_kind_ = Unfinished::kNone;
  int held_parts_ = 0;
  uint64_t held_line_no_ = 0;
  unsigned held_bytes_ = scan::kAnyBytes;  // the byte classes its fragments hold
  // The paste's wrap width once learned (0 before), the widest line so far, the lines of exactly
  // that width a line of no record's start followed (their text without digits, hashed), and
  // whether the last line was that wide (with its key).
  size_t wrap_columns_ = 0;
  size_t max_columns_ = 0;
  std::vector<uint64_t> wrap_votes_;
  bool last_at_max_ = false;
  uint64_t last_key_ = 0;
  std::string_view last_clean_;  // the line Parse last read, wrappers included
  // The classes of bytes (scan::LineBytes) the segment HandleSegment reads, and all it derives
  // from it, may hold: Feed's line search notes them; all of them when unknown.
  unsigned segment_bytes_ = scan::kAnyBytes;
  std::string scratch_;
  std::string html_;  // a line with its HTML entities decoded (log_stream_paste.cc)
  std::string json_message_, json_scratch_, json_level_;  // a JSON line's fields (see Parse)
  std::string json_ident_;   // a JSON line's journald identifier, which wrapper_ident views
  std::string export_line_;  // a text export's row's line, its escapes undone (ExportedLine)
  std::string csv_message_;  // a CSV export's message field, its quotes undone (ReadCsvField)
  // A CSV export's columns, from its header row within the first kCsvHeaderLines lines.
  static constexpr uint64_t kCsvHeaderLines = 64;
  std::optional<CsvColumns> csv_;
  std::string json_rest_;  // the lines of a JSON message after its first (HandleSegment)
  // Unknown prefixes ParseLine skipped before a known one, with how often (at most 16), and the
  // ones seen often enough to strip from every line (ReadLine).
  std::vector<std::pair<std::string, int>> skipped_prefixes_;
  std::vector<std::string> learned_prefixes_;
  bool year_known_ = false;  // a line carrying a year was seen
  bool utc_log_ = false;     // a line carried an RFC 3339 stamp with its zone: the log is in UTC
  // The engine's zone's offset from UTC, seen on its lines under a UTC wrapper's stamps: the zone
  // of a clock reading pasted from the same host that names no zone this knows ("CST").
  std::optional<int> local_offset_min_;
  // The zone of a wrapper's local stamps, seen beside the engine's UTC ones (journalctl over
  // TGI), and whether lines were dated on the wrapper's local clock before it was known.
  std::optional<int> wrapper_offset_min_;
  bool local_wrapper_lines_ = false;
  bool undated_lines_ = false;  // the first lines had a time of day only (DateTheUndated)
  std::vector<int> matched_;
  LogEvent event_;  // reused by every emitted event (see ResetEvent)
  uint64_t line_no_ = 0;
  uint64_t bytes_ = 0;
  int year_ = 1970;
  int last_month_ = 0;
  std::optional<int64_t> last_time_ms_;
  std::optional<int64_t> last_line_time_ms_;
  bool later_segment_ = false;   // FeedLine: a segment after a '\r' of the same line
  bool time_inherited_ = false;  // ReadSegment: its events carry the line's time (inferred)
  // Latest n/total per bar, so repeated redraws of the same value are not re-emitted.
  struct BarSeen {
    std::string bar;
    int64_t n = -1;
    int64_t total = -1;
    double elapsed_s = -1;  // the bar's own clock when its reading was last passed on
  };
  std::vector<BarSeen> bars_;
  int traceback_rule_ = -1;    // generic.traceback's index: a traceback's header
  bool in_traceback_ = false;  // inside a traceback block (see NoteTraceback)
  bool in_report_ = false;     // a person's line was seen (LogEvent::in_report)
  bool note_open_ = false;     // the line before was a person's (NoteGoingOn)
  uint32_t fences_ = 0;        // markdown fences seen (LogEvent::fences)
  bool line_quoted_ = false;   // the line being read is a markdown quote (LogEvent::quoted)
  // The phase a rule named on the line being read: an unnamed bar on it is that phase's
  // ("DeepGEMM warmup: 100%|...", a JIT's warm-up while graphs are captured).
  std::optional<Phase> line_phase_;
  bool in_unraisable_ = false;  // inside an "Exception ignored in:" report (SkipsUnraisable)
  int thread_exception_ =
      0;  // 1: in a thread's traceback, 2: past its exception (NoteThreadException)
  std::string open_frame_;         // its latest frame line (capped)
  bool remote_node_said_ = false;  // a Ray worker on another node was seen (said once)
  // A rich traceback's panel (rich_traceback.h): the Python line its row completed, read next.
  RichTraceback rich_;
  std::string rich_line_;
  bool rich_pending_ = false;
  int foreign_ = -1;  // the rule naming the line another program's exception (FirstPass)
  int noise_ = -1;    // the noise rule that dropped the line (FirstPass)
  int echo_ = -1;     // the rule naming the line a client's request echoed (FirstPass)
  // An error rule pinned to a phase the line matched (FirstPass): a fatal rule that names no phase
  // takes its place.
  int pinned_error_ = -1;
  std::vector<SourceSeen> sources_;  // the programs wrappers named (capped; OtherProgramsLine)
  bool server_source_known_ = false;
};

}  // namespace spinup
