// StartupTracker's reading of a traceback's frames: which phase the failure was raised in, and
// whose frames they are (or that they were a client's); and of NCCL's watchdog lines: which ranks
// waited, in which collective.
#include <charconv>

#include "diagnose/tracker.h"

namespace spinup {

// A client's traceback pasted below the server's log (a request sent before the server was up, a
// benchmark's connection error) is not the server's failure. Its exception names the client's
// library; until then the traceback reads like the server's own, so the attempt is kept as it was
// before its header, and given back when the chain ends in such an exception with no frame of the
// server's in it (the hub download of a server raises a client library's exception through its
// own frames).
// The attempt as it was before the traceback being read began, but for its rule hits and bars
// (which an error line does not move): the traceback was not the server's failure.
void StartupTracker::TakeBackTraceback(AttemptFacts& a) {
  if (!before_traceback_ || before_traceback_->index != a.index ||
      before_traceback_->crashed != a.crashed) {
    return;
  }
  AttemptFacts& was = *before_traceback_;
  was.hits = std::move(a.hits);
  was.bars = std::move(a.bars);
  a = std::move(was);
}

void StartupTracker::KeepFramesAtHeader(const AttemptFacts& a) {
  frames_at_header_ = {a.frame_phase,        a.failing_frame,  a.implicit_frame,
                       a.opened_after_frame, a.unplaced_frame, a.frame_rank};
  frames_at_header_attempt_ = a.index;
}

void StartupTracker::GiveBackFramesAtHeader(AttemptFacts& a) const {
  // Only where an earlier traceback of this attempt had placed the crash: alone, the parent's
  // frames still say which step the worker was in.
  if (frames_at_header_attempt_ != a.index || !frames_at_header_.frame_phase) return;
  a.frame_phase = frames_at_header_.frame_phase;
  a.failing_frame = frames_at_header_.failing_frame;
  a.implicit_frame = frames_at_header_.implicit_frame;
  a.opened_after_frame = frames_at_header_.opened_after_frame;
  a.unplaced_frame = frames_at_header_.unplaced_frame;
  a.frame_rank = frames_at_header_.frame_rank;
}

void StartupTracker::OnFrame(AttemptFacts& a, const LogEvent& e) {
  if (!e.phase) {
    if (e.role == LogEvent::Role::kRelay) GiveBackFramesAtHeader(a);
    return;
  }
  const bool says_little = e.role != LogEvent::Role::kDirect;
  if (innermost_first_ && innermost_placed_) return;
  if (innermost_first_ && !says_little) innermost_placed_ = true;
  // A relay's frame (a process waiting on a worker that failed) only says the worker had started;
  // a frame of the worker's own traceback, before or after it, says more. So does any frame beside
  // a fallback's (a model's forward, which runs in several steps, or an exception's message that
  // names the work).
  const bool fallback = e.role == LogEvent::Role::kFallback;
  if (a.frame_phase && (fallback || e.role == LogEvent::Role::kRelay)) return;
  // A frame with no rank of its own (a traceback's lines after its rank's header) is that rank's.
  const std::string& rank = e.rank.empty() ? a.error_rank : e.rank;
  a.frame_phase = e.phase;
  a.frame_rank = rank;
  if (!rank.empty() && rank == (a.failing_rank.empty() ? a.unplaced_rank : a.failing_rank)) {
    a.failing_frame = e.phase;
  }
  if (a.opened_after) a.opened_after_frame = e.phase;
  // Nor does a fallback say more than a peer's lines or the end line before it: it moves a crash
  // forward from where the lines got to, never back.
  if (fallback) return;
  // A pinned frame is setup code that runs before the phase lines around it say so (TGI's shard
  // sets up torch.distributed before it builds the model): the first failure through it failed
  // there.
  if (e.pinned && !a.pinned_phase && !a.frames_closed) {
    a.pinned_phase = e.phase;
    a.pinned_when_ready = a.ready;
  }
  if (a.implicit_after) a.implicit_frame = e.phase;
  if (!a.unplaced_rank.empty() && rank == a.unplaced_rank) a.unplaced_frame = e.phase;
}

// "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=57, ...": which ranks
// waited in the collective, and in which one.
void StartupTracker::NoteWatchdogRank(AttemptFacts& a, std::string_view text) {
  if (const size_t seq_at = text.find("(SeqNum="); seq_at != std::string_view::npos) {
    uint64_t seq = 0;
    const char* from = text.data() + seq_at + 8;
    const auto [seq_end, seq_ec] = std::from_chars(from, text.data() + text.size(), seq);
    if (seq_ec == std::errc() && seq_end != from) {
      if (a.watchdog_seq && *a.watchdog_seq != seq) a.watchdog_seq_differs = true;
      a.watchdog_seq = seq;
    }
  }
  const size_t at = text.find("Rank ");
  if (at == std::string_view::npos) return;
  unsigned rank = 0;
  const char* digits = text.data() + at + 5;
  const auto [end, ec] = std::from_chars(digits, text.data() + text.size(), rank);
  if (ec == std::errc() && end != digits && rank < 64) a.watchdog_ranks |= uint64_t{1} << rank;
}

}  // namespace spinup
