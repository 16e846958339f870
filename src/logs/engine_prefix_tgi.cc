// TGI's tracing fields around a message (engine_prefix.h): its target, an HTTP handler's span,
// the shard's rank after the message.
#include <string>

#include "logs/engine_prefix.h"
#include "logs/text_scan.h"

namespace spinup {

using scan::IsDigit;

bool StartsWithTgiSpan(std::string_view after_level) {
  return after_level.starts_with("download: ") || after_level.starts_with("shard-manager: ");
}

// TGI's router instruments each HTTP handler with a span named after it; a line logged inside one
// starts "generate{parameters=...}:" or "chat_completions{total_time=...}:generate_stream{...}:".
bool IsTgiRequestSpan(std::string_view after_level) {
  static constexpr std::string_view kHandlers[] = {
      "generate{",    "generate_stream{",      "compat_generate{", "chat_completions{",
      "completions{", "vertex_compatibility{", "tokenize{",        "embed{"};
  for (std::string_view h : kHandlers) {
    if (after_level.substr(0, h.size()) == h) return true;
  }
  return false;
}

namespace {

// A span's or another crate's name alone before the message ("download: Successfully downloaded
// weights", "shard-manager: Starting shard rank=0", "hf_hub: Token file not found"): lower-case,
// no blanks, then ": ". At most two.
std::string_view StripSpanNames(std::string_view msg) {
  for (int k = 0; k < 2; ++k) {
    size_t i = 0;
    while (i < msg.size() && i < 40 &&
           ((msg[i] >= 'a' && msg[i] <= 'z') || IsDigit(msg[i]) || msg[i] == '_' || msg[i] == '-'))
      ++i;
    if (i == 0 || i + 2 > msg.size() || msg[i] != ':' || msg[i + 1] != ' ' || IsDigit(msg[0]))
      break;
    msg.remove_prefix(i + 2);
  }
  return msg;
}

}  // namespace

// TGI's tracing target: the launcher, router and client crates ("text_generation_router::server:
// "), maybe inside a span ("warmup{...}:warmup: text_generation_client: "), then maybe the Rust
// source location ("router/src/server.rs:1597: "). All of it is prefix.
std::string_view StripTgiTarget(std::string_view rest, size_t after_level) {
  size_t tl = rest.find("text_generation_");
  if (tl == std::string_view::npos || tl > 512) return StripSpanNames(rest.substr(after_level));
  size_t colon = rest.find(": ", tl);
  if (colon == std::string_view::npos) return rest.substr(after_level);
  std::string_view msg = rest.substr(colon + 2);
  // "router/src/server.rs:1597: " (no spaces, ".rs:" then digits).
  size_t rs = msg.find(".rs:");
  size_t sp = msg.find(' ');
  if (rs != std::string_view::npos && rs < sp) {
    size_t d = rs + 4;
    while (d < msg.size() && IsDigit(msg[d])) ++d;
    if (d > rs + 4 && msg.substr(d, 2) == ": ") msg = msg.substr(d + 2);
  }
  return msg;
}

std::string TgiSpanRank(std::string_view msg) {
  size_t d = msg.size();
  while (d > 0 && IsDigit(msg[d - 1]) && msg.size() - d < 6) --d;
  if (d == msg.size() || d < 6 || msg.substr(d - 6, 6) != " rank=") return {};
  return "shard" + std::string(msg.substr(d));
}

}  // namespace spinup
