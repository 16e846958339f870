// What came above a log's first banner and is no start of its own: the writer's quote of the
// error, a record of how a run ended, an engine build, the environment collector's import.
#include <algorithm>

#include "diagnose/tracker.h"
#include "logs/prose.h"

namespace spinup {

// A report's writer quoting the error above the log that printed it ("I get this error:", the
// traceback, then "Full log:"): a person's line came first, or a markdown fence between the error
// and the banner (the quote's closing one, the log's opening one). Before the log's first banner:
// an error with no time, and no phase line but a finished engine build's; the log's own lines
// before its banner may follow it. A start that printed the error would have printed something
// before it. A lone untimed line that names no exception is the writer's too ("Got a NCCL error",
// "vllm 0.9.0 on 4x A10G, NCCL errors so I think NCCL is broken?"): a restart's tail cut to one
// line ends in "SomeError: ...".
bool StartupTracker::QuotedAboveTheLog(const AttemptFacts& cur) const {
  // (Or its one error line came before any stamped line: the writer's sentence above the log,
  // then a wrapper's lines or the engine's first lines before its banner, compose's "[+] Running
  // 1/1", vLLM's "Automatically detected platform".)
  // A supervisor's relay of a task's exit quoted alone ("srun: error: node: task 0: Exited with
  // exit code 1") is such a remark too: no earlier start's own line came with it.
  const bool lone_remark =
      (cur.lines == 1 ||
       (cur.errors.size() == 1 && (cur.stamped_lines == 0 || cur.error_before_stamps))) &&
      !cur.errors.empty() &&
      (!NamesAnException(cur.errors.front()) ||
       std::find(cur.relayed.begin(), cur.relayed.end(), cur.errors.front()) != cur.relayed.end());
  // (A container's exit record under it, compose's "sglang-1 exited with code 1", is the log's:
  // no writer quotes the supervisor's line with the error.)
  return (in_report_ || fences_ > cur.fences_at_error || lone_remark) &&
         state_.attempts.size() == 1 && !cur.banner &&
         !cur.hits.count("generic.container_exited") &&
         (cur.stamped_lines == 0 || cur.error_before_stamps) &&
         (!cur.phase_line || BuiltOnly(cur, true)) && !cur.ready && !cur.stopped &&
         (cur.crashed || !cur.errors.empty());
}

// A reply's quote of the comment it answers ("> " before every line the attempt's events came
// from), then the replier's own start, not quoted: the quoted run is the other commenter's, not
// an earlier attempt of this one, and its errors are not this start's.
bool StartupTracker::AnotherCommentsRun(const AttemptFacts& cur) const {
  return !event_quoted_ && state_.attempts.size() == 1 && cur.quoted_events > 0 &&
         cur.own_events == 0;
}

// `kubectl describe`'s or `get`'s record of the container's end ("Last State: Terminated, Exit
// Code: 137") pasted above `kubectl logs --previous`: the log below is that container's, so the
// record is its end, not a start of its own. Only lines no server printed came before the banner.
bool StartupTracker::RecordAboveThePreviousLog(const AttemptFacts& cur) const {
  return previous_log_ && state_.attempts.size() == 1 && !cur.banner &&
         stamped_at_previous_log_ == 0 && !cur.phase_line && !cur.ready && !cur.stopped &&
         cur.crashed;
}

// Before the server's banner, only an engine build that finished (trtllm-build's "Total time of
// building all engines" pasted above the server's log): the step that made the engine the start
// loads, not a start of its own; the shell prompt that ran the build is no server's banner.
bool StartupTracker::OnlyAFinishedBuild(const AttemptFacts& cur) {
  if ((cur.banner && cur.banner_engine != kPromptEngine) || !cur.errors.empty() || cur.crashed ||
      cur.ready || cur.stopped) {
    return false;
  }
  return BuiltOnly(cur, false);
}

// The attempt's phase lines are only an engine build that finished. `quoted_error`: a span that a
// line inside its phase opened is the quoted error's (its rule names the phase), not a phase
// line's.
bool StartupTracker::BuiltOnly(const AttemptFacts& cur, bool quoted_error) {
  bool built = false;
  for (const PhaseSpan& s : cur.timeline) {
    if (s.phase == Phase::kCompile && s.ended) {
      built = true;
    } else if (s.phase != Phase::kLaunch && !s.implicit && !(quoted_error && s.hinted)) {
      return false;
    }
  }
  return built;
}

// Above the log's first banner, nothing but a record of how a process ended (`docker inspect`'s
// "OOMKilled": true, `kubectl describe`'s exit code, the kernel's OOM kill, `docker ps`'s "Exited
// (1)": rules `oom_record.*`, `record.*`): the record tells of a run the log shows, not a start of
// its own, so it is no failed attempt; its evidence stays. A restart count beside it (`kubectl get
// pods`' row, rules `backoff.*`) is the supervisor's, not a run's line, and the command at a prompt
// that started it (`docker run -d ...`, rules `manual.*`) the person's.
bool StartupTracker::OnlyARecordOfAnEnd(const AttemptFacts& cur) {
  // (A kubelet's "Killing ... Stopping container" event beside the exit code is a record too;
  // read live, the stop may come before the exit code counts as a crash.)
  // (The command that started it, `docker run -d ...` at a prompt, is that run's, as the record.)
  const bool prompt_only = cur.banner && cur.banner_engine == kPromptEngine;
  if ((cur.banner && !prompt_only) || cur.phase_line || cur.ready || !(cur.crashed || cur.stopped))
    return false;
  // Knative's "Container failed with:" quotes the container's last lines after it; the run's own
  // first lines before its banner may follow.
  if (!cur.hits.empty() && cur.hits.begin()->first == "record.revision_failed") return true;
  bool record = false;
  // vLLM's import line ("Automatically detected platform cuda.") comes before its banner: the
  // log's own first line, not a run above it.
  uint64_t before_banner = 0;
  for (const auto& [id, hit] : cur.hits) {
    if (id.starts_with("oom_record.") || id.starts_with("record.")) {
      record = true;
    } else if (id == "vllm.platform") {
      before_banner += hit.count;
    } else if (!id.starts_with("generic.") && !id.starts_with("cause.") &&
               !id.starts_with("backoff.") && !id.starts_with("manual.")) {
      return false;  // an engine's line: the tail of a run of its own
    }
  }
  return record && cur.stamped_lines <= before_banner;
}

// The quote is no attempt: the log below it is the first, and says the same again. What its
// lines matched stays evidence (a record of an OOM kill above the log is the log's).
void StartupTracker::ForgetQuote(std::optional<int64_t> t, bool keep_hits) {
  AttemptFacts& quote = state_.attempts.back();
  if (quote.crashed) state_.crashed_attempts--;
  const int index = quote.index;
  // Nor was its first stamped line the log's: the log's own, coming again, is no second copy.
  if (quote.first_ms && first_stamped_ms_ && *first_stamped_ms_ >= *quote.first_ms) {
    first_stamped_ms_.reset();
    first_stamped_line_.clear();
    latest_stamped_ms_.reset();
  }
  RuleHits hits = std::move(quote.hits);
  quote = AttemptFacts{};
  quote.index = index;
  quote.start_ms = t;
  if (keep_hits) quote.hits = std::move(hits);
}

// vLLM's collect_env (a bug report's environment) prints "Collecting environment information..."
// after the engine's import line ("Automatically detected platform cuda."): that line, stamped
// whenever the report was written, was the collector's, not a start.
bool StartupTracker::ForgetCollectorImport() {
  if (state_.attempts.size() != 1) return false;
  const AttemptFacts& cur = state_.attempts.back();
  const bool launch_only =
      std::all_of(cur.timeline.begin(), cur.timeline.end(),
                  [](const PhaseSpan& s) { return s.phase == Phase::kLaunch; });
  // (The report's own lines above it may count: its headings, a fence.)
  if (cur.lines > 8 || !launch_only || cur.banner || !cur.errors.empty() || cur.crashed ||
      cur.ready || cur.stopped) {
    return false;
  }
  ForgetQuote(std::nullopt, /*keep_hits=*/false);
  now_ms_.reset();  // nor is its stamp the log's clock
  stamped_ms_.reset();
  return true;
}

}  // namespace spinup
