// LogStream, from the rules a line matched to its events: engine detection, noise, each matched
// rule's event with its captures (log_stream.cc reads the lines; log_stream_paste.cc the pastes).
#include <algorithm>

#include "base/assign.h"
#include "logs/line_parser.h"
#include "logs/log_stream.h"
#include "logs/server_port.h"

namespace spinup {
namespace {

// Engine names are short: a size check and a byte loop beat a memcmp call per matched rule.
bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

LogEvent::Kind KindOf(RuleEmit e) {
  switch (e) {
    case RuleEmit::kPhaseBegin:
      return LogEvent::Kind::kPhaseBegin;
    case RuleEmit::kPhaseEnd:
      return LogEvent::Kind::kPhaseEnd;
    case RuleEmit::kProgress:
      return LogEvent::Kind::kProgress;
    case RuleEmit::kError:
      return LogEvent::Kind::kError;
    case RuleEmit::kFatal:
      return LogEvent::Kind::kFatal;
    case RuleEmit::kAttemptStart:
      return LogEvent::Kind::kAttemptStart;
    case RuleEmit::kReady:
    case RuleEmit::kEngineReady:
      return LogEvent::Kind::kReady;
    case RuleEmit::kRequestServed:
      return LogEvent::Kind::kRequestServed;
    case RuleEmit::kHeartbeat:
      return LogEvent::Kind::kHeartbeat;
    case RuleEmit::kFrame:
      return LogEvent::Kind::kFrame;
    case RuleEmit::kRestarts:
      return LogEvent::Kind::kRestarts;
    case RuleEmit::kStop:
      return LogEvent::Kind::kStop;
    case RuleEmit::kForeign:
      return LogEvent::Kind::kForeign;
    case RuleEmit::kInfo:
    case RuleEmit::kNoise:
    case RuleEmit::kHint:
      return LogEvent::Kind::kInfo;
  }
  return LogEvent::Kind::kInfo;
}

bool IsQuietLevel(std::string_view level) {
  return level == "INFO" || level == "WARNING" || level == "WARN" || level == "DEBUG" ||
         level == "TRACE" || level == "NOTICE" || level == "I" || level == "W" || level == "D";
}

}  // namespace

// Pass 1 over the matched rules: engine detection; false when the line is noise. `fatal` says
// whether a fatal rule matched (its error rules are then not reported twice).
bool LogStream::FirstPass(bool* fatal) {
  *fatal = false;
  foreign_ = -1;
  noise_ = -1;
  echo_ = -1;
  pinned_error_ = -1;
  const auto& all = rules_.rules();
  DropCancelled();
  for (int idx : matched_) {
    const LogRule& r = all[static_cast<size_t>(idx)];
    const bool generic = generic_[static_cast<size_t>(idx)] != 0;
    if (!generic && !engine_forced_ && r.detect && engine_strength_ < 2) {
      engine_ = r.engine;
      ++engine_epoch_;
      engine_strength_ = 2;
      match_subset_ = rules_.EngineSubset(engine_);
    }
    if (!generic && !engine_.empty() && !SameName(r.engine, engine_)) continue;
    if (r.emit == RuleEmit::kNoise) {
      noise_ = idx;
      return false;
    }
    if (r.emit == RuleEmit::kFatal) *fatal = true;
    if (r.emit == RuleEmit::kForeign && foreign_ < 0) foreign_ = idx;
    if (r.echo && echo_ < 0) echo_ = idx;
    if (r.emit == RuleEmit::kError && r.pin && r.phase && pinned_error_ < 0) pinned_error_ = idx;
  }
  return true;
}

// A line that denies what other rules' matches assert ("the pod was not OOMKilled"): those
// matches do not count (LogRule::cancels). The matched set is the cached one of this message, so
// the next copy of the line finds it already without them.
void LogStream::DropCancelled() {
  const auto& all = rules_.rules();
  for (size_t i = 0; i < matched_.size(); ++i) {
    const int self = matched_[i];
    if (std::find(cancelling_.begin(), cancelling_.end(), self) == cancelling_.end()) continue;
    const std::vector<std::string>& cancels = all[static_cast<size_t>(self)].cancels;
    std::erase_if(matched_, [&](int idx) {
      const std::string& id = all[static_cast<size_t>(idx)].id;
      return idx != self && std::any_of(cancels.begin(), cancels.end(), [&](const std::string& k) {
               return id == k || (k.ends_with('.') && id.starts_with(k));
             });
    });
    i = static_cast<size_t>(std::find(matched_.begin(), matched_.end(), self) - matched_.begin());
  }
}

// A matched rule whose event the line does not give: another engine's, another program's line or
// address, a client's echo; the server's launch port is noted, not told.
bool LogStream::PassesOver(const LogRule& r, int idx, std::string_view msg) {
  if (!generic_[static_cast<size_t>(idx)] && !engine_.empty() && !SameName(r.engine, engine_)) {
    return true;
  }
  if (r.emit == RuleEmit::kForeign || (echo_ >= 0 && idx != echo_)) return true;
  if (idx == server_port_rule_) {
    NoteServerPort(msg);
    return true;
  }
  if (idx == log_follow_rule_) {
    following_log_ = true;
    return true;
  }
  if (idx == launch_prompt_rule_) following_log_ = false;
  return AnotherServersAddress(r, msg);
}

// The ports the paste's servers were launched on (their arguments): up to a few, one per server
// in a paste of several (compose's chat and embedding services).
void LogStream::NoteServerPort(std::string_view msg) {
  const std::optional<int> port = LaunchArgPort(msg);
  if (!port || std::find(server_ports_.begin(), server_ports_.end(), *port) != server_ports_.end())
    return;
  if (server_ports_.size() >= 4) server_ports_.erase(server_ports_.begin());
  server_ports_.push_back(*port);
}

// A ready line that names an address on a port no server in the paste was launched on is
// another program's listening (LiteLLM's or Open WebUI's Uvicorn beside vLLM's): not the start's.
// So is a bind error on such a port (Ray's dashboard on 8265, quoted in Ray's warning).
bool LogStream::AnotherServersAddress(const LogRule& r, std::string_view msg) const {
  if (server_ports_.empty()) return false;
  const bool up = r.emit == RuleEmit::kReady || r.emit == RuleEmit::kEngineReady ||
                  (r.emit == RuleEmit::kPhaseEnd && r.phase == Phase::kHttpStart);
  const bool failed = r.emit == RuleEmit::kFatal || r.emit == RuleEmit::kError;
  if (!up && !failed) return false;
  const std::optional<int> port = up ? UrlPort(msg) : BindTuplePort(msg);
  return port &&
         std::find(server_ports_.begin(), server_ports_.end(), *port) == server_ports_.end();
}

// A noise line's facts its rule keeps (LogRule::keep): info events, nothing else.
void LogStream::EmitKeptFacts(const ParsedLine& p, std::string_view text,
                              std::optional<int64_t> t) {
  const auto& all = rules_.rules();
  const std::vector<std::string>& keep = all[static_cast<size_t>(noise_)].keep;
  if (keep.empty()) return;
  for (int idx : matched_) {
    const LogRule& r = all[static_cast<size_t>(idx)];
    if (r.emit != RuleEmit::kInfo) continue;
    if (!generic_[static_cast<size_t>(idx)] && !engine_.empty() && !SameName(r.engine, engine_)) {
      continue;  // another engine's rule, as in EmitRuleEvents
    }
    const bool kept = std::any_of(keep.begin(), keep.end(), [&](const std::string& k) {
      return r.id == k || (k.ends_with('.') && r.id.starts_with(k));
    });
    if (kept) Emit(ResetEvent(LogEvent::Kind::kInfo, t, p.rank, r.id, text));
  }
}

// The rules the stream treats by their index (found once: it asks of every matched rule).
void LogStream::NoteRuleWithARole(const LogRule& r, int idx) {
  if (r.id == "generic.traceback") traceback_rule_ = idx;
  if (r.id == kServerPortRule) server_port_rule_ = idx;
  if (r.id == kLogFollowRule) log_follow_rule_ = idx;
  if (r.id == kLaunchPromptRule) launch_prompt_rule_ = idx;
  if (!r.cancels.empty()) cancelling_.push_back(idx);
}

void LogStream::ReadProse(std::string_view sentence) {
  const int subset = rules_.ProseSubset();
  if (subset < 0) return;
  rules_.Match(sentence, &prose_matched_, subset);
  for (int idx : prose_matched_) {
    const LogRule& r = rules_.rules()[static_cast<size_t>(idx)];
    if (r.prose) Emit(ResetEvent(LogEvent::Kind::kInfo, std::nullopt, "", r.id, sentence));
  }
}

// The rule's capture groups into the event: rank, bar name, n, total, elapsed.
void LogStream::FillCaptures(const LogRule& r, int idx, std::string_view msg, LogEvent& e) {
  int groups = std::max({r.rank_group, r.bar_group, r.n_group, r.total_group, r.elapsed_group});
  if (groups <= 0) return;
  re2::StringPiece sub[8];
  int n = std::min(groups + 1, 8);
  if (!rules_.regex(idx).Match(re2::StringPiece(msg.data(), msg.size()), 0, msg.size(),
                               RE2::UNANCHORED, sub, n)) {
    return;
  }
  auto cap = [&](int g) -> std::string_view {
    if (g <= 0 || g >= n || sub[g].data() == nullptr) return {};
    return std::string_view(sub[g].data(), sub[g].size());
  };
  auto to_i = [](std::string_view v) {
    int64_t x = 0;
    for (char c : v) {
      if (c >= '0' && c <= '9' && x < (int64_t{1} << 52)) x = x * 10 + (c - '0');
    }
    return x;
  };
  if (!cap(r.rank_group).empty()) {
    e.rank = r.rank_prefix + CanonicalRank(cap(r.rank_group));
    e.rank_from_message = true;
  }
  if (!cap(r.bar_group).empty()) e.bar.assign(cap(r.bar_group).substr(0, 200));
  if (!cap(r.n_group).empty()) e.progress_n = to_i(cap(r.n_group));
  if (!cap(r.total_group).empty()) e.progress_total = to_i(cap(r.total_group));
  if (!cap(r.elapsed_group).empty()) {
    std::string v(cap(r.elapsed_group).substr(0, 32));
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end != v.c_str() && d >= 0 && d < 1e9) e.elapsed_seconds = d;
  }
}

// Pass 2: one event per matched rule of this engine. Sets *any when a rule said something,
// *named when one that is not a cause's pattern did, and *progress when a bar was read.
constexpr size_t kMaxBannerBytes = 16384;

void LogStream::EmitRuleEvents(const ParsedLine& p, std::string_view msg, std::string_view text,
                               std::optional<int64_t> t, bool fatal, bool* any, bool* named,
                               bool* progress) {
  const auto& all = rules_.rules();
  // Another program's exception: said first, so that the tracker knows whose the line's errors
  // are before they come (a server's own download raises a client library's exception too).
  if (foreign_ >= 0 && echo_ < 0) {
    Emit(ResetEvent(LogEvent::Kind::kForeign, t, p.rank, all[static_cast<size_t>(foreign_)].id,
                    text));
    *any = true;  // not a name: an ERROR line of the server's saying it is still its error
  }
  for (int idx : matched_) {
    const LogRule& r = all[static_cast<size_t>(idx)];
    if (PassesOver(r, idx, msg)) continue;
    // One decisive line, not two: beside a fatal rule an error rule's match is evidence only (a
    // cause may need it: "exited with code 137" is both a container's death and a SIGKILL). So is a
    // C++ stack's line under a warning that logged it.
    const bool evidence_only = (fatal || stack_of_warning_) && r.emit == RuleEmit::kError;
    LogEvent& e =
        ResetEvent(evidence_only ? LogEvent::Kind::kInfo : KindOf(r.emit), t, p.rank, r.id, text);
    if (!evidence_only) {
      e.phase = r.phase;
      e.pinned = r.pin;
      // A death whose own rule names no phase, on a line an error rule places (Triton's "failed to
      // load 'preprocessing'", which another engine's rule reads as fatal): placed there.
      if (r.emit == RuleEmit::kFatal && !r.phase && pinned_error_ >= 0) {
        e.phase = all[static_cast<size_t>(pinned_error_)].phase;
        e.pinned = true;
      }
      e.answer = r.answer;
      e.while_serving = r.serving;
      e.node_ready = r.node_ready;
      e.in_process = r.in_process;
      e.role = r.role;
    }
    e.quiet_level = IsQuietLevel(p.level) || under_warning_;
    // A launch banner, a rare line, is read whole (SGLang's server_args names node_rank late).
    if (r.emit == RuleEmit::kAttemptStart) AssignBytes(e.text, msg.substr(0, kMaxBannerBytes));
    // A restarts rule with no count ("Back-off restarting failed container") says the service has
    // been restarted at least once.
    if (r.emit == RuleEmit::kRestarts && r.n_group == 0) e.progress_n = 1;
    e.engine_only = r.emit == RuleEmit::kEngineReady;
    // An engine's own frame names a phase in that engine's terms: not before the engine is known.
    if (r.emit == RuleEmit::kFrame && !generic_[static_cast<size_t>(idx)] && engine_.empty())
      continue;
    FillCaptures(r, idx, msg, e);
    // One whose "total" counts failed starts (Ray Serve: "failed to start 3 times in a row") has
    // restarted one time fewer.
    if (r.emit == RuleEmit::kRestarts && r.total_group != 0 && e.progress_total > 1) {
      e.progress_n = e.progress_total - 1;
    }
    if (r.emit == RuleEmit::kHint) e.kind = LogEvent::Kind::kInfo;
    if (r.emit == RuleEmit::kProgress) {
      if (e.bar.empty()) e.bar = r.bar;
      if (r.n_group == 0) {
        auto bar = ParseLastTqdm(msg);
        if (!bar) {
          // A bar's name without a reading (its counts cut or mangled by whatever carried the
          // log) still says which phase is running: a line of it, not progress.
          if (!r.phase) continue;
          e.kind = LogEvent::Kind::kInfo;
          *any = *named = true;
          Emit(e);
          continue;
        }
        e.progress_n = bar->n;
        e.progress_total = bar->total;
        if (e.bar.empty()) e.bar.assign(bar->bar);
        e.elapsed_seconds = bar->elapsed_s;
      }
      *progress = true;
      // The same reading again is no progress: unless another rule names the line, it is
      // activity (its time still says the log went on: a frozen bar redrawn under a stamp).
      if (!NewBarValue(e.bar, e.progress_n, e.progress_total, e.elapsed_seconds)) continue;
      *any = *named = true;
    }
    *any = true;
    if (generic_[static_cast<size_t>(idx)] != 2) *named = true;
    Emit(e);
  }
}

}  // namespace spinup
