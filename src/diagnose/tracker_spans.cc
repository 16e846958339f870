// Spans whose start a line's own figure says (a phase that ran N seconds before its line), and
// the span helpers the tracker's files share (tracker_spans.h).
#include <algorithm>

#include "diagnose/tracker.h"
#include "diagnose/tracker_spans.h"

namespace spinup {
namespace tracker_internal {

PhaseSpan* OpenSpan(AttemptFacts& a, const std::string& rank) {
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    if (it->rank == rank) return it->ended ? nullptr : &*it;
  }
  return nullptr;
}

void PushSpan(AttemptFacts& a, PhaseSpan span) {
  if (a.timeline.size() >= StartupTracker::kMaxSpans) {
    // Keep memory bounded: drop the older half of the closed spans in one pass (amortised O(1)
    // per push; a log that repeats phases forever keeps its latest history).
    size_t to_drop = StartupTracker::kMaxSpans / 2;
    auto it = std::remove_if(a.timeline.begin(), a.timeline.end(), [&](const PhaseSpan& s) {
      if (to_drop > 0 && s.ended) {
        --to_drop;
        return true;
      }
      return false;
    });
    a.timeline.erase(it, a.timeline.end());
    if (a.timeline.size() >= StartupTracker::kMaxSpans) {
      a.timeline.erase(a.timeline.begin(), a.timeline.begin() + StartupTracker::kMaxSpans / 2);
    }
  }
  a.timeline.push_back(std::move(span));
}

}  // namespace tracker_internal

using tracker_internal::OpenSpan;
using tracker_internal::PushSpan;

// A line that says how long its phase has run so far (vLLM V1's "Graph capturing finished in 20
// secs, took 0.5 GiB", printed before the step's last work): where it opens that phase, the phase
// began that long before it, not before the open span did.
std::optional<int64_t> StartupTracker::BegunBefore(AttemptFacts& a, const LogEvent& e,
                                                   std::optional<int64_t> t) {
  if (!t || !e.elapsed_seconds) return t;
  int64_t since = *t - static_cast<int64_t>(*e.elapsed_seconds * 1000);
  if (const PhaseSpan* open = OpenSpan(a, e.rank); open != nullptr && open->start_ms) {
    since = std::max(since, *open->start_ms);
  }
  return std::min(since, *t);
}

// The same line on a rank already in that phase, opened late by a line printed at the phase's end
// (custom all-reduce's "Registering N cuda graph addresses", on a rank without the capture's bar):
// the phase began that long before, and the span before it ends there.
void StartupTracker::RedateOpenSpan(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  if (!t || !e.elapsed_seconds || !e.phase || a.ready) return;
  PhaseSpan* open = OpenSpan(a, e.rank);
  if (open == nullptr || open->phase != *e.phase || !open->start_ms) return;
  int64_t since = *t - static_cast<int64_t>(*e.elapsed_seconds * 1000);
  if (since >= *open->start_ms) return;
  PhaseSpan* before = nullptr;
  for (PhaseSpan* s = open; s != a.timeline.data();) {
    --s;
    if (s->rank == e.rank) {
      before = s;
      break;
    }
  }
  // Never back past the span before it, and only over a span that ended where this one began.
  if (before == nullptr || !before->start_ms || before->end_ms != open->start_ms) return;
  since = std::max(since, *before->start_ms);
  before->end_ms = since;
  open->start_ms = since;
}

// vLLM's "Time spent downloading weights for M: N seconds", printed inside the load once the Hub
// download is over: N of the open span's seconds were the download's. The span is split around
// it, so the timeline (and its slowest phase) shows the download as its own phase. Only the
// download: no other phase runs inside a later one.
// The other ranks' loads that began before the download ended waited for it (vLLM and SGLang
// download under a file lock that one rank holds): that wait is the download's too.
bool StartupTracker::CarveEarlierPhase(AttemptFacts& a, const LogEvent& e,
                                       std::optional<int64_t> t) {
  if (!t || !e.elapsed_seconds || e.phase != Phase::kDownload || a.ready) return false;
  if (EndDownloadInsideLoad(a, e, t)) return true;
  PhaseSpan* open = OpenSpan(a, e.rank);
  if (open == nullptr || !open->start_ms || Order(open->phase) <= Order(Phase::kDownload)) {
    return false;
  }
  const int64_t from =
      std::max(*open->start_ms, *t - static_cast<int64_t>(*e.elapsed_seconds * 1000));
  CarveDownload(a, open, from, *t, e.elapsed_seconds);
  std::vector<std::string> waiting;
  for (const TrackedRank& r : a.ranks) {
    const PhaseSpan* other = r.rank == e.rank ? nullptr : OpenSpan(a, r.rank);
    if (other != nullptr && other->phase == Phase::kWeightLoad && other->start_ms &&
        *other->start_ms < *t) {
      waiting.push_back(r.rank);
    }
  }
  for (const std::string& rank : waiting) {
    PhaseSpan* other = OpenSpan(a, rank);
    CarveDownload(a, other, std::max(from, *other->start_ms), *t, std::nullopt);
  }
  Mark(Signal::kLogProgress, t);
  return true;
}

// Splits `open` around [from, to], which was the download's.
void StartupTracker::CarveDownload(AttemptFacts& a, PhaseSpan* open, int64_t from, int64_t to,
                                   std::optional<double> reported) {
  PhaseSpan download;
  download.rank = open->rank;
  download.phase = Phase::kDownload;
  download.start_ms = from;
  download.end_ms = to;
  download.ended = true;
  download.reported_seconds = reported;
  PhaseSpan after = *open;  // the open phase goes on after the download
  after.start_ms = to;
  after.implicit = false;
  after.carved_s += reported ? *reported : static_cast<double>(to - from) / 1000;
  if (from > *open->start_ms) {
    CloseSpan(a, open, from);  // its part before the download (vLLM's "Starting to load model")
  } else {
    a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
  }
  PushSpan(a, std::move(download));
  PushSpan(a, std::move(after));
}

// A compile line while the start is in a later phase that builds kernels lazily (SGLang's capture,
// vLLM's profile run and the warm-up after it): the build ran from its first such line to its
// last. A line of a build itself (ninja's compiler steps, DeepGEMM's "JIT Compiling") says it
// built, not only loaded a cached kernel; the outer phase's own progress (its bar moving, its
// end) says the build is over. Only the first build of the attempt is kept.
void StartupTracker::NoteJitInside(AttemptFacts& a, const LogEvent& e, std::optional<int64_t> t) {
  static constexpr std::string_view kBuildSteps[] = {"generic.jit_build_step", "sglang.deepgemm",
                                                     "sglang.jit_rebuild", "vllm.kernel_warmup"};
  if (!t || !e.phase || a.ready || !a.phase) return;
  auto& jit = a.jit_inside;
  if (*e.phase != Phase::kCompile) {
    const bool moved_on = e.kind == LogEvent::Kind::kPhaseEnd ||
                          e.kind == LogEvent::Kind::kPhaseBegin ||
                          (e.kind == LogEvent::Kind::kProgress && e.progress_n > 0);
    if (!jit || *e.phase != jit->outer || !moved_on || !jit->open) return;
    // Untimed lines (DeepGEMM's bars) ran until the phase's next stamped line.
    if (jit->untimed_tail && e.time_ms && !e.time_inferred) jit->to_ms = std::max(jit->to_ms, *t);
    jit->open = false;
    return;
  }
  if (e.kind != LogEvent::Kind::kInfo && e.kind != LogEvent::Kind::kProgress) return;
  const Phase outer = *a.phase;
  if (outer != Phase::kKvCache && outer != Phase::kCudaGraph && outer != Phase::kWarmup) return;
  if (jit && jit->outer != outer) return;
  const bool building =
      std::find(std::begin(kBuildSteps), std::end(kBuildSteps), e.rule_id) != std::end(kBuildSteps);
  if (!jit) jit = AttemptFacts::JitInside{outer, *t, *t, building, true};
  jit->to_ms = std::max(jit->to_ms, *t);
  jit->building |= building;
  jit->open = true;
  jit->untimed_tail = !e.time_ms || e.time_inferred;
}

// A Hub download's bar ("Fetching 55 files", "model-00002-of-00012.safetensors:  43%") in a load
// that has read nothing yet: vLLM and SGLang fetch the checkpoint inside their loader, so the load
// so far was the download, and the start downloads until the loader's own bar moves it on.
// A bar with no process tag of its own (tqdm writes to stderr, untagged) while tagged workers load:
// each of them waits for it, and the bar's own line goes on to open the untagged side's download.
bool StartupTracker::DownloadInsideLoad(AttemptFacts& a, const LogEvent& e,
                                        std::optional<int64_t> t) {
  if (!t || e.phase != Phase::kDownload || e.elapsed_seconds || a.ready) return false;
  bool loaded_all = false;  // a loader's bar at its total: that load is over
  for (const BarState& b : a.bars) {
    if (b.phase != Phase::kWeightLoad || b.n == 0) continue;
    if (b.total <= 0 || b.n < b.total) return false;
    loaded_all = true;
  }
  auto loading = [&](const std::string& rank) {
    const PhaseSpan* open = OpenSpan(a, rank);
    return open != nullptr && open->phase == Phase::kWeightLoad && open->start_ms &&
           *open->start_ms <= *t;
  };
  if (loading(e.rank)) {
    // After a finished load, a second model's weights (a speculative drafter's) are fetched: the
    // download begins now, the finished load stays as it was.
    if (loaded_all) {
      BeginPhase(a, e.rank, Phase::kDownload, t, /*explicit_begin=*/true);
      if (PhaseSpan* download = OpenSpan(a, e.rank)) download->within_load = true;
    } else {
      LoadBecomesDownload(a, e.rank);
    }
    Mark(Signal::kLogProgress, t);
    return true;
  }
  if (!e.rank.empty()) return false;
  for (const TrackedRank& r : a.ranks) {
    if (!r.rank.empty() && loading(r.rank)) LoadBecomesDownload(a, r.rank);
  }
  return false;
}

// The rank's open load, which has read nothing, was the download's so far.
void StartupTracker::LoadBecomesDownload(AttemptFacts& a, const std::string& rank) {
  PhaseSpan* open = OpenSpan(a, rank);
  const int64_t from = *open->start_ms;
  const bool undated = open->start_undated;  // the load's start, not this bar's
  a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
  BeginPhase(a, rank, Phase::kDownload, from, /*explicit_begin=*/true);
  if (PhaseSpan* download = OpenSpan(a, rank)) {
    download->within_load = true;
    download->start_undated = undated;
  }
}

// vLLM's "Time spent downloading weights" ends such a download: the load goes on from here.
bool StartupTracker::EndDownloadInsideLoad(AttemptFacts& a, const LogEvent& e,
                                           std::optional<int64_t> t) {
  PhaseSpan* open = OpenSpan(a, e.rank);
  if (!t || !e.elapsed_seconds || open == nullptr || !open->within_load) return false;
  open->reported_seconds = e.elapsed_seconds;
  BeginPhase(a, e.rank, Phase::kWeightLoad, t, /*explicit_begin=*/true);
  Mark(Signal::kLogProgress, t);
  return true;
}

// Where a download inside the load ended when no line said so: its last tick, or as long after its
// start as its longest bar's own elapsed ("Fetching 3 files: 100% ... [04:42<00:00"), never after
// `end` (the load's end line).
std::optional<int64_t> StartupTracker::DownloadEnd(const AttemptFacts& a, const PhaseSpan& download,
                                                   std::optional<int64_t> end) {
  std::optional<int64_t> at = a.last_progress_ms;
  for (const BarState& b : a.bars) {
    if (b.phase != Phase::kDownload || !b.elapsed_s || !download.start_ms) continue;
    const int64_t by_bar = *download.start_ms + static_cast<int64_t>(*b.elapsed_s * 1000);
    if (!at || by_bar > *at) at = by_bar;
  }
  if (!at || (end && *at > *end)) return end;
  return at;
}

double StartupTracker::DownloadSeconds(const PhaseSpan& download, std::optional<int64_t> end) {
  if (download.reported_seconds) return *download.reported_seconds;
  if (!download.start_ms || !end || *end < *download.start_ms) return 0;
  return static_cast<double>(*end - *download.start_ms) / 1000;
}

}  // namespace spinup
