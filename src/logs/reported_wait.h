// How long a report's writer says the start sat without output ("It hangs here forever, I waited
// more than an hour", "after 20 minutes nothing"): a log pasted into an issue often ends where the
// server went quiet, and only the writer's sentence says how long that lasted.
#pragma once

#include <optional>
#include <string_view>

namespace spinup {

// The wait a person's sentence claims, in seconds (infinity for "forever"/"indefinitely"), when
// the line reads as a sentence (words, no program's punctuation) that says the start hangs, is
// stuck or printed nothing more, and names a duration or "forever". nullopt otherwise.
std::optional<double> ReportedWaitSeconds(std::string_view line);

// How long the pod had run when Kubernetes' output pasted below the log was taken, in seconds:
// a `kubectl get pods` row that has not restarted ("vllm-0   0/1   Running   0   27m": its AGE),
// or a readiness or startup probe's failure that has repeated since ("Unhealthy  2m (x160 over
// 26m)  kubelet  Readiness probe failed", the first at least that long ago). nullopt otherwise.
std::optional<double> KubernetesAgeSeconds(std::string_view line);

}  // namespace spinup
