// Logs of several programs: `docker compose logs` of a stack, an unfiltered journal, `kubectl logs
// --all-containers --prefix`. Their wrappers name the program of each line; a web UI's uvicorn
// start, a proxy's access line or another service's crash is not the server's.
#include <algorithm>
#include <string>
#include <vector>

#include "base/ascii.h"
#include "logs/log_stream.h"
#include "logs/systemd_message.h"
#include "logs/text_scan.h"

namespace spinup {
namespace {

constexpr size_t kMaxSources = 32;

// A name holding a word of `words` (lowercase substrings of program names, knowledge.h).
bool HoldsAWord(std::string_view lower, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return lower.find(w) != std::string_view::npos; });
}

// The kernel's and the service manager's own lines are facts about every program (an OOM kill, a
// unit's exit), not one program's.
bool SpeaksForEveryProgram(std::string_view name) {
  return name == "kernel" || IsSystemdIdent(name);
}

// Compose's own line about a container, "whisper-1 exited with code 3": the container's name.
std::string_view ExitedContainer(std::string_view msg) {
  if (msg.size() > 160 || msg.empty() || msg.back() < '0' || msg.back() > '9') return {};
  // The name has no blank: the words follow the line's first one (a search from there only).
  const size_t at = scan::FindByte(msg, ' ');
  if (at == std::string_view::npos || at == 0 || !msg.substr(at).starts_with(" exited with code "))
    return {};
  return msg.substr(0, at);
}

}  // namespace

LogStream::SourceSeen* LogStream::NoteSource(std::string_view name) {
  for (SourceSeen& s : sources_) {
    if (s.name == name) return &s;
  }
  if (sources_.size() >= kMaxSources) return nullptr;
  SourceSeen s;
  s.name = std::string(name);
  const std::string lower = AsciiLower(name.substr(0, 128));
  // A name that says it runs an engine ("vllm-1", "sglang-router") is never another's, even
  // before its first engine line: an outer wrapper's name over an inner one that failed to parse
  // may be the only name a line has. A known other program (a web UI, a proxy) is another's from
  // its first line, which may come before the server's first.
  const ProgramWords& words = rules_.knowledge().programs;
  s.engine_name = HoldsAWord(lower, words.engines);
  s.other = !s.engine_name && HoldsAWord(lower, words.others);
  sources_.push_back(std::move(s));
  return &sources_.back();
}

// True for a line of another program than the server: its name says so, or another program
// already printed the engine's lines and this one never did. A program becomes the server's with
// its first line in an engine's format or matching an engine's own rule (matched_).
bool LogStream::OtherProgramsLine(const ParsedLine& p, std::string_view msg,
                                  std::optional<int64_t> t) {
  // Compose's note that a container exited names the container, whatever wraps the note.
  if (const std::string_view exited = ExitedContainer(msg); !exited.empty()) {
    SourceSeen* s = NoteSource(exited);
    if (s == nullptr || IsOther(*s)) return s != nullptr;
    s->exited = true;
    return false;
  }
  const std::string_view name = p.source;
  if (name.empty() || SpeaksForEveryProgram(name)) return false;
  SourceSeen* s = NoteSource(name);
  if (s != nullptr && s->exited) {
    // Compose printed its exit, and it prints again: its restart policy started it anew.
    s->exited = false;
    Emit(ResetEvent(LogEvent::Kind::kAttemptStart, t, p.rank, "compose.restarted",
                    msg.substr(0, std::min(msg.size(), opt_.max_text_bytes))));
  }
  if (s == nullptr || s->server) return false;
  if (s->other) return true;
  // An engine's rule that tells engines apart (`detect`): uvicorn's "Application startup
  // complete." is in every engine's rules, and a web UI prints it too.
  const auto& rules = rules_.rules();
  const bool engine_line = !EngineOfStyle(p.style).empty() ||
                           std::any_of(matched_.begin(), matched_.end(), [&](int idx) {
                             const auto i = static_cast<size_t>(idx);
                             return generic_[i] == 0 && rules[i].detect;
                           });
  if (engine_line) {
    s->server = true;
    server_source_known_ = true;
    return false;
  }
  return !s->engine_name && server_source_known_;
}

// Another program's, as far as the log has shown: named so, or silent in the engine's formats while
// another program printed them.
bool LogStream::IsOther(const SourceSeen& s) const {
  return !s.server && !s.engine_name && (s.other || server_source_known_);
}

// A unit systemd speaks of ("open-webui.service: Main process exited") that is another program's:
// its name says so, or journald showed that program's lines and they were not the server's.
bool LogStream::OtherProgramsUnit(std::string_view unit, std::string_view message) {
  if (unit.empty()) {
    // "Starting nginx.service - A high performance web server..." (systemd 250 and later name the
    // unit their start lines speak of; older ones give its description only).
    for (std::string_view verb :
         {"Starting ", "Started ", "Stopping ", "Stopped ", "Failed to start "}) {
      if (!message.starts_with(verb)) continue;
      const std::string_view word =
          message.substr(verb.size(), message.find(' ', verb.size()) - verb.size());
      if (word.ends_with(".service") || word.ends_with(".service...")) unit = word;
      break;
    }
    if (unit.empty()) return false;
  }
  const std::string_view name = unit.substr(0, unit.find('.'));
  for (const SourceSeen& s : sources_) {
    if (s.name == name) return IsOther(s);
  }
  const std::string lower = AsciiLower(name.substr(0, 128));
  const ProgramWords& words = rules_.knowledge().programs;
  return !HoldsAWord(lower, words.engines) && HoldsAWord(lower, words.others);
}

}  // namespace spinup
