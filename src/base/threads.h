// Starting threads when the system may refuse them: a pids cgroup limit (a sidecar shares the
// server's), RLIMIT_NPROC. std::thread throws std::system_error then; uncaught, that aborts. Every
// pool in spinup starts its threads here and runs with as many as it got.
#pragma once

#include <functional>
#include <thread>
#include <vector>

namespace spinup {

// Starts up to `n` threads, thread k running fn(first_index + k); stops at the first the system
// refuses, so the result may be shorter than `n`, or empty. The caller joins them.
std::vector<std::thread> StartThreads(int n, const std::function<void(int)>& fn,
                                      int first_index = 0);

// Runs worker(0) .. worker(n-1) on `n` threads, the caller's being worker 0, and joins them.
// Workers must take their work from a shared queue, so that when fewer threads can be started
// the ones that run still do all of it. Returns how many workers ran (at least 1).
int RunOnThreads(int n, const std::function<void(int)>& worker);

// Tests: make the next StartThreads calls refuse every thread after `allowed` more (-1: no limit),
// as a pids limit would.
void SetThreadLimitForTesting(int allowed);

}  // namespace spinup
