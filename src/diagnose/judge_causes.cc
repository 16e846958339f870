// Known causes: a cause from the knowledge base (rules/causes.json) is offered when one of its
// conditions holds, with the lines and signals that made it hold as evidence.
#include <fmt/format.h>

#include <re2/re2.h>

#include <algorithm>
#include <cmath>

#include "base/ascii.h"
#include "base/duration.h"
#include "diagnose/judge_steps.h"

namespace spinup::judge {
namespace {

// How direct a condition's evidence is: the cause's own pattern beats an error or fatal line, which
// beats a slow phase, which beats phase lines and process signals; and any line the verdict quotes
// as the attempt's error beats the same kind of line elsewhere (a warning that mentions "not
// supported" is not why it crashed).
enum Strength { kWeak = 1, kMedium = 2, kStrong = 3, kOwnPattern = 4 };
// Added to a line's strength when the verdict quotes it as the error: on that line a cause's own
// pattern still beats an engine rule that merely says "it failed".
constexpr int kDecisiveBonus = 2;

bool QuotedIn(const std::vector<std::string>& errors, const std::string& text) {
  if (text.empty()) return false;
  return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) {
    return e.find(text) != std::string::npos || text.find(e) != std::string::npos;
  });
}

bool QuotedAsError(const Verdict& v, const std::string& text) { return QuotedIn(v.errors, text); }

// Where a quoted line first stands among the verdict's errors (they are kept in log order).
size_t QuotedAt(const Verdict& v, const RuleHit& hit) {
  for (size_t i = 0; i < v.errors.size(); ++i) {
    const std::string& e = v.errors[i];
    for (const std::string* t : {&hit.first_text, &hit.last_text}) {
      if (!t->empty() && (e.find(*t) != std::string::npos || t->find(e) != std::string::npos)) {
        return i;
      }
    }
  }
  return SIZE_MAX;
}

// Whether any attempt kept this line among its decisive errors (a crash loop's earlier turns).
bool RecordedAsError(const Context& c, const RuleHit& hit) {
  return std::any_of(c.st.attempts.begin(), c.st.attempts.end(), [&](const AttemptFacts& a) {
    return QuotedIn(a.errors, hit.first_text) || QuotedIn(a.errors, hit.last_text);
  });
}

// The first of the verdict's errors that a cause's own pattern matches (SIZE_MAX: none). A hit
// keeps only its first and last lines, and the quoted error may be one between them: a
// traceback's source line matched first, a later warning last ("raise NotImplementedError(...)",
// the error itself, then torch's "Found no NVIDIA driver" warning).
size_t OwnPatternQuotedAt(const Context& c, const Verdict& v, const std::string& id) {
  if (!id.starts_with("cause.") || v.errors.empty()) return SIZE_MAX;
  const int r = c.rules.FindRule(id);
  if (r < 0) return SIZE_MAX;
  const RE2& re = c.rules.regex(r);
  for (size_t i = 0; i < v.errors.size(); ++i) {
    if (RE2::PartialMatch(v.errors[i], re)) return i;
  }
  return SIZE_MAX;
}

int RuleStrength(const Context& c, const std::string& id) {
  if (id.rfind("cause.", 0) == 0) return kOwnPattern;
  const int r = c.rules.FindRule(id);
  if (r < 0) return kStrong;  // the service manager's facts (systemd.*)
  const RuleEmit emit = c.rules.rules()[static_cast<size_t>(r)].emit;
  return emit == RuleEmit::kError || emit == RuleEmit::kFatal ? kStrong : kWeak;
}

bool Crashed(const Verdict& v) {
  return v.state == State::kCrashed || v.state == State::kCrashLoop;
}

bool UnderWay(const Verdict& v) {
  return v.state == State::kStalled || v.state == State::kInProgress || v.state == State::kSlow ||
         v.state == State::kProgressing || v.state == State::kStarting;
}

bool FellBack(std::string_view line) {
  static const RE2 kFallback(
      R"((?i)falling back to|fall(?:s|ing)? ?back to|(?:unavailable|not available|not found|not installed)[;,.] (?:will )?us(?:e|ing) |, using \w+ instead|will use \w+ instead|\bus(?:e|ing) (?:the )?\w+ fallback\b)");
  return RE2::PartialMatch(line, kFallback);
}

// How direct one matched rule is for this verdict. In a crash, a cause's own pattern seen only on
// lines that declared a level below error and that no attempt kept as errors (a warning: "X is not
// supported", "Custom allreduce is disabled because ...") is context, not the failure: it ranks
// with phase lines, below any error. A line without a level (an exception's continuation: NCCL's
// "Last error:" line) keeps its rank.
int HitStrength(const Context& c, const Verdict& v, const std::string& id, const RuleHit& hit) {
  // A line saying the engine went on another way ("FlashInfer attention backend is unavailable;
  // using TRTLLM attention backend") reports a choice the start survived, whatever its level: in
  // a crash it is context, below the error that ended the start.
  if (Crashed(v) && FellBack(hit.first_text) && FellBack(hit.last_text)) return kWeak;
  const bool decisive = QuotedAsError(v, hit.last_text) || QuotedAsError(v, hit.first_text) ||
                        OwnPatternQuotedAt(c, v, id) != SIZE_MAX;
  int s = RuleStrength(c, id);
  if (s == kOwnPattern && !decisive && Crashed(v) && hit.quiet_only && !RecordedAsError(c, hit)) {
    s = kWeak;
  }
  return s + (decisive ? kDecisiveBonus : 0);
}

struct Match {
  Finding finding;
  int strength = kWeak;
  // The earliest of the verdict's errors that is this cause's evidence (SIZE_MAX: none is).
  size_t first_error = SIZE_MAX;
  bool consequence = false;  // the condition only says that something failed
  bool underlies = false;    // KnownCause::underlies
  const KnownCause* cause = nullptr;
};

// A matched rule's evidence counts toward the cause's strength and, on a quoted line, its place.
void Weigh(const Context& c, const Verdict& v, const std::string& id, const RuleHit& hit,
           Match& m) {
  const int s = HitStrength(c, v, id, hit);
  m.strength = std::max(m.strength, s);
  if (s > kOwnPattern) {
    m.first_error = std::min({m.first_error, QuotedAt(v, hit), OwnPatternQuotedAt(c, v, id)});
  }
}

// A start that a person began again by hand at a shell prompt, after changing what they run
// ("relaunched on --port 8001 and it's now loading", then up, or dead of something else), is
// judged by its own lines alone: what ended the earlier tries is what they changed.
// So is a start that came up after earlier ones died (a supervisor's turns, then one that
// worked): its causes are its own slow phases', not what ended the turns before it.
// (Not a command that printed no engine line: a person's `docker run --entrypoint nvidia-smi`
// after the server's crash is a check, the server's lines still speak.)
bool OnlyItsOwnLines(const Context& c, const Verdict& v) {
  const AttemptFacts* a = c.attempt;
  if (a == nullptr) return false;
  const bool engine_spoke = a->banner_engine != kPromptEngine || a->phase_line || a->ready;
  return (a->manual && (engine_spoke || UnderWay(v))) || v.state == State::kReady;
}

// Rule-id evidence: any attempt counts (a crash loop's causes are in its earlier attempts too), and
// the attempt where the rule's evidence is most direct speaks for it (a warning in one attempt
// does not hide the quoted error of the judged one).
// With `since_progress`, only the judged attempt's lines after its latest progress count.
bool RulesHold(const Context& c, const std::vector<std::string>& ids, const Verdict& v, Match& m,
               bool since_progress = false) {
  bool any = false;
  for (const auto& id : ids) {
    const RuleHit* best = nullptr;
    const AttemptFacts* best_in = nullptr;
    int best_strength = 0;
    for (const auto& att : c.st.attempts) {
      if ((since_progress || OnlyItsOwnLines(c, v)) && &att != c.attempt) continue;
      auto it = att.hits.find(id);
      if (it == att.hits.end()) continue;
      if (since_progress && att.last_progress_ms && it->second.last_ms &&
          *it->second.last_ms < *att.last_progress_ms) {
        continue;
      }
      const int s = HitStrength(c, v, id, it->second);
      if (best == nullptr || s > best_strength)
        best = &it->second, best_in = &att, best_strength = s;
    }
    if (best == nullptr) continue;
    any = true;
    // A start still under way or stuck is judged by its own lines: what ended an earlier attempt
    // (the OOM before a restart that now hangs in capture) is context.
    if (best_in != c.attempt && UnderWay(v)) {
      m.strength = std::max(m.strength, int{kWeak});
    } else {
      Weigh(c, v, id, *best, m);
    }
    auto& ev = m.finding.evidence;
    // The quoted error its pattern matches, when neither line the hit kept is quoted.
    const std::string* seen = &best->last_text;
    if (!QuotedAsError(v, best->last_text) && !QuotedAsError(v, best->first_text)) {
      if (const size_t at = OwnPatternQuotedAt(c, v, id); at != SIZE_MAX) seen = &v.errors[at];
    }
    if (ev.size() < 3 && !Contains(ev, *seen)) ev.push_back(*seen);
  }
  return any;
}

// A start that is still under way or stuck is judged by the phase it is in: an earlier phase that
// was slow and then finished (a long autotune before a hung capture) did not stop it.
bool SlowPhasesHold(const Context& c, const CauseCondition& w, const Verdict& v, Match& m) {
  const bool open_phase_only = v.state == State::kStalled || v.state == State::kInProgress ||
                               v.state == State::kSlow || v.state == State::kProgressing;
  const double ready_factor = c.thresholds().ready_slow_factor;
  for (const auto& e : v.timeline) {
    if (!e.slow || !Contains(w.slow_phases, e.phase)) continue;
    if (open_phase_only && e.phase != v.phase) continue;
    // A rank's span left open in a phase the start had moved past (its rank said nothing more,
    // the others went on) measures that rank's silence, not the phase.
    if (!e.end_ms && c.Order(e.phase) < c.Order(v.phase)) continue;
    // (A budget scaled by the checkpoint's size already knows what this start reads.)
    const PhaseBudget budget = c.Budget(e.phase);
    if (v.state == State::kReady && budget.per_gib_s == 0 && e.seconds &&
        *e.seconds <= ready_factor * budget.normal_s) {
      continue;
    }
    // A phase still running, barely past a budget that knows nothing of this checkpoint, has
    // shown no slowness yet (a load 8 s over two minutes).
    const bool sized = budget.normal_s > c.rules.Budget(c.st.engine, e.phase).normal_s;
    if (v.state == State::kInProgress && !sized && e.seconds &&
        *e.seconds <= ready_factor * budget.normal_s) {
      continue;
    }
    m.finding.evidence.push_back(fmt::format("{}{} took {}; normal is under {}", PhaseName(e.phase),
                                             e.rank.empty() ? "" : " on " + e.rank,
                                             FormatDuration(e.seconds.value_or(0)),
                                             FormatDuration(c.Budget(e.phase).normal_s)));
    m.strength = std::max(m.strength, int{kMedium});
    return true;
  }
  // A report's stated wait ("stuck on this line for 12 min") is as long as the phase ran at least.
  const std::optional<double> wait = c.st.reported_wait_s;
  if (open_phase_only && Contains(w.slow_phases, v.phase) && wait && !c.st.reported_wait_is_run &&
      *wait > c.Budget(v.phase).normal_s) {
    m.finding.evidence.push_back(
        fmt::format("the report says it sat in {} {}; normal is under {}", PhaseName(v.phase),
                    std::isinf(*wait) ? std::string("for good") : "for " + FormatDuration(*wait),
                    FormatDuration(c.Budget(v.phase).normal_s)));
    m.strength = std::max(m.strength, int{kMedium});
    return true;
  }
  return false;
}

// A signal read from log lines is as direct as those lines: an OOM record or a SIGKILL is the
// kernel's or the service manager's own statement (it beats a warning elsewhere); other signals
// (restarts, multi-node, process samples) are context.
void WeighSignal(const Context& c, const Verdict& v, const std::string& s, Match& m) {
  if (s != "oom_record") return;
  if ((c.st.exit_status && *c.st.exit_status == -9) ||
      std::any_of(c.st.attempts.begin(), c.st.attempts.end(),
                  [](const AttemptFacts& a) { return a.oom_killed; })) {
    m.strength = std::max(m.strength, int{kStrong});
  }
  for (const auto& a : c.st.attempts) {
    for (const auto& [id, hit] : a.hits) {
      if (id.rfind("oom_record.", 0) == 0 || id == "systemd.oom_killed" ||
          (id == "systemd.sigkill" && !a.stop_job))
        Weigh(c, v, id, hit, m);
    }
  }
}

// A line that explains a condition's evidence away, in the attempt judged; a ready start's causes
// are its earlier attempts' failures, and a loop's its crashed starts', so there it may stand in
// any of them (the kubelet's probe kill above the log explains the exit code 137 beside it;
// SGLang's kill of its own tree after "Received sigquit" explains systemd's status=9/KILL).
bool ExplainedAway(const Context& c, const Verdict& v, const std::string& rule_id) {
  if (c.attempt != nullptr && c.attempt->hits.count(rule_id)) return true;
  if (v.state != State::kReady && v.state != State::kCrashLoop) return false;
  return std::any_of(c.st.attempts.begin(), c.st.attempts.end(), [&](const AttemptFacts& a) {
    // (A run a record says ended, `kubectl logs --previous` below the pod's events, died too.)
    return (v.state == State::kReady || a.crashed || a.ended_by_record) &&
           a.hits.count(rule_id) > 0;
  });
}

// A start that became ready with no failed attempt before it: only what slowed it is a cause.
bool ReadyAtFirstTry(const Context& c, const Verdict& v) {
  if (v.state != State::kReady) return false;
  const auto& at = c.st.attempts;
  // (A run that ended without a word before the judged one, `kubectl logs --previous` below a
  // probe kill, failed too; one stopped by hand did not.)
  return std::none_of(at.begin(), at.end(), [&](const AttemptFacts& a) {
    return a.crashed || a.ended_by_record || (&a != c.attempt && !a.ready && !a.stopped);
  });
}

std::optional<Match> ConditionHolds(const Context& c, const KnownCause& cause,
                                    const CauseCondition& w, const Verdict& v) {
  if (!cause.slows_a_start && ReadyAtFirstTry(c, v)) return std::nullopt;
  // A start stopped before it finished, with no crash before it: only what slowed it past its
  // phase's normal time, where the condition names a stop (a Slurm time limit that ends a load
  // reading 170 s a shard).
  if (v.state == State::kStopped && c.crashed_before == 0 &&
      (!cause.slows_a_start || !Contains(w.states, State::kStopped) || !v.phase_seconds ||
       !v.budget_seconds || *v.phase_seconds <= *v.budget_seconds)) {
    return std::nullopt;
  }
  if (!w.phases.empty() && !Contains(w.phases, v.phase)) return std::nullopt;
  if (!w.states.empty() && !Contains(w.states, v.state)) return std::nullopt;
  for (const auto& s : w.not_signals) {
    if (SignalHolds(c, s)) return std::nullopt;
  }
  for (const auto& id : w.not_rules) {
    if (ExplainedAway(c, v, id)) return std::nullopt;
  }
  Match m;
  m.consequence = w.consequence;
  m.finding.id = cause.id;
  m.finding.title = cause.title;
  m.finding.fix = cause.fix;
  if (!w.rules.empty() && !RulesHold(c, w.rules, v, m, w.since_progress)) return std::nullopt;
  if (!w.regex_rules.empty() && !RulesHold(c, w.regex_rules, v, m)) return std::nullopt;
  for (const auto& s : w.signals) {
    if (!SignalHolds(c, s)) return std::nullopt;
    m.finding.evidence.push_back("signal: " + s);
    WeighSignal(c, v, s, m);
  }
  if (!w.slow_phases.empty() && !SlowPhasesHold(c, w, v, m)) return std::nullopt;
  m.finding.why = cause.why;
  return m;
}

}  // namespace

// Causes whose own evidence the verdict quotes as errors come first, the earliest quoted line
// first: a root error comes before what it brings down (a rank's OOM before its peers' store or
// NCCL timeouts, a missing file before the worker's death). Evidence that only says something
// failed ("consequence": a step failed, a peer timed out, the shell's "Killed" of a launcher that
// killed itself) does not take that place. On one line, or below the quoted lines, the more direct
// evidence wins; file order breaks ties. A cause that underlies the errors (a GPU's fault record)
// comes before them all.
bool Before(const Match& a, const Match& b) {
  if (a.underlies != b.underlies) return a.underlies;
  const bool qa = a.strength > kOwnPattern && !a.consequence;
  const bool qb = b.strength > kOwnPattern && !b.consequence;
  if (qa != qb) return qa;
  if (qa && a.first_error != b.first_error) return a.first_error < b.first_error;
  // A consequence's quoted line says no more than another cause's own pattern seen unquoted
  // (nvidia-smi's "Driver/library version mismatch" pasted above vLLM's "Failed to infer device
  // type"): the pattern that says what failed is as strong.
  const int sa = a.consequence && !b.consequence ? std::min(a.strength, +kOwnPattern) : a.strength;
  const int sb = b.consequence && !a.consequence ? std::min(b.strength, +kOwnPattern) : b.strength;
  if (sa != sb) return sa > sb;
  // Of equally direct evidence, what says what failed before what says only that it failed.
  return !a.consequence && b.consequence;
}

namespace {

// The writer says the start works with a flag that works around this cause ("With
// --disable-custom-all-reduce it comes up in 50 s"): it comes before causes seen only on lines
// that did not fail (a P2P check that ran), below an error that names what failed. Not on a ready
// start: the log pasted is then the one that worked.
// Whether `phase` is among those the cause's conditions name (true where none names any).
bool InTheCausesPhases(const KnownCause& cause, Phase phase) {
  bool named = false;
  for (const CauseCondition& w : cause.when) {
    for (const std::vector<Phase>* list : {&w.phases, &w.slow_phases}) {
      named = named || !list->empty();
      if (std::find(list->begin(), list->end(), phase) != list->end()) return true;
    }
  }
  return !named;
}

std::optional<Match> ConfirmedByTheReport(const Context& c, const KnownCause& cause,
                                          const Verdict& v) {
  if (cause.confirmed_by.empty() || v.state == State::kReady || v.state == State::kUnknown) {
    return std::nullopt;
  }
  for (const std::string& sentence : c.st.works_with) {
    const std::string lower = AsciiLower(sentence);
    for (const std::string& flag : cause.confirmed_by) {
      if (lower.find(flag) == std::string::npos) continue;
      Match m;
      // A workaround that also skips other steps (vLLM's --enforce-eager skips the compile as
      // well as the capture) confirms no more than a cause's own pattern says, where the start
      // crashed in a phase none of the cause's conditions names (its error says what failed).
      const bool crash = v.state == State::kCrashed || v.state == State::kCrashLoop;
      m.strength = crash && !InTheCausesPhases(cause, v.phase) ? kOwnPattern - 1 : kOwnPattern + 1;
      m.finding.id = cause.id;
      m.finding.title = cause.title;
      m.finding.fix = cause.fix;
      m.finding.why = cause.why;
      m.finding.evidence.push_back(
          fmt::format("the report says the start works with {}: {}", flag, sentence));
      return m;
    }
  }
  return std::nullopt;
}

// A finding that only says a step failed, where another cause's own evidence accounts for that
// failure (KnownCause::explains), is no cause of its own.
void DropExplained(std::vector<Match>& found) {
  std::vector<std::string> explained;
  for (const Match& m : found) {
    if (m.consequence || m.cause == nullptr) continue;
    explained.insert(explained.end(), m.cause->explains.begin(), m.cause->explains.end());
  }
  std::erase_if(found,
                [&](const Match& m) { return m.consequence && Contains(explained, m.finding.id); });
}

}  // namespace

void MatchCauses(const Context& c, Verdict& v) {
  std::vector<Match> found;
  for (const auto& cause : c.rules.causes()) {
    if (!cause.engines.empty() && !Contains(cause.engines, c.st.engine)) continue;
    // The most direct condition that holds speaks for the cause (the first of equals).
    std::optional<Match> best;
    for (const auto& w : cause.when) {
      auto m = ConditionHolds(c, cause, w, v);
      if (m && (!best || Before(*m, *best))) best = std::move(m);
    }
    if (auto m = ConfirmedByTheReport(c, cause, v); m && (!best || Before(*m, *best))) {
      best = std::move(m);
    }
    if (best) {
      best->underlies = cause.underlies;
      best->cause = &cause;
      found.push_back(std::move(*best));
    }
  }
  DropExplained(found);
  std::stable_sort(found.begin(), found.end(), Before);
  for (auto& m : found) v.findings.push_back(std::move(m.finding));
}

}  // namespace spinup::judge
