// The engines' own line prefixes (SGLang, vLLM, TGI, TensorRT-LLM, Python logging): pure
// parsers over untrusted text, used by ParseLine (line_parser.cc) after the wrappers are gone.
#pragma once

#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

// Consumes one engine prefix at the start of `msg` (time, rank tags, level); true when one was
// found, with `p` updated and `msg` advanced past it.
bool ParseEnginePrefix(std::string_view& msg, ParsedLine& p);

// "MM<sep>DD<sep>YYYY HH:MM:SS[.frac]" at s[0] (TensorRT-LLM's C++ logger with '-', a US locale's
// date with '/'): fills t and returns the index after the time, or npos.
size_t ParseMonthFirstDateTime(std::string_view s, char sep, CivilTime& t);

// glog's prefix at msg[0] ("I0501 01:00:00.245480 100348 model_lifecycle.cc:818] "), Triton's ISO
// 8601 variant after its leading stamp was read ("I 1 model_lifecycle.cc:839] "), and PyTorch's
// bracketed one whose "]" is at msg[close] ("[W1009 03:00:55.123624934 socket.cpp:752] "): true
// with `p` updated and `msg` advanced past it.
bool ParseGlog(std::string_view& msg, ParsedLine& p);
bool ParseGlogIsoTail(std::string_view& msg, ParsedLine& p);
bool ParseBracketGlog(std::string_view& msg, size_t close, ParsedLine& p);

// Python logging's prefixes: "2025-03-03 18:46:45,039 - INFO - name: msg", "... - app.proc - INFO
// - msg", "2025-03-03 18:46:45,039 INFO msg"; an engine's own prefix in what follows is read too
// (an application relaying the engine's lines). True with `p` updated and `msg` advanced.
bool ParsePythonLogging(std::string_view& msg, ParsedLine& p);

// TGI's tracing target after its level: the launcher, router and client crates, maybe inside a
// span, then maybe the Rust source location. Returns the message after all of it.
std::string_view StripTgiTarget(std::string_view rest, size_t after_level);

// Whether a TGI line's message (after its level) opens with one of the launcher's span names
// alone ("download: ", "shard-manager: "), as a log whose tracing target was cut prints it.
bool StartsWithTgiSpan(std::string_view after_level);

// Whether a TGI line (after its level) was logged inside an HTTP handler's span
// ("generate{parameters=...}:", "chat_completions{...}:generate_stream{...}:"): a client's
// request, not the server's own work.
bool IsTgiRequestSpan(std::string_view after_level);

// TGI prints its span's fields after the message ("Shard ready in 20.1s rank=0"): the shard's
// name ("shard0", as its rules name it) when the message ends in " rank=N", else "".
std::string TgiSpanRank(std::string_view msg);

// Length of an SGR colour code that lost its ESC byte at s[i] ("[2m", "[1;36m", caret notation
// "^[[0m"), 0 when there is none.
size_t SgrRemnantAt(std::string_view s, size_t i);

// A line with such a remnant near its start (maybe after a wrapper's prefix) was coloured
// throughout (TGI colours its time, level, target and span fields): writes it without any of them
// to *out and returns true; false (and *out untouched) when there is none in its first 48 bytes.
bool StripSgrRemnants(std::string_view line, std::string* out);

}  // namespace spinup
