// The timeline step of the judge (BuildTimeline): the attempt's spans as the verdict shows them,
// with waits marked and, in a start that came up, the spans a rank's lines left open closed.
#include <algorithm>
#include <bit>

#include "diagnose/judge_steps.h"
#include "diagnose/rank_format.h"

namespace spinup {
namespace judge {
namespace {

// A rank's span in a phase its tensor-parallel peers do together ("ranks.lockstep_from"; not a
// coordinator's, not a data-parallel group's of its own).
bool InLockstep(const Context& c, const TimelineEntry& e) {
  if (e.rank.empty() || !c.ranks.lockstep_from || Coordinator(c, e.rank)) return false;
  if (IndependentGroup(PeerGroup(e.rank), c.ranks.independent)) return false;
  return c.Order(e.phase) >= c.Order(*c.ranks.lockstep_from);
}

// Spans during which other ranks began two or more later phases were a wait for them, not the
// phase's own work: a coordinator's launch that covers its workers' whole load, a main process's
// unranked line that opened kv_cache while the ranks went on to compile and capture. A span the
// engine timed itself (`reported`) is work. One later phase is not enough: a rank slow to load
// overlaps its peer's next phase, and its span is the real delay. For the main process's or a
// coordinator's span it is when a rank's later phase fills most of it (its kv_cache line, then a
// worker's whole graph capture): the main process logs what its workers do, it does not do the
// work.
void MarkWaits(const Context& c, std::vector<TimelineEntry>& t, const std::vector<bool>& reported) {
  for (size_t i = 0; i < t.size(); ++i) {
    TimelineEntry& e = t[i];
    if (reported[i] || !e.start_ms || !e.seconds || *e.seconds <= 0) continue;
    const int64_t from = *e.start_ms;
    const int64_t to = from + static_cast<int64_t>(*e.seconds * 1000);
    uint64_t later = 0;        // the later phases others began, as bits of Phase
    double filled_s = 0;       // the most of it one such span fills
    double peer_s = 0;         // the most of it a lockstep peer's span of another phase fills
    double main_s = 0;         // the most of it the main process's HTTP start or warm-up fills
    int64_t first_later = to;  // when the first of those later phases began
    const bool lockstep = InLockstep(c, e);
    for (const TimelineEntry& o : t) {
      if (o.rank == e.rank || !o.start_ms || *o.start_ms <= from || *o.start_ms >= to) continue;
      if (o.phase == Phase::kReady) continue;
      const double within = o.seconds ? std::min(*o.seconds, (to - *o.start_ms) / 1e3) : 0;
      if (lockstep && o.phase != e.phase && PeerGroup(o.rank) == PeerGroup(e.rank))
        peer_s = std::max(peer_s, within);
      if (c.Order(o.phase) <= c.Order(e.phase)) continue;
      later |= uint64_t{1} << static_cast<unsigned>(o.phase);
      first_later = std::min(first_later, *o.start_ms);
      filled_s = std::max(filled_s, within);
      // (The server's own steps: its start and its warm-up request.)
      if (o.rank.empty() && (o.phase == Phase::kHttpStart || o.phase == Phase::kWarmup))
        main_s = std::max(main_s, within);
    }
    const bool main_filled =
        (e.rank.empty() || Coordinator(c, e.rank)) && filled_s >= 0.8 * *e.seconds;
    // A silent rank in step with a peer whose own lines show it doing another phase through
    // most of the span (vLLM V1's rank 2 left in kv_cache while rank 0 compiles): it did that.
    // A rank whose span the main process's later phase fills (SGLang's TP0 up, then the
    // server's warm-up request for minutes): the rank waited on the server.
    const bool rank_waits_main = !e.rank.empty() && main_s >= 0.8 * *e.seconds;
    // (Later phases that all began in the span's last fifth came after its work: a download
    // that ends as the workers start.)
    const bool others_worked_through = (to - first_later) >= (to - from) / 5;
    if ((std::popcount(later) >= 2 && others_worked_through) || main_filled ||
        peer_s >= 0.8 * *e.seconds || rank_waits_main) {
      e.waiting = true;
      e.slow = false;
    }
  }
}

// In a start that came up, a rank whose lines stopped in a phase (a TPU worker's compile, whose
// end only the main process's next line shows) was in it until the start went past it: until the
// first later phase any rank began. Without that the start's longest phase has no length.
void CloseSpansLeftOpen(const Context& c, std::vector<TimelineEntry>& t) {
  for (TimelineEntry& e : t) {
    if (e.end_ms || e.seconds || !e.start_ms || e.phase == Phase::kReady) continue;
    std::optional<int64_t> next;
    for (const TimelineEntry& o : t) {
      if (!o.start_ms || *o.start_ms <= *e.start_ms) continue;
      if (o.phase != Phase::kReady && c.Order(o.phase) <= c.Order(e.phase)) continue;
      if (!next || *o.start_ms < *next) next = o.start_ms;
    }
    if (!next) continue;
    e.end_ms = next;
    e.seconds = Span(c, *e.start_ms, *next);
    e.slow = *e.seconds > c.Budget(e.phase).normal_s;
  }
}

// A span whose end came with untimed lines (StartupTracker::DateUndated) ran at least until its
// earliest end; the rest of the gap to the next stamp went to it or to the phases those lines
// began. Well past all of their normal times together (by the judge's ready_slow_factor) is slow,
// and the gap is this span's (the timeline gives it the gap): Triton's stamped model load, then
// TensorRT-LLM's unstamped engine and KV-cache lines, then "successfully loaded" 17 minutes later.
bool SlowThroughTheGap(const Context& c, const AttemptFacts& a, const PhaseSpan& s,
                       double seconds) {
  if (!s.end_ms || !s.end_earliest_ms) return false;
  double allowed = c.Budget(s.phase).normal_s;
  for (const PhaseSpan& o : a.timeline) {
    if (&o == &s || o.rank != s.rank || o.phase == Phase::kReady || o.start_ms != s.end_ms)
      continue;
    allowed += c.Budget(o.phase).normal_s;
  }
  return seconds > c.thresholds().ready_slow_factor * allowed;
}

// A JIT build inside the span (AttemptFacts::jit_inside) of at least this long is shown as its
// own compile entry: a kernel loaded from the cache takes milliseconds, a cold build minutes. In a
// start that came up, only one long enough to be a slow compile of its own is; a shorter one stays
// the outer phase's time, as it was.
constexpr double kBuildInsideMinS = 30;

// The span as its part before the build, the build as compile, and its part after (none while the
// build is still going on): the build, not the capture around it, took the time. False where the
// span holds no such build.
bool SplitAroundTheBuild(const Context& c, const AttemptFacts& a, const PhaseSpan& s,
                         const TimelineEntry& e, std::vector<TimelineEntry>& out) {
  const auto& jit = a.jit_inside;
  if (!jit || s.phase != jit->outer || !s.start_ms || *s.start_ms > jit->from_ms ||
      (s.end_ms && *s.end_ms < jit->to_ms)) {
    return false;
  }
  // (A start that came up finished its build, whatever span its rank left open.)
  const bool still_building = !a.ready && !s.ended && jit->open && jit->building;
  const double before_s = Span(c, *s.start_ms, jit->from_ms);
  double build_s = Span(c, jit->from_ms, jit->to_ms);
  if (still_building && e.seconds) build_s = std::max(build_s, *e.seconds - before_s);
  const double min_s = a.ready
                           ? c.thresholds().ready_slow_factor * c.Budget(Phase::kCompile).normal_s
                           : kBuildInsideMinS;
  if (!still_building && build_s < min_s) return false;
  auto piece = [&](Phase phase, std::optional<int64_t> from, std::optional<int64_t> to,
                   double seconds) {
    TimelineEntry p = e;
    p.phase = phase;
    p.start_ms = from;
    p.end_ms = to;
    p.seconds = seconds;
    p.slow = seconds > c.Budget(phase).normal_s;
    out.push_back(std::move(p));
  };
  if (before_s > 0) piece(s.phase, s.start_ms, jit->from_ms, before_s);
  piece(Phase::kCompile, jit->from_ms, still_building ? e.end_ms : jit->to_ms, build_s);
  if (still_building || !e.seconds) return true;
  const double after_s = *e.seconds - before_s - build_s;
  if (after_s > 0 || !s.ended) piece(s.phase, jit->to_ms, e.end_ms, std::max(0.0, after_s));
  return true;
}

}  // namespace

void BuildTimeline(const Context& c, Verdict& v) {
  const AttemptFacts& a = *c.attempt;
  std::vector<bool> reported;
  for (const auto& s : a.timeline) {
    TimelineEntry e;
    e.rank = s.rank;
    e.phase = s.phase;
    e.start_ms = s.start_ms;
    e.end_ms = s.end_ms;
    if (s.reported_seconds) {
      e.seconds = s.reported_seconds;  // the engine's own figure beats two timestamps
    } else if (s.start_ms && s.end_ms) {
      e.seconds = Span(c, *s.start_ms, *s.end_ms);
    } else if (s.start_ms && !s.ended && c.now && !a.crashed && !a.ready) {
      e.seconds = Span(c, *s.start_ms, *c.now);
    }
    if (!s.ended) {
      // An untimed progress bar may know better how long its phase has run ("[06:12<...").
      for (const auto& b : a.bars) {
        if (b.phase == s.phase && b.elapsed_s && (!e.seconds || *b.elapsed_s > *e.seconds)) {
          e.seconds = b.elapsed_s;
        }
      }
    }
    if (e.phase == Phase::kReady) e.seconds.reset();
    if (e.seconds) e.slow = *e.seconds > c.Budget(e.phase).normal_s;
    if (e.slow && !s.reported_seconds && s.start_ms && s.end_earliest_ms) {
      e.slow = Span(c, *s.start_ms, *s.end_earliest_ms) > c.Budget(e.phase).normal_s ||
               SlowThroughTheGap(c, a, s, *e.seconds);
    }
    if (s.implicit && s.ended && e.seconds && *e.seconds < c.thresholds().min_implicit_span_s) {
      continue;
    }
    if (const size_t before = v.timeline.size(); SplitAroundTheBuild(c, a, s, e, v.timeline)) {
      reported.resize(reported.size() + (v.timeline.size() - before), false);
      continue;
    }
    v.timeline.push_back(std::move(e));
    reported.push_back(s.reported_seconds.has_value());
  }
  if (a.ready) CloseSpansLeftOpen(c, v.timeline);
  MarkWaits(c, v.timeline, reported);
  for (const auto& r : a.ranks) v.ranks.push_back(RankPhase{r.rank, r.phase, r.since_ms});
  v.errors = a.errors;
  if (c.between_turns) {
    // Between two turns of a loop, the latest attempt that said something is the one to quote.
    for (auto it = c.st.attempts.rbegin(); it != c.st.attempts.rend(); ++it) {
      if (!it->errors.empty()) {
        v.errors = it->errors;
        break;
      }
    }
  }
  if (!a.bars.empty()) {
    const BarState& bar = a.bars.back();
    v.progress.bar = bar.bar;
    v.progress.bar_n = bar.n;
    v.progress.bar_total = bar.total;
  }
}

}  // namespace judge
}  // namespace spinup
