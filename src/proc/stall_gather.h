// Gathers the evidence of a stall (include/spinup/startup.h StallEvidence) from a live process
// tree, bounded in time and size: each rank's Python stack through `py-spy dump --pid P` (one
// time limit per PID, output capped) when py-spy is available, else the kernel stacks of its
// threads (/proc/PID/task/TID/stack, where readable), and in any case its threads counted by wait
// channel. The /proc root and the command runner are injected so tests use fixture trees and
// fake commands. GPUs are the caller's (the NVML sample taken at the stall).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "spinup/startup.h"

namespace spinup::proc {

struct CommandOutput {
  bool started = false;    // false: could not be executed (error says why)
  bool timed_out = false;  // killed at the limit
  int exit_code = -1;
  std::string output;  // stdout and stderr, capped
  bool truncated = false;
  std::string error;
};
using CommandRunner = std::function<CommandOutput(const std::vector<std::string>& argv,
                                                  std::chrono::milliseconds limit, size_t cap)>;
// fork + exec in its own process group; the group is SIGKILLed at `limit`. Never blocks longer.
CommandOutput RunBoundedCommand(const std::vector<std::string>& argv,
                                std::chrono::milliseconds limit, size_t cap);

struct GatherTarget {
  int pid = 0;
  std::string rank;  // "" for processes that name no rank
};
// The processes worth a stack, from a sample of the tree: ranks first (by rank name), then the
// others with the most threads; compilers left out. At most `max`.
std::vector<GatherTarget> StallTargets(const Sample& sample, size_t max = 16);

struct GatherOptions {
  std::string proc_root = "/proc";
  std::string py_spy;    // py-spy's path, resolved at the CLI edge; "" = not available
  CommandRunner runner;  // empty: RunBoundedCommand
  std::chrono::milliseconds per_pid_limit{5000};
  std::chrono::milliseconds total_limit{25000};  // the whole gathering, all ranks
  int parallel = 8;                              // py-spy runs at once
  size_t stack_cap = 16 * 1024;                  // per rank, py-spy output or kernel stacks
  size_t max_threads = 256;                      // threads read per process
  std::function<bool()> cancelled;               // polled between steps (the watch ended)
};

// Never throws and never takes longer than about total_limit. The behind sentence uses `ranks`
// (the verdict's per-rank phases) and the collectives seen in the Python stacks.
StallEvidence GatherStallEvidence(const std::vector<GatherTarget>& targets,
                                  const std::vector<RankPhase>& ranks,
                                  const GatherOptions& options);

}  // namespace spinup::proc
