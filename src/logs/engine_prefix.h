// The engines' own line prefixes (SGLang, vLLM, TGI, TensorRT-LLM, Python logging): pure
// parsers over untrusted text, used by ParseLine (line_parser.cc) after the wrappers are gone.
#pragma once

#include <string_view>

#include "logs/line_parser.h"

namespace spinup {

// Consumes one engine prefix at the start of `msg` (time, rank tags, level); true when one was
// found, with `p` updated and `msg` advanced past it.
bool ParseEnginePrefix(std::string_view& msg, ParsedLine& p);

// TGI's tracing target after its level: the launcher, router and client crates, maybe inside a
// span, then maybe the Rust source location. Returns the message after all of it.
std::string_view StripTgiTarget(std::string_view rest, size_t after_level);

// TGI prints its span's fields after the message ("Shard ready in 20.1s rank=0"): the shard's
// name ("shard0", as its rules name it) when the message ends in " rank=N", else "".
std::string TgiSpanRank(std::string_view msg);

}  // namespace spinup
