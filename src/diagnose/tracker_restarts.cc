// Restarts the log shows only by a dead attempt's lines coming again (its first error, its death):
// where the new run begins, and which lines before that point were already the new run's.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "diagnose/tracker.h"

namespace spinup {

// The attempt's first error again, long after its last line, with no phase line yet: a process
// that died before its engine said anything, started again (a container restarting on an
// ImportError). One process prints its own traceback once; ranks that fail alike print theirs
// within a second, each under its own rank.
bool StartupTracker::FirstErrorAgain(const AttemptFacts& a, const LogEvent& e,
                                     std::optional<int64_t> t, int64_t gap_ms) {
  if (!t || !a.last_ms || a.errors.empty() || (a.phase && *a.phase != Phase::kLaunch) ||
      *t - *a.last_ms < gap_ms)
    return false;
  const std::string& first = a.errors.front();
  const std::string_view text = std::string_view(e.text).substr(0, 400);
  // A traceback's header again says only that another traceback follows: vLLM's API server
  // prints its own ("Engine process failed to start") when its 10 s wait for the engine
  // process that died runs out. A restart takes longer than that wait.
  constexpr int64_t kHeaderAgainGapMs = 15'000;
  if (text.starts_with("Traceback (most recent call last)") &&
      *t - *a.last_ms < kHeaderAgainGapMs) {
    return false;
  }
  if (e.rank.empty()) return first == text;
  return first.size() == e.rank.size() + 3 + text.size() && first[0] == '[' &&
         std::string_view(first).substr(1, e.rank.size()) == e.rank &&
         std::string_view(first).substr(e.rank.size() + 3) == text;
}

void StartupTracker::RestartWithoutBanner(const LogEvent& e, std::optional<int64_t> t) {
  AttemptFacts& dead = Current();
  // The restart began at its opening line, seen again before this one: the new attempt's too.
  std::string opening = dead.first_line_again ? dead.first_line : std::string();
  // Errors read after the dead attempt's death line, before that death again stamped later, were
  // the new run's: tails of several runs pasted one after the other, each its traceback and then
  // its death (SGLang's "Received sigquit from a child process" below the scheduler's exception).
  // (The same death at the same time is a copy of the paste: its errors stay the copied run's.)
  std::vector<std::string> since_death;
  const size_t at_death = std::min(dead.errors_at_death, dead.errors.size());
  const bool later = t && dead.crash_ms && *t > *dead.crash_ms;
  if (e.kind == LogEvent::Kind::kFatal && dead.crashed && later && at_death > 0) {
    since_death.assign(dead.errors.begin() + static_cast<std::ptrdiff_t>(at_death),
                       dead.errors.end());
    dead.errors.resize(at_death);
  }
  NewAttempt(t);
  Current().first_line = std::move(opening);
  for (const std::string& line : since_death) NoteError(Current(), line);
}

}  // namespace spinup
