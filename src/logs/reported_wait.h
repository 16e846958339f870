// How long a report's writer says the start sat without output ("It hangs here forever, I waited
// more than an hour", "after 20 minutes nothing"): a log pasted into an issue often ends where the
// server went quiet, and only the writer's sentence says how long that lasted.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace spinup {

// The wait a person's sentence claims, in seconds (infinity for "forever"/"indefinitely"), when
// the line reads as a sentence (words, no program's punctuation) that says the start hangs, is
// stuck or printed nothing more, and names a duration or "forever". nullopt otherwise.
std::optional<double> ReportedWaitSeconds(std::string_view line);

// Where a writer's note set behind a log line on the same line starts ("Capturing CUDA graph
// shapes:  14%|...| 5/35 [00:02<00:14]   <-- stuck here for 20 min"): the blanks before its arrow
// ("<-", "<--", "\xe2\x86\x90"), which a blank precedes and three or more words follow; npos when
// the line holds none ("x <- y" is code).
size_t NoteBehindTheLine(std::string_view line);

// How long the pod had run when Kubernetes' output pasted below the log was taken, in seconds:
// a `kubectl get pods` row that has not restarted ("vllm-0   0/1   Running   0   27m": its AGE),
// or a readiness or startup probe's failure that has repeated since ("Unhealthy  2m (x160 over
// 26m)  kubelet  Readiness probe failed", the first at least that long ago). nullopt otherwise.
std::optional<double> KubernetesAgeSeconds(std::string_view line);

// Whether a person's sentence says the start works with something changed ("With
// `--disable-custom-all-reduce` it comes up in 50 s", "NCCL_P2P_DISABLE=1 fixes it"): a success
// word, no denial ("still hangs", "didn't help"), and a flag or setting (a `--` or `_`) in it.
bool SaysItWorksWith(std::string_view sentence);

// Whether a person's sentence says the log after it is another try of theirs ("re-ran with
// NCCL_DEBUG=WARN:", "Then I ran it again with --enforce-eager", "second attempt:").
bool SaysItRanAgain(std::string_view sentence);

// The sentences of a person's paragraph that say the start works with something changed
// (SaysItWorksWith, sentence by sentence): a paragraph tells of several tries, and one that
// "did not help" must not hide the next that "fixes it".
std::vector<std::string_view> SentencesSayingItWorks(std::string_view paragraph);

// How long the command whose output this is ran, in seconds, from the shell's `time` report pasted
// after it: bash's `real\t187m41.123s`, POSIX `real 11261.12`, zsh's `... 3:07:41.12 total`, GNU
// time's `... 3:07:41elapsed ...`; a CI runner's cancel at its time limit (GitLab's "execution took
// longer than 2h0m0s seconds", GitHub's "exceeded the maximum execution time of 360 minutes").
// nullopt otherwise.
std::optional<double> CommandTimeSeconds(std::string_view line);

}  // namespace spinup
