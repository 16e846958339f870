// Pure functions over one log line: strip the wrappers people paste (journalctl, docker,
// kubectl, docker-compose, ANSI colour), then read the engine's own prefix (timestamp and rank
// tag). No I/O, no allocation beyond the returned strings; every input is untrusted and any
// byte sequence is accepted (fuzzed by fuzz/log_line_fuzz.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinup {

// A civil time as read from a line; year may be missing (vLLM `08-29 04:16:14`, journalctl
// `Mar 09 12:01:49`, SGLang's 2024 `[23:03:43 TP0]` has no date at all).
struct CivilTime {
  int year = 0;   // 0 when the line does not carry it
  int month = 0;  // 1-12, 0 when no date
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int millis = 0;
  bool has_date() const { return month != 0; }
  bool operator==(const CivilTime&) const = default;
};

// Unix milliseconds of a civil UTC time (year must be set).
int64_t CivilToUnixMs(const CivilTime& t);
CivilTime UnixMsToCivil(int64_t ms);
// "2026-03-09T12:01:53" (seconds precision, UTC as printed by the log).
std::string FormatIsoTime(int64_t ms);
// Parses `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM:SS[.fff][Z|±hh:mm]` (offset applied).
std::optional<int64_t> ParseTimeArg(std::string_view text);

// What the engine's own prefix looked like, which is a strong hint of the engine.
enum class PrefixStyle {
  kNone,
  kSglang,  // [2026-03-09 12:01:53 TP2] / [12:01:53 TP0] / [gpu_id=0]
  kVllm,    // INFO 08-29 04:16:14 [file.py:12] / (Worker_TP0 pid=400) ...
  kTgi,     // 2024-05-01T01:17:02.618817Z  INFO text_generation_launcher:
  kTrtllm,  // [TensorRT-LLM][INFO]
  kPython,  // 2025-03-03 18:46:45,039 - INFO - name: (python logging default)
  kGlog,    // I0501 01:00:00.245480 1 model_lifecycle.cc:818] (Triton; says no engine)
};

// The engine a prefix style belongs to ("vllm"), "" for styles any program prints.
inline std::string_view EngineOfStyle(PrefixStyle s) {
  switch (s) {
    case PrefixStyle::kSglang:
      return "sglang";
    case PrefixStyle::kVllm:
      return "vllm";
    case PrefixStyle::kTgi:
      return "tgi";
    case PrefixStyle::kTrtllm:
      return "trtllm";
    default:
      return "";
  }
}

struct ParsedLine {
  std::string_view message;               // the text after every prefix, what rules match against
  std::optional<CivilTime> time;          // the engine's timestamp (or the wrapper's)
  std::optional<CivilTime> wrapper_time;  // journalctl/docker/kubectl timestamp, if any
  // The line is a person's clock reading (date(1)'s output) in a zone it names: its offset from
  // UTC in minutes. `time` is the reading as written.
  std::optional<int> reading_offset_min;
  // The time is a person's stated reading ("it's 14:13 now"): a time of day only, which a line
  // before it must date.
  bool stated_reading = false;
  bool clock_reading = false;  // the line is date(1)'s output (ParseClockReading)
  // The engine's own time beside a UTC wrapper stamp (a container in TZ=Asia/Shanghai under
  // docker --timestamps): the engine's zone's offset from UTC in minutes, in quarter hours.
  std::optional<int> local_offset_min;
  // The reverse: the wrapper's stamp (journalctl's, in the host's local time) beside the engine's
  // own UTC stamp (TGI's): the wrapper's zone's offset from UTC in minutes.
  std::optional<int> wrapper_offset_min;
  // `time` is a wrapper's stamp in local time (journalctl's short format): a zone LogStream may
  // have learned from wrapper_offset_min moves it to UTC.
  bool local_wrapper_clock = false;
  // The line's time came from an RFC 3339 stamp with its zone (docker/kubectl --timestamps, TGI):
  // the log's times are UTC.
  bool utc_stamp = false;
  std::string_view wrapper_ident;  // journalctl's "ident[pid]" ("systemd[1]"), if any
  // The program the innermost wrapper that names one says printed the line: docker compose's
  // service ("open-webui-1"), kubectl --prefix's container, journald's identifier without its pid
  // ("nginx"); "" where none names one.
  std::string_view source;
  std::string rank;  // canonical rank name, "" when untagged
  PrefixStyle style = PrefixStyle::kNone;
  std::string_view level;  // "INFO", "ERROR", ... when the prefix carries one
  // The engine's prefix puts the line inside a client request's span (TGI's router handlers:
  // "chat_completions{total_time=...}: "): the server was answering a request.
  bool client_request = false;
  // Ray's tag names the worker's node ("(RayWorkerWrapper pid=1, ip=10.0.0.2) "): Ray prints the
  // address only for a worker on another node than the driver's, so the job spans nodes.
  bool remote_node = false;
  // An unknown prefix ParseLine skipped to reach a known one (a Slurm `srun -l` label "0: ", a
  // pdsh host "node7: ", stern's "pod container "): LogStream learns the ones that repeat.
  std::string_view skipped_prefix;
};

// "2023-06-02T14:12:37.201050Z" (offset applied; UTC), or Python logging's asctime
// "2023-06-02 14:12:37,201" (as it is), or nullopt.
std::optional<CivilTime> ParseRfc3339Time(std::string_view text);

// Removes ANSI escape sequences (CSI, OSC) and a trailing '\r', and replaces invalid UTF-8 with
// U+FFFD. Returns a view into `line` when nothing changed, else into `*scratch`.
// `plain`: the caller knows `line` holds no ESC and no byte >= 0x80 (no scan for them);
// `no_bracket`: it knows `line` holds no '[' (no colour code that lost its ESC, no search for one).
std::string_view CleanLine(std::string_view line, std::string* scratch, bool plain = false,
                           bool no_bracket = false);

// Strips wrappers and the engine prefix from an already cleaned line. The result views `line`
// (rank is copied). Wrappers handled: journalctl short (`Mar 09 12:01:49 host unit[2957]: `),
// short-iso (`2026-03-09T12:01:49+0000 host unit[1]: `), docker --timestamps / kubectl
// --timestamps (RFC 3339 + space), kubectl --prefix (`[pod/x/c] `), docker-compose
// (`name  | `), Ray's `(Actor pid=N) ` chains.
// `learned`: unknown prefixes seen repeating before known ones (LogStream keeps them); a line that
// starts with one is read without it, even where no known prefix follows (tracebacks, plain text).
ParsedLine ParseLine(std::string_view line, const std::vector<std::string>* learned = nullptr);

// A log pasted as a markdown quote ("> line", nested "> > line"): the line without the marks.
std::string_view StripQuoteMarks(std::string_view s);

// A tqdm bar in the message: "desc:  45% Completed | 18/39 [...]" or "desc:  14%|###| 1/7 [...]".
struct BarReading {
  std::string_view bar;  // description, may be empty for bare bars
  int64_t n = 0;
  int64_t total = 0;
  std::optional<double> elapsed_s;  // "[01:40<08:39, ...]" → 100
  size_t end = 0;  // index just past the bar (its `[...]` timing block when present)
};
std::optional<BarReading> ParseTqdm(std::string_view message);
// The last of a bar's redraws glued on one line ("...| 0/5 [...]Capturing ...| 1/5 [...]": a log
// keeps tqdm's '\r', a paste may drop it): the reading drawn last is the bar's state. Readings of
// another bar, or a log line, after it are not its redraws and end the search.
std::optional<BarReading> ParseLastTqdm(std::string_view message);

// Turns an SGLang tag list ("DP0 TP2 EP0") or a vLLM process tag into the canonical rank name:
// "DP0_TP2_EP0", "Worker_TP0", "EngineCore_DP0", "APIServer", "Worker-1234" (untagged worker by
// pid), "gpu0" (SGLang 2024 `[gpu_id=0]`).
std::string CanonicalRank(std::string_view tag);

}  // namespace spinup
