// The words of a verdict: the headline, the evidence lines and what the evidence cannot tell.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/duration.h"
#include "diagnose/judge_steps.h"
#include "diagnose/rank_format.h"
#include "logs/rich_traceback.h"

namespace spinup::judge {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string Upper(std::string_view s) {
  std::string out(s);
  for (auto& ch : out) {
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
    if (ch == '_') ch = ' ';
  }
  return out;
}

// " on TP0–TP3" for the ranks in the judged phase (tagged ranks win over the main process).
std::string Where(const Context& c, Phase phase) {
  if (c.attempt == nullptr) return "";
  std::vector<std::string> in_phase, tagged;
  for (const auto& r : c.attempt->ranks) {
    if (r.phase != phase) continue;
    in_phase.push_back(r.rank);
    if (!r.rank.empty()) tagged.push_back(r.rank);
  }
  if (in_phase.size() > 1 && !tagged.empty()) in_phase = tagged;
  if (in_phase.empty() || (in_phase.size() == 1 && in_phase[0].empty())) return "";
  return " on " + FormatRanks(in_phase);
}

// Where a start died: on the first rank that failed, where the tracker knows it (a worker's
// exception while its peers go on, the API server's after the engine came up); else on the ranks
// still in the phase.
std::string FailedOn(const Context& c, const std::string& in_phase) {
  const AttemptFacts& a = *c.attempt;
  const std::string& failed = a.failing_rank.empty() ? a.unplaced_rank : a.failing_rank;
  return failed.empty() ? in_phase : " on " + FormatRanks({failed});
}

// Lines that announce an error without saying it: a traceback's header, a launcher's summary.
bool AnnouncesOnly(std::string_view e) {
  static constexpr std::string_view kHeaders[] = {
      "Traceback (most recent call last)", "(most recent call first)", "hit an exception",
      "ShardCannotStart", "check if there are relevant logs"};
  return std::any_of(std::begin(kHeaders), std::end(kHeaders),
                     [&](std::string_view h) { return e.find(h) != std::string_view::npos; });
}

// Lines that point at an error printed elsewhere ("see root cause above", a process that "failed
// to start" or died, a usage error's "For more information, try '--help'"): the error itself,
// where the log has it, says more.
bool PointsElsewhere(std::string_view e) {
  static constexpr std::string_view kPointers[] = {
      "failed to start", "See root cause above", "See stack trace", "see stack trace",
      "died unexpectedly", "scheduler is dead", "remote process exited",
      "Engine core initialization failed", "try '--help'", "try --help",
      // (Triton: a model that waited on the one that failed to load)
      "which has no loaded version"};
  return std::any_of(std::begin(kPointers), std::end(kPointers),
                     [&](std::string_view p) { return e.find(p) != std::string_view::npos; });
}

bool ExceptionShaped(std::string_view e) {
  return QualifiedException(e) || e.find("Error: ") != std::string_view::npos ||
         // (an abort is what something else ended in: "terminate called", a watchdog)
         (e.find("Fatal Python error: ") != std::string_view::npos &&
          e.find("Fatal Python error: Aborted") == std::string_view::npos) ||
         e.find("Exception: ") != std::string_view::npos ||
         e.find("out of memory") != std::string_view::npos ||
         // an OSError's text without its name (uvicorn's "ERROR:    [Errno 98] error while ...")
         e.find("[Errno ") != std::string_view::npos ||
         // a command line's usage error (argparse's "prog: error: ", clap's "error: ")
         e.find(": error: ") != std::string_view::npos || e.starts_with("error: ");
}

// A multi-line message kept as one line (a launcher's copy of a child's stderr, a JSON log's
// message), its lines joined by " | ": where it holds a traceback, the exception at its end is what
// it says.
std::string_view Said(std::string_view e) {
  if (e.find("Traceback (most recent call last)") == std::string_view::npos) return e;
  const size_t bar = e.rfind(" | ");
  if (bar == std::string_view::npos) return e;
  std::string_view last = e.substr(bar + 3);
  while (!last.empty() && last.back() == ' ') last.remove_suffix(1);
  return ExceptionShaped(last) ? last : e;  // not a frame line where the copy was cut
}

// The error the headline quotes, latest first: an exception that is the error itself, then one
// whose words point elsewhere, then any line that says something and is no relay's (a relay rule
// gave it: a parent saying a child failed), then the latest line.
std::string QuotedError(const std::vector<std::string>& errors,
                        const std::vector<std::string>& relayed) {
  auto relay = [&](std::string_view e) {
    return std::find(relayed.begin(), relayed.end(), e) != relayed.end();
  };
  // A row of a status table (Triton's models, "| tensorrt_llm | 1 | UNAVAILABLE: ... |") is cut
  // to the column's width: the line it summarises says it whole.
  auto elsewhere = [&](std::string_view e) {
    return PointsElsewhere(e) || relay(e) || (e.size() > 2 && e.front() == '|' && e.back() == '|');
  };
  std::string quoted = errors.empty() ? "" : errors.back();
  auto pick = [&](auto&& accept) {
    for (auto it = errors.rbegin(); it != errors.rend(); ++it) {
      const std::string_view said = relay(*it) ? std::string_view(*it) : Said(*it);
      if (!AnnouncesOnly(said) && accept(said)) {
        quoted = said;
        return true;
      }
    }
    return false;
  };
  pick([&](std::string_view e) { return ExceptionShaped(e) && !elsewhere(e); }) ||
      pick([](std::string_view e) { return ExceptionShaped(e) && PointsElsewhere(e); }) ||
      pick([&](std::string_view e) { return !elsewhere(e); });
  if (quoted.size() > 160) quoted = quoted.substr(0, 157) + "...";
  return quoted;
}

// `File "/x/srt/model_executor/model_runner.py", line 325, in load_model` as
// "load_model (model_executor/model_runner.py:325)": the function, its file's last two parts.
std::string ShortFrame(std::string_view frame) {
  const size_t open = frame.find('"');
  const size_t close = open == std::string_view::npos ? open : frame.find('"', open + 1);
  const size_t in = frame.rfind(", in ");
  const size_t line = frame.find(", line ");
  if (close == std::string_view::npos || in == std::string_view::npos ||
      line == std::string_view::npos || line > in) {
    return std::string(frame.substr(0, 120));
  }
  std::string_view path = frame.substr(open + 1, close - open - 1);
  const size_t last = path.rfind('/');
  if (last != std::string_view::npos && last > 0) {
    const size_t before = path.rfind('/', last - 1);
    if (before != std::string_view::npos) path.remove_prefix(before + 1);
  }
  return fmt::format("{} ({}:{})", frame.substr(in + 5, 80), path.substr(0, 80),
                     frame.substr(line + 7, in - line - 7));
}

// The pod's events say the kubelet killed a container for failing its liveness or startup probe
// ("Container vllm failed liveness probe, will be restarted"), as a line or its repeat count.
bool KilledByItsProbe(const Context& c) {
  return std::any_of(c.st.attempts.begin(), c.st.attempts.end(), [](const AttemptFacts& a) {
    return a.hits.count("generic.probe_kill") != 0 || a.hits.count("generic.k8s_probe_kills") != 0;
  });
}

std::string CrashHeadline(const Context& c, const Verdict& v, const std::string& where) {
  // A loop judged between turns quotes the latest attempt that has errors.
  const AttemptFacts* quoted = c.attempt;
  for (auto it = c.st.attempts.rbegin(); quoted->errors.empty() && it != c.st.attempts.rend();
       ++it) {
    quoted = &*it;
  }
  const std::string ph(PhaseName(v.phase));
  std::string h;
  const bool ended =
      c.attempt->crashed || c.attempt->error_after_progress || c.attempt->ended_by_record;
  const bool next_starting = !ended;
  if (v.state == State::kCrashLoop && (c.between_turns || next_starting)) {
    // A supervisor's restart counter tells of attempts the log does not show.
    const int crashed = std::max(c.st.crashed_attempts, c.crashed_before);
    const int attempts = std::max(c.st.total_attempts, crashed + 1);
    // (Where the log ends at systemd's "Scheduled restart job", that start has not begun.)
    const bool scheduled = c.attempt->restart_scheduled && c.attempt->lines == 0;
    h = fmt::format("CRASH LOOP: {} attempts, {} crashed; attempt {} {}", attempts, crashed,
                    attempts,
                    c.attempt->stopped ? "was stopped"
                    : scheduled        ? "is scheduled"
                                       : "is starting");
  } else if (v.state == State::kCrashLoop) {
    const int crashed = std::max(c.st.crashed_attempts, c.crashed_before + (ended ? 1 : 0));
    h = fmt::format("CRASH LOOP: {} attempts, {} crashed; the last in {}{}",
                    std::max(c.st.total_attempts, crashed), crashed, ph, where);
  } else {
    h = fmt::format("CRASHED in {}{}", ph, where);
  }
  // A line the judge put first that no attempt logged as an error (the kubelet's eviction, which
  // names the resource) is what ended the start: it is the quote.
  const bool judged_first =
      !v.errors.empty() && std::find(quoted->errors.begin(), quoted->errors.end(),
                                     v.errors.front()) == quoted->errors.end();
  std::string_view judged = judged_first ? std::string_view(v.errors.front()) : "";
  while (!judged.empty() && (judged.front() == ' ' || judged.front() == '\t'))
    judged.remove_prefix(1);
  const std::string first = judged_first ? std::string(judged.substr(0, 160))
                                         : QuotedError(quoted->errors, quoted->relayed);
  if (!first.empty()) {
    h += ": " + first;
  } else if (c.attempt->ended_by_record && KilledByItsProbe(c)) {
    h += ": the kubelet killed its container for failing its health probe (the pod's events)";
  } else if (c.attempt->ended_by_record) {
    h += ": its container ended without a line saying why (a record beside the log says it ended)";
  }
  // An excerpt that ends inside the traceback it quotes the header of: where it stops.
  if (quoted == c.attempt && !c.opt.open_traceback_frame.empty() &&
      first.ends_with("Traceback (most recent call last):")) {
    h += " (the log ends inside it, at " + ShortFrame(c.opt.open_traceback_frame) + ")";
  }
  return h;
}

std::string ReadyHeadline(const Context& c, const Verdict& v) {
  const AttemptFacts& a = *c.attempt;
  std::optional<int64_t> start = a.start_ms ? a.start_ms : a.first_ms;
  std::optional<int64_t> ready_at;
  for (const auto& s : a.timeline) {
    if (s.phase == Phase::kReady) ready_at = s.start_ms;
  }
  const bool engine_up = !a.ready && a.http_after_engine_ready;
  if (engine_up && !ready_at) ready_at = a.engine_ready_ms;  // its span is the HTTP start's now
  std::string h = a.ready || engine_up
                      ? "READY"
                      : "READY: the port is listening and the health probe answered 200";
  if (start && ready_at && *ready_at > *start) {
    h += " after " + FormatDuration(Span(c, *start, *ready_at)) + " of log";
  }
  if (engine_up) h += " (the log ends as the engine's HTTP server starts)";
  // A start that came up after others failed: the failures are the rest of the story.
  if (c.crashed_before > 0) {
    h += c.crashed_before == 1
             ? "; an earlier start in the log crashed"
             : fmt::format("; {} earlier starts in the log crashed", c.crashed_before);
  }
  std::string slowest;
  double slowest_s = 0;
  bool slow = false;  // the slowest phase's own budget, not another phase's
  for (const auto& e : v.timeline) {
    if (e.seconds && *e.seconds > slowest_s && e.phase != Phase::kReady && !e.waiting) {
      slowest_s = *e.seconds;
      slowest = std::string(PhaseName(e.phase));
      slow = e.slow;
    }
  }
  if (!slowest.empty()) {
    h += fmt::format("; slowest phase {} ({})", slowest, FormatDuration(slowest_s));
    if (slow) h += ", over its budget";
  }
  // The start succeeded; what killed the server later is still worth the first line.
  if (a.died_after_ready && a.errors_at_ready < a.errors.size()) {
    // What it said after the server was up: an exception, chosen as a crash's quoted error is;
    // where none says what it died of, its first words, past a traceback's heading.
    const std::vector<std::string> after(
        a.errors.begin() + static_cast<ptrdiff_t>(a.errors_at_ready), a.errors.end());
    std::string said = QuotedError(after, a.relayed);
    if (!ExceptionShaped(said)) {
      for (const std::string& e : after) {
        if (e.find("Traceback (most recent call last)") != std::string::npos) continue;
        said = e;
        break;
      }
    }
    h += "; then died while serving: " + said;
  } else if (!a.died_after_ready && a.stopped) {
    h += "; then stopped";
  }
  return h;
}

std::string HeadlineWithoutPhase(const Context& c, const Verdict& v) {
  const double normal = v.budget_seconds.value_or(0);
  switch (v.state) {
    case State::kReady:
      return "READY: the port is listening and the health probe answered 200";
    case State::kCrashed:
      return "CRASHED before any startup phase line";
    case State::kStalled:
      if (!v.stalled_seconds) return "STALLED before any startup phase line (the report says so)";
      return fmt::format(
          "STALLED before any startup phase line: no progress signal for {}; normal is under {}",
          FormatDuration(*v.stalled_seconds), FormatDuration(normal));
    case State::kStarting:
      return "STARTING: no startup phase line yet";
    case State::kInProgress:
      return fmt::format("IN PROGRESS: {} started; the log ends before any startup phase line",
                         c.st.engine);
    default:
      return c.st.lines == 0 ? "UNKNOWN: the log is empty"
                             : "UNKNOWN: no line of a known engine was recognised";
  }
}

}  // namespace

void Describe(const Context& c, Verdict& v) {
  if (c.empty_attempt && !c.between_turns) {
    v.headline = HeadlineWithoutPhase(c, v);
    return;
  }
  const std::string ph(PhaseName(v.phase));
  const std::string where = Where(c, v.phase);
  const double normal = v.budget_seconds.value_or(0);
  switch (v.state) {
    case State::kStalled: {
      v.headline =
          fmt::format("STALLED in {}{} for {}; normal is under {}", ph, where,
                      FormatDuration(v.stalled_seconds.value_or(0)), FormatDuration(normal));
      const bool told_only = v.stalled_seconds.value_or(0) <= c.Budget(v.phase).stall_s;
      if (told_only) {
        // Only the report's writer says how long it sat there (ReportedStall).
        v.headline = fmt::format(
            "STALLED in {}{}: the log ends there, and {} longer than its phase's stall time; "
            "normal is under {}",
            ph, where,
            c.st.reported_wait_is_run ? "`time` says the command ran"
                                      : "the report says it sat there",
            FormatDuration(normal));
      }
      // (The log's own seconds in the phase say nothing beside a wait only the writer told.)
      if (!told_only && v.phase_seconds && v.stalled_seconds &&
          *v.phase_seconds > *v.stalled_seconds + 1) {
        v.headline += fmt::format(" (phase running {})", FormatDuration(*v.phase_seconds));
      }
      break;
    }
    case State::kCrashed:
    case State::kCrashLoop:
      v.headline = CrashHeadline(c, v, FailedOn(c, where));
      break;
    case State::kReady:
      v.headline = ReadyHeadline(c, v);
      break;
    case State::kStopped:
      v.headline =
          fmt::format("STOPPED in {}{}: a stop was asked for before the start finished", ph, where);
      if (c.crashed_before >= 1) {
        v.headline += fmt::format(" (after {} crashed start{})", c.crashed_before,
                                  c.crashed_before == 1 ? "" : "s");
      }
      break;
    case State::kInProgress:
      v.headline = fmt::format("IN PROGRESS: the log ends in {}{}", ph, where);
      if (v.phase_seconds && *v.phase_seconds >= 1) {
        v.headline += " after " + FormatDuration(*v.phase_seconds);
      }
      // The writer's own count of the wait, where it is longer than the log shows ("sitting on
      // this for ~18 minutes" below a JIT that may take 30): the time the verdict weighed.
      if (const std::optional<double> told = c.st.reported_wait_s;
          told && std::isfinite(*told) && *told > v.phase_seconds.value_or(0) + 60) {
        v.headline += fmt::format(" (the report says {} so far)", FormatDuration(*told));
      }
      v.headline += fmt::format("; normal is under {}", FormatDuration(normal));
      break;
    case State::kProgressing:
    case State::kSlow:
      v.headline = fmt::format("{} in {}{}", Upper(StateName(v.state)), ph, where);
      if (v.phase_seconds) v.headline += " for " + FormatDuration(*v.phase_seconds);
      v.headline += fmt::format("; normal is under {}", FormatDuration(normal));
      break;
    case State::kUnknown:  // (a supervisor's record of an end, and no line of the server's)
      v.headline = "UNKNOWN: no line of a known engine was recognised, only a record of an end";
      break;
    default:
      v.headline = Upper(StateName(v.state));
  }
}

namespace {

// What a person would gather by hand before calling a startup stuck (journalctl -n, top,
// nvidia-smi, wc -l on the log): each measured fact on one line.
void AddStallEvidence(const Context& c, Verdict& v) {
  const TrackerState& st = c.st;
  const auto& log_line = st.last_signal_ms[static_cast<size_t>(Signal::kLogLine)];
  if (log_line && c.now) {
    // (A stall the report tells of may end with the log's last line: no span of its own.)
    const double quiet = Span(c, *log_line, *c.now);
    if (quiet >= 1) v.evidence.push_back("no new log line for " + FormatDuration(quiet));
  } else if (st.lines == 0) {
    v.evidence.push_back("no log line read");
  }
  const ProcessFacts& f = st.process;
  if (f.sampled) {
    v.evidence.push_back(fmt::format("CPU {:.1f}% on {} process{}", f.cpu_cores * 100, f.processes,
                                     f.processes == 1 ? "" : "es"));
    if (f.threads > 0) {
      v.evidence.push_back(
          fmt::format("{} of {} threads in futex or poll wait", f.wait_threads, f.threads));
    }
    if (f.no_disk_reads) {
      v.evidence.push_back("no disk reads");
    } else if (f.read_bytes_per_s > 0) {
      v.evidence.push_back(fmt::format("reads {:.1f} MB/s", f.read_bytes_per_s / 1e6));
    }
    if (f.gpu_available && f.gpus > 0) {
      const double per_gpu = f.gpu_used_bytes / static_cast<double>(f.gpus) / kGiB;
      v.evidence.push_back(fmt::format("GPU memory {} at {:.1f} GiB per device",
                                       f.gpu_flat ? "flat" : "moving", per_gpu));
    } else if (!f.gpu_message.empty()) {
      v.evidence.push_back(f.gpu_message);
    }
    if (f.compiler_children) v.evidence.push_back("compiler child processes running");
  }
  if (c.attempt == nullptr) return;
  // "last line on TP0–TP3: Init torch distributed begin." — ranks grouped by their last line.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& r : c.attempt->ranks) {
    if (r.last_text.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == r.last_text; });
    if (it == groups.end()) {
      if (groups.size() >= 4) continue;
      groups.push_back({r.last_text, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(r.rank);
  }
  for (const auto& [text, ranks] : groups) {
    v.evidence.push_back("last line on " + FormatRanks(ranks) + ": " + text);
  }
}

void AddNotKnown(const Context& c, Verdict& v) {
  const AttemptFacts* a = c.attempt;
  if (c.empty_attempt && !c.between_turns && v.state != State::kReady) {
    v.not_known.push_back(
        "which phase the server reached: no startup phase line was recognised (try --engine or "
        "--rules, or give the server's log with --log)");
  }
  if (v.state == State::kInProgress && !c.empty_attempt) {
    v.not_known.push_back(fmt::format(
        "whether {} was still progressing: the log ends there with no sign of a stall (pass "
        "--now TIME to judge it at a given time)",
        PhaseName(v.phase)));
  }
  if (v.state == State::kCrashed && a != nullptr && a->errors.empty()) {
    v.not_known.push_back("the error itself: the log shows the process died but not why");
  }
  if (!c.opt.live) v.not_known.push_back("process, disk and GPU signals: only the log was read");
  if (v.state == State::kReady && a != nullptr && a->ready && !a->request_served &&
      std::none_of(a->hits.begin(), a->hits.end(), [](const auto& h) {
        return h.first.find("fired_up") != std::string::npos ||
               h.first.find("app_startup") != std::string::npos;
      })) {
    v.not_known.push_back(
        "whether the HTTP endpoint answered: the log ends at the engine's ready line");
  }
}

// "N start attempts in the log, M crashed". The last attempt's error after its last phase line
// ended it, as the headline counts it, though no later start marked it crashed. Turns a
// supervisor ended (a probe's kill, a restart counter) count as crashed in the headline; here only
// the ones that logged a crash, and the line says so.
std::string AttemptsInTheLog(const Context& c) {
  const TrackerState& st = c.st;
  const AttemptFacts* a = c.attempt;
  const bool last_ended = a != nullptr && !a->crashed && a->error_after_progress && !a->ready &&
                          !a->stopped && a == &st.attempts.back();
  const int logged = st.crashed_attempts + (last_ended ? 1 : 0);
  std::string line = fmt::format("{} start attempts in the log, {} {}", st.total_attempts, logged,
                                 c.crashed_before > logged ? "logged a crash" : "crashed");
  if (st.silent_ends > 0) line += fmt::format(", {} ended without a word", st.silent_ends);
  return line;
}

}  // namespace

void AddEvidence(const Context& c, Verdict& v) {
  const TrackerState& st = c.st;
  const AttemptFacts* a = c.attempt;
  if (c.health_ok && (a == nullptr || !a->ready)) {
    v.evidence.push_back("the port is listening and /health answered 200");
  }
  if (v.state == State::kReady && a != nullptr && a->request_served) {
    v.evidence.push_back("a request was served after the HTTP server came up");
  }
  if (a != nullptr && v.state != State::kReady) {
    // A client's exception pasted with the log was taken back (tracker_events.cc): said, so the
    // reader sees why the traceback below the log is not the verdict.
    // One raised through the server's own frames (its Hub download) is the server's error, quoted.
    auto quoted = [&](const std::string& text) {
      return std::any_of(v.errors.begin(), v.errors.end(),
                         [&](const std::string& e) { return e.ends_with(text); });
    };
    if (auto it = a->hits.find("generic.client_exception");
        it != a->hits.end() && !quoted(it->second.last_text)) {
      v.evidence.push_back("a client's error is not the server's: " +
                           std::string(std::string_view(it->second.last_text).substr(0, 120)));
    }
  }
  if (st.total_attempts > 1) v.evidence.push_back(AttemptsInTheLog(c));
  if (st.restarts > 0) {
    v.evidence.push_back(fmt::format("restarted {} time{} by its supervisor (its restart counter)",
                                     st.restarts, st.restarts == 1 ? "" : "s"));
  }
  if (a != nullptr && a->heartbeats > 0) {
    v.evidence.push_back(fmt::format("{} heartbeat/watchdog line(s) while waiting", a->heartbeats));
  }
  if (a != nullptr) {
    for (const auto& b : a->bars) {
      if (b.total > 0) {
        v.evidence.push_back(fmt::format("progress bar \"{}\" at {}/{}",
                                         b.bar.empty() ? "(bare)" : b.bar, b.n, b.total));
      }
    }
  }
  if (v.state == State::kStalled) {
    AddStallEvidence(c, v);
  } else if (c.opt.live && st.process.sampled) {
    const auto& f = st.process;
    v.evidence.push_back(
        fmt::format("server tree: {} processes, {:.2f} CPU cores, reads {:.1f} MB/s", f.processes,
                    f.cpu_cores, f.read_bytes_per_s / 1e6));
    if (f.compiler_children) v.evidence.push_back("compiler child processes running");
  }
  // Ranks behind the judged phase (a laggard often is the stuck one).
  if (a != nullptr && v.state != State::kReady) {
    std::vector<std::string> behind;
    for (const auto& r : a->ranks) {
      if (!r.rank.empty() && r.phase != v.phase &&
          static_cast<int>(r.phase) < static_cast<int>(v.phase)) {
        behind.push_back(r.rank);
      }
    }
    if (!behind.empty() && behind.size() < a->ranks.size()) {
      v.evidence.push_back("last seen in an earlier phase: " + FormatRanks(behind));
    }
  }
  // Learned from this host's history: what the phase usually takes, and how long it runs now.
  if (c.opt.learned != nullptr && v.state != State::kReady) {
    if (auto it = c.opt.learned->find(v.phase); it != c.opt.learned->end()) {
      std::string line = it->second.evidence;
      if (v.phase_seconds) line += "; now " + FormatDuration(*v.phase_seconds);
      v.evidence.push_back(std::move(line));
    }
  }
  AddNotKnown(c, v);
}

}  // namespace spinup::judge
