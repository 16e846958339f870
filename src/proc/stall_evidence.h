// Pure pieces of the evidence gathered at a stall (no I/O; fuzzed in fuzz/stall_evidence_fuzz.cc):
// reading a `py-spy dump`, naming the collective a stack waits in, summarising threads by wait
// channel, and the sentence that says which rank is behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinup/startup.h"

namespace spinup::proc {

// One thread of a `py-spy dump`: `Thread 12345 (idle): "MainThread"` and its frames, innermost
// first, as function names (`all_reduce (torch/distributed/distributed_c10d.py:2050)` ->
// "all_reduce").
struct PyThreadStack {
  int64_t tid = 0;
  std::string name;
  std::string status;  // "idle", "active", "gil", ...
  std::vector<std::string> frames;
};
// At most max_threads threads and max_frames frames each; lines that are not frames are skipped.
std::vector<PyThreadStack> ParsePySpyDump(std::string_view text, size_t max_threads = 512,
                                          size_t max_frames = 256);

// The collective a rank waits in, from its threads' frames (innermost collective wins):
// "all-reduce", "all-gather", "reduce-scatter", "broadcast", "barrier", "process-group init",
// "send/recv" (irecv/isend); "" when none.
std::string CollectiveOf(const std::vector<PyThreadStack>& threads);

// /proc/PID/task/TID/stack: "[<0>] futex_wait_queue+0x60/0x90" lines -> "futex_wait_queue".
std::vector<std::string> ParseKernelStack(std::string_view text, size_t max_frames = 64);

// wchan names -> (wchan, threads), most threads first, then by name; "0"/"" counted as
// "running".
std::vector<std::pair<std::string, int>> SummarizeWaitChannels(
    const std::vector<std::string>& wchans);

// The rank a process stands for, from its command line or comm: "sglang::scheduler_TP2" -> "TP2",
// "sglang::scheduler_DP1_TP3" -> "DP1_TP3", "VllmWorker TP0" -> "TP0"; "" when none.
std::string RankOfProcess(std::string_view cmdline, std::string_view comm);

// Which rank is behind, as one sentence, from the verdict's per-rank phases (phase order first,
// then how long ago each rank entered its phase) and, where known, what each rank waits in
// (rank -> collective from its Python stack):
//   "TP2 has not left distributed_init; TP0, TP1, TP3 are waiting in all-reduce"
//   "TP2 has not left distributed_init; TP0, TP1, TP3 are in weight_load"
//   "all 4 ranks are in distributed_init; none is behind the others"
// "" when there are no ranks.
std::string BehindSentence(const std::vector<RankPhase>& ranks,
                           const std::vector<std::pair<std::string, std::string>>& waiting_in);

}  // namespace spinup::proc
