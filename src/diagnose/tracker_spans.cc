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
bool StartupTracker::CarveEarlierPhase(AttemptFacts& a, const LogEvent& e,
                                       std::optional<int64_t> t) {
  if (!t || !e.elapsed_seconds || e.phase != Phase::kDownload || a.ready) return false;
  PhaseSpan* open = OpenSpan(a, e.rank);
  if (open == nullptr || !open->start_ms || Order(open->phase) <= Order(Phase::kDownload)) {
    return false;
  }
  const int64_t from =
      std::max(*open->start_ms, *t - static_cast<int64_t>(*e.elapsed_seconds * 1000));
  PhaseSpan download;
  download.rank = e.rank;
  download.phase = Phase::kDownload;
  download.start_ms = from;
  download.end_ms = t;
  download.ended = true;
  download.reported_seconds = e.elapsed_seconds;
  PhaseSpan after = *open;  // the open phase goes on after the download
  after.start_ms = t;
  after.implicit = false;
  after.carved_s += *e.elapsed_seconds;
  if (from > *open->start_ms) {
    CloseSpan(a, open, from);  // its part before the download (vLLM's "Starting to load model")
  } else {
    a.timeline.erase(a.timeline.begin() + (open - a.timeline.data()));
  }
  PushSpan(a, std::move(download));
  PushSpan(a, std::move(after));
  Mark(Signal::kLogProgress, t);
  return true;
}

}  // namespace spinup
