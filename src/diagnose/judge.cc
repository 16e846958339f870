#include "diagnose/judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace spinup {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string Upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == '_') c = ' ';
  }
  return out;
}

std::string RankLabel(const std::string& r) { return r.empty() ? "main" : r; }

// The number that orders ranks in a range: TP index when present, else the last number.
std::optional<std::pair<std::string, int>> RankKey(const std::string& r) {
  size_t tp = r.find("TP");
  size_t start = std::string::npos;
  if (tp != std::string::npos && tp + 2 < r.size() &&
      std::isdigit(static_cast<unsigned char>(r[tp + 2]))) {
    start = tp + 2;
  } else {
    size_t k = r.size();
    while (k > 0 && std::isdigit(static_cast<unsigned char>(r[k - 1]))) --k;
    if (k == r.size()) return std::nullopt;
    start = k;
  }
  size_t end = start;
  while (end < r.size() && std::isdigit(static_cast<unsigned char>(r[end]))) ++end;
  if (end - start > 6) return std::nullopt;
  std::string prefix = r.substr(0, start);
  // "TP3_EP3" ranges as TP, "DP1_TP3_EP3" as DP1_TP: TP ranks of different DP groups are
  // different processes, never one range.
  if (tp != std::string::npos) prefix = r.substr(0, tp) + "TP";
  return std::make_pair(prefix, std::stoi(r.substr(start, end - start)));
}

double Seconds(int64_t a, int64_t b) { return (b - a) / 1000.0; }

// The time since the last progress signal of any kind the live judge can see (log lines count
// only where `count_log_lines`: before any phase line, output is the only sign of life).
std::optional<int64_t> LastProgress(const TrackerState& st, const AttemptFacts* a,
                                    bool count_log_lines) {
  std::optional<int64_t> last = a ? a->last_progress_ms : std::nullopt;
  for (int i = 0; i < kSignalCount; ++i) {
    if (static_cast<Signal>(i) == Signal::kLogLine && !count_log_lines) continue;
    auto s = st.last_signal_ms[static_cast<size_t>(i)];
    if (s && (!last || *s > *last)) last = s;
  }
  return last;
}

// What a person would gather by hand before calling a startup stuck (journalctl -n, top,
// nvidia-smi, wc -l on the log): each measured fact on one line.
void AddStallEvidence(const TrackerState& st, const AttemptFacts* a, std::optional<int64_t> now,
                      Verdict& v) {
  const auto& log_line = st.last_signal_ms[static_cast<size_t>(Signal::kLogLine)];
  if (log_line && now) {
    v.evidence.push_back("no new log line for " +
                         FormatDuration(std::max(0.0, (*now - *log_line) / 1000.0)));
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
  if (!a) return;
  // "last line on TP0–TP3: Init torch distributed begin." — ranks grouped by their last line.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& r : a->ranks) {
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

}  // namespace

std::string FormatDuration(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  if (s < 10) return fmt::format("{:.1f} s", s);
  auto total = static_cast<int64_t>(std::llround(s));
  if (total < 60) return fmt::format("{} s", total);
  if (total < 3600) {
    return total % 60 ? fmt::format("{} min {} s", total / 60, total % 60)
                      : fmt::format("{} min", total / 60);
  }
  return fmt::format("{} h {:02} min", total / 3600, total % 3600 / 60);
}

std::string FormatRanks(const std::vector<std::string>& ranks) {
  if (ranks.empty()) return "";
  if (ranks.size() == 1) return RankLabel(ranks[0]);
  // Ranges per prefix ("DP0_TP0\u2013DP0_TP3, DP1_TP0\u2013DP1_TP3"), when every rank has one.
  std::map<std::string, std::vector<int>> groups;
  bool rangeable = true;
  for (const auto& r : ranks) {
    auto k = RankKey(r);
    if (!k) {
      rangeable = false;
      break;
    }
    groups[k->first].push_back(k->second);
  }
  if (rangeable && groups.size() <= 8) {
    std::string out;
    for (auto& [prefix, nums] : groups) {
      std::sort(nums.begin(), nums.end());
      nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
      for (size_t i = 0; i < nums.size();) {
        size_t j = i;
        while (j + 1 < nums.size() && nums[j + 1] == nums[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += prefix + std::to_string(nums[i]);
        if (j > i) out += "\u2013" + prefix + std::to_string(nums[j]);
        i = j + 1;
      }
    }
    return out;
  }
  std::string out;
  for (size_t i = 0; i < ranks.size() && i < 8; ++i) {
    if (i) out += ", ";
    out += RankLabel(ranks[i]);
  }
  if (ranks.size() > 8) out += fmt::format(" and {} more", ranks.size() - 8);
  return out;
}

Verdict Judge::Evaluate(const TrackerState& st, const JudgeOptions& opt) const {
  Verdict v;
  v.engine = st.engine;
  v.attempts = st.total_attempts;
  const AttemptFacts* a = st.current();
  const auto now = opt.now_ms ? opt.now_ms : st.last_ms;
  std::optional<uint64_t> ckpt = opt.checkpoint_bytes ? opt.checkpoint_bytes : st.checkpoint_bytes;

  auto budget_of = [&](Phase p) {
    PhaseBudget b = rules_.Budget(st.engine, p);
    if (p == Phase::kWeightLoad && ckpt && b.per_gib_s > 0) {
      b.normal_s = std::max(b.normal_s, *ckpt / kGiB * b.per_gib_s);
    }
    if (opt.stall_after_s) b.stall_s = *opt.stall_after_s;
    return b;
  };

  // Ready without a ready line (no log, or an engine whose ready line no rule knows): the port
  // listens and the health probe answered 200.
  const bool health_ok = opt.live && st.port_listening && st.health_http_status == 200;
  const char* kHealthEvidence = "the port is listening and /health answered 200";

  // Starts that ended before the judged one: crashed attempts in the log, or the restarts the
  // service manager counted (systemd's restart counter), whichever is more: a server that dies
  // before printing a launch banner leaves only the latter.
  const int crashed_before =
      a == nullptr ? 0
                   : std::max(st.crashed_attempts - (a->crashed ? 1 : 0), std::max(0, st.restarts));
  const bool empty_attempt =
      !a || (a->timeline.empty() && a->errors.empty() && !a->ready && !a->crashed);
  // Between two turns of a crash loop (the new attempt has shown nothing yet): judged below as
  // the loop it is, not as an unknown start.
  const bool between_turns = a != nullptr && empty_attempt && crashed_before >= 2 && !health_ok;
  if (empty_attempt && !between_turns) {
    v.state = opt.live && st.process.sampled ? State::kStarting : State::kUnknown;
    v.phase = Phase::kLaunch;
    v.headline = st.lines == 0 ? "UNKNOWN: the log is empty"
                               : "UNKNOWN: no startup phase line of a known engine was recognised";
    if (opt.live && st.process.sampled) {
      v.headline = "STARTING: no startup phase line yet";
      const PhaseBudget budget = budget_of(Phase::kLaunch);
      v.budget_seconds = budget.normal_s;
      std::optional<int64_t> last = LastProgress(st, a, /*count_log_lines=*/true);
      if (!last) last = st.first_ms;
      if (last && now) v.stalled_seconds = std::max(0.0, Seconds(*last, *now));
      if (st.first_ms && now) v.phase_seconds = std::max(0.0, Seconds(*st.first_ms, *now));
      if (health_ok) {
        v.state = State::kReady;
        v.phase = Phase::kReady;
        v.headline = "READY: the port is listening and the health probe answered 200";
        v.evidence.push_back(kHealthEvidence);
      } else if (st.exit_status && *st.exit_status != 0) {
        v.state = State::kCrashed;
        v.headline = "CRASHED before any startup phase line";
        if (a) v.errors = a->errors;
      } else if (v.stalled_seconds && *v.stalled_seconds > budget.stall_s) {
        // No phase line, and no progress signal of any kind (output, CPU, reads, GPU memory,
        // compilers) for longer than a launch may take: as stuck as a start can look.
        v.state = State::kStalled;
        v.headline = fmt::format(
            "STALLED before any startup phase line: no progress signal for {}; normal is under {}",
            FormatDuration(*v.stalled_seconds), FormatDuration(budget.normal_s));
        AddStallEvidence(st, a, now, v);
      }
    }
    v.not_known.push_back(
        "which phase the server reached: none of the engine rules matched (try --engine or "
        "--rules, or give the server's log with --log)");
    return v;
  }

  // Timeline (every attempt's spans would be long; the judged attempt's is what matters).
  const Phase phase = a->phase.value_or(Phase::kLaunch);
  v.phase = phase;
  for (const auto& s : a->timeline) {
    TimelineEntry e;
    e.rank = s.rank;
    e.phase = s.phase;
    e.start_ms = s.start_ms;
    e.end_ms = s.end_ms;
    if (s.reported_seconds) {
      e.seconds = s.reported_seconds;
    } else if (s.start_ms && s.end_ms) {
      e.seconds = Seconds(*s.start_ms, *s.end_ms);
    } else if (s.start_ms && !s.ended && now && !a->crashed && !a->ready) {
      e.seconds = std::max(0.0, Seconds(*s.start_ms, *now));
    }
    if (!s.ended) {
      // An untimed progress bar may know better how long its phase has run ("[06:12<...").
      for (const auto& b : a->bars) {
        if (b.phase == s.phase && b.elapsed_s && (!e.seconds || *b.elapsed_s > *e.seconds)) {
          e.seconds = b.elapsed_s;
        }
      }
    }
    if (e.phase == Phase::kReady) e.seconds.reset();
    if (e.seconds) e.slow = *e.seconds > budget_of(e.phase).normal_s;
    if (s.implicit && s.ended && e.seconds && *e.seconds < 0.5) continue;
    v.timeline.push_back(std::move(e));
  }
  for (const auto& r : a->ranks) {
    RankPhase rp;
    rp.rank = r.rank;
    rp.phase = r.phase;
    rp.since_ms = r.since_ms;
    v.ranks.push_back(rp);
  }
  v.errors = a->errors;
  if (between_turns) {
    for (auto it = st.attempts.rbegin(); it != st.attempts.rend(); ++it) {
      if (!it->errors.empty()) {
        v.errors = it->errors;
        break;
      }
    }
  }
  if (!a->bars.empty()) {
    const BarState* best = &a->bars.back();
    v.progress.bar = best->bar;
    v.progress.bar_n = best->n;
    v.progress.bar_total = best->total;
  }

  // Ranks in the judged phase and since when it runs.
  std::vector<std::string> in_phase;
  std::optional<int64_t> since;
  for (const auto& r : a->ranks) {
    if (r.phase == phase) {
      in_phase.push_back(r.rank);
      if (r.since_ms && (!since || *r.since_ms < *since)) since = r.since_ms;
    }
  }
  // Untagged main-process lines next to tagged ranks: name the tagged ones.
  if (in_phase.size() > 1) {
    std::vector<std::string> tagged;
    for (auto& r : in_phase) {
      if (!r.empty()) tagged.push_back(r);
    }
    if (!tagged.empty()) in_phase = tagged;
  }
  const std::string where = in_phase.empty() || (in_phase.size() == 1 && in_phase[0].empty())
                                ? ""
                                : " on " + FormatRanks(in_phase);
  const PhaseBudget budget = budget_of(phase);
  v.budget_seconds = budget.normal_s;
  if (since && now) v.phase_seconds = std::max(0.0, Seconds(*since, *now));

  // Time since the last progress of any kind the judge can see (heartbeat lines are not).
  std::optional<int64_t> last_progress =
      opt.live ? LastProgress(st, a, /*count_log_lines=*/false) : a->last_progress_ms;
  if (since && (!last_progress || *since > *last_progress)) last_progress = since;
  if (last_progress && now) v.stalled_seconds = std::max(0.0, Seconds(*last_progress, *now));

  std::string slowest;
  double slowest_s = 0;
  for (const auto& e : v.timeline) {
    if (e.seconds && *e.seconds > slowest_s && e.phase != Phase::kReady) {
      slowest_s = *e.seconds;
      slowest = std::string(PhaseName(e.phase));
    }
  }

  // The decision.
  const bool died = a->crashed || (!opt.live && a->error_after_progress && !a->ready);
  if (died && !a->crashed) {
    v.evidence.push_back("the log ends in an error after the last progress line");
  }
  if (died) {
    v.state = crashed_before + 1 >= 2 ? State::kCrashLoop : State::kCrashed;
  } else if (a->ready || health_ok) {
    v.state = State::kReady;
    v.phase = Phase::kReady;
    if (!a->ready) v.evidence.push_back(kHealthEvidence);
  } else if (crashed_before >= 2 && (!opt.live || between_turns)) {
    v.state = State::kCrashLoop;
  } else {
    const bool past_stall = v.stalled_seconds && *v.stalled_seconds > budget.stall_s;
    // Offline, only the log's own later lines (or --now) can show time passing.
    if (past_stall) {
      v.state = State::kStalled;
    } else if (opt.live) {
      v.state = v.phase_seconds && *v.phase_seconds > budget.normal_s ? State::kSlow
                                                                      : State::kProgressing;
    } else {
      v.state = State::kInProgress;
    }
  }

  // Headline.
  const std::string ph(PhaseName(v.phase));
  switch (v.state) {
    case State::kStalled:
      v.headline = fmt::format("STALLED in {}{} for {}; normal is under {}", ph, where,
                               FormatDuration(v.stalled_seconds.value_or(0)),
                               FormatDuration(budget.normal_s));
      if (v.phase_seconds && v.stalled_seconds && *v.phase_seconds > *v.stalled_seconds + 1) {
        v.headline += fmt::format(" (phase running {})", FormatDuration(*v.phase_seconds));
      }
      break;
    case State::kCrashed:
    case State::kCrashLoop: {
      // A crash loop judged between turns (the new attempt has printed nothing yet) quotes the
      // latest attempt that has errors.
      const AttemptFacts* quoted = a;
      for (auto it = st.attempts.rbegin(); quoted->errors.empty() && it != st.attempts.rend();
           ++it) {
        quoted = &*it;
      }
      const std::vector<std::string>& errors = quoted->errors;
      std::string first = errors.empty() ? "" : errors.back();
      // The most telling line is the exception itself ("ValueError: ..."), else the latest line
      // that is not just "Traceback (most recent call last)".
      bool found = false;
      for (auto it = errors.rbegin(); it != errors.rend() && !found; ++it) {
        if ((it->find("Error: ") != std::string::npos ||
             it->find("Exception: ") != std::string::npos) &&
            it->find("Traceback (most recent call last)") == std::string::npos) {
          first = *it;
          found = true;
        }
      }
      for (auto it = errors.rbegin(); it != errors.rend() && !found; ++it) {
        if (it->find("Traceback (most recent call last)") == std::string::npos) {
          first = *it;
          found = true;
        }
      }
      if (first.size() > 160) first = first.substr(0, 157) + "...";
      if (v.state == State::kCrashLoop && between_turns) {
        v.headline = fmt::format("CRASH LOOP: {} attempts, {} crashed; attempt {} is starting",
                                 st.total_attempts, st.crashed_attempts, st.total_attempts);
      } else if (v.state == State::kCrashLoop) {
        v.headline = fmt::format("CRASH LOOP: {} attempts, {} crashed; the last in {}{}",
                                 st.total_attempts, st.crashed_attempts, ph, where);
      } else {
        v.headline = fmt::format("CRASHED in {}{}", ph, where);
      }
      if (!first.empty()) v.headline += ": " + first;
      break;
    }
    case State::kReady: {
      std::optional<int64_t> start = a->start_ms ? a->start_ms : a->first_ms;
      std::optional<int64_t> ready_at;
      for (const auto& s : a->timeline) {
        if (s.phase == Phase::kReady) ready_at = s.start_ms;
      }
      v.headline =
          a->ready ? "READY" : "READY: the port is listening and the health probe answered 200";
      if (start && ready_at && *ready_at > *start) {
        v.headline += " after " + FormatDuration(Seconds(*start, *ready_at)) + " of log";
      }
      if (!slowest.empty()) {
        v.headline += fmt::format("; slowest phase {} ({})", slowest, FormatDuration(slowest_s));
        bool slow = false;
        for (const auto& e : v.timeline) slow |= e.slow;
        if (slow) v.headline += ", over its budget";
      }
      if (a->request_served)
        v.evidence.push_back("a request was served after the HTTP server came up");
      break;
    }
    case State::kInProgress:
      v.headline = fmt::format("IN PROGRESS: the log ends in {}{}", ph, where);
      if (v.phase_seconds && *v.phase_seconds >= 1) {
        v.headline += " after " + FormatDuration(*v.phase_seconds);
      }
      v.headline += fmt::format("; normal is under {}", FormatDuration(budget.normal_s));
      break;
    case State::kProgressing:
    case State::kSlow:
      v.headline = fmt::format("{} in {}{}", Upper(StateName(v.state)), ph, where);
      if (v.phase_seconds) v.headline += " for " + FormatDuration(*v.phase_seconds);
      v.headline += fmt::format("; normal is under {}", FormatDuration(budget.normal_s));
      break;
    default:
      v.headline = Upper(StateName(v.state));
  }

  // Evidence and what the log cannot tell.
  if (st.total_attempts > 1) {
    v.evidence.push_back(fmt::format("{} start attempts in the log, {} crashed", st.total_attempts,
                                     st.crashed_attempts));
  }
  if (st.restarts > 0) {
    v.evidence.push_back(fmt::format("systemd restarted the unit {} time{} (its restart counter)",
                                     st.restarts, st.restarts == 1 ? "" : "s"));
  }
  if (a->heartbeats > 0) {
    v.evidence.push_back(fmt::format("{} heartbeat/watchdog line(s) while waiting", a->heartbeats));
  }
  for (const auto& b : a->bars) {
    if (b.total > 0) {
      v.evidence.push_back(fmt::format("progress bar \"{}\" at {}/{}",
                                       b.bar.empty() ? "(bare)" : b.bar, b.n, b.total));
    }
  }
  if (v.state == State::kStalled) {
    AddStallEvidence(st, a, now, v);
  } else if (opt.live && st.process.sampled) {
    const auto& f = st.process;
    v.evidence.push_back(
        fmt::format("server tree: {} processes, {:.2f} CPU cores, reads {:.1f} MB/s", f.processes,
                    f.cpu_cores, f.read_bytes_per_s / 1e6));
    if (f.compiler_children) v.evidence.push_back("compiler child processes running");
  }
  // Ranks behind the judged phase (a laggard often is the stuck one).
  {
    std::vector<std::string> behind;
    for (const auto& r : a->ranks) {
      if (!r.rank.empty() && r.phase != v.phase && v.state != State::kReady &&
          static_cast<int>(r.phase) < static_cast<int>(v.phase)) {
        behind.push_back(r.rank);
      }
    }
    if (!behind.empty() && behind.size() < a->ranks.size()) {
      v.evidence.push_back("last seen in an earlier phase: " + FormatRanks(behind));
    }
  }
  if (v.state == State::kInProgress) {
    v.not_known.push_back(fmt::format(
        "whether {} was still progressing: the log ends there with no sign of a stall (pass "
        "--now TIME to judge it at a given time)",
        ph));
  }
  if (v.state == State::kCrashed && a->errors.empty()) {
    v.not_known.push_back("the error itself: the log shows the process died but not why");
  }
  if (!opt.live) {
    v.not_known.push_back("process, disk and GPU signals: only the log was read");
  }
  if (v.state == State::kReady && !a->request_served &&
      std::none_of(a->hits.begin(), a->hits.end(), [](const auto& h) {
        return h.first.find("fired_up") != std::string::npos ||
               h.first.find("app_startup") != std::string::npos;
      })) {
    v.not_known.push_back(
        "whether the HTTP endpoint answered: the log ends at the engine's ready line");
  }

  // Known causes: a cause is offered when any of its conditions holds.
  auto signal_holds = [&](const std::string& s) {
    const auto& p = st.process;
    if (s == "restarts") return st.total_attempts > 1 || st.restarts > 0;
    if (s == "no_log_lines") {
      auto last = st.last_signal_ms[static_cast<size_t>(Signal::kLogLine)];
      return last && now && Seconds(*last, *now) > 60;
    }
    if (!p.sampled) return false;
    if (s == "cpu_idle") return p.cpu_idle;
    if (s == "cpu_busy") return p.cpu_cores >= 1.0;
    if (s == "futex_waits") return p.futex_waits;
    if (s == "no_disk_reads") return p.no_disk_reads;
    if (s == "disk_wait") return p.disk_wait;
    if (s == "reads_active") return p.reads_active;
    if (s == "gpu_flat") return p.gpu_flat;
    if (s == "gpu_busy") return p.gpu_busy;
    if (s == "compiler_children") return p.compiler_children;
    if (s == "rank_lost") return p.rank_lost;
    return false;
  };
  for (const auto& c : rules_.causes()) {
    if (!c.engines.empty() &&
        std::find(c.engines.begin(), c.engines.end(), st.engine) == c.engines.end()) {
      continue;
    }
    for (const auto& w : c.when) {
      if (!w.phases.empty() &&
          std::find(w.phases.begin(), w.phases.end(), v.phase) == w.phases.end()) {
        continue;
      }
      if (!w.states.empty() &&
          std::find(w.states.begin(), w.states.end(), v.state) == w.states.end()) {
        continue;
      }
      Finding f;
      f.id = c.id;
      f.title = c.title;
      f.fix = c.fix;
      bool ok = true;
      if (!w.rules.empty()) {
        bool any = false;
        for (const auto& id : w.rules) {
          // Any attempt counts: a crash loop's causes are in its earlier attempts too.
          for (const auto& att : st.attempts) {
            auto it = att.hits.find(id);
            if (it == att.hits.end()) continue;
            any = true;
            if (f.evidence.size() < 3 && std::find(f.evidence.begin(), f.evidence.end(),
                                                   it->second.last_text) == f.evidence.end()) {
              f.evidence.push_back(it->second.last_text);
            }
            break;
          }
        }
        ok = any;
      }
      for (size_t i = 0; ok && i < w.signals.size(); ++i) {
        ok = signal_holds(w.signals[i]);
        if (ok) f.evidence.push_back("signal: " + w.signals[i]);
      }
      if (ok && !w.slow_phases.empty()) {
        bool any = false;
        for (const auto& e : v.timeline) {
          if (e.slow && std::find(w.slow_phases.begin(), w.slow_phases.end(), e.phase) !=
                            w.slow_phases.end()) {
            any = true;
            f.evidence.push_back(fmt::format("{}{} took {}; normal is under {}", PhaseName(e.phase),
                                             e.rank.empty() ? "" : " on " + e.rank,
                                             FormatDuration(e.seconds.value_or(0)),
                                             FormatDuration(budget_of(e.phase).normal_s)));
            break;
          }
        }
        ok = any;
      }
      if (!ok) continue;
      if (!c.evidence.empty()) f.evidence.push_back(c.evidence);
      v.findings.push_back(std::move(f));
      break;
    }
  }
  return v;
}

}  // namespace spinup
