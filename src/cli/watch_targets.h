// What `spinup watch` is told to attach to is checked once, before the watch: a dead or mistyped
// --pid, an unknown --unit, a missing or unreadable --log is a usage error (exit 2) with a
// message. Watching it anyway would report "in progress" (exit 5) forever, which a Kubernetes
// probe wrapper counts as success: the probe must fail closed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct WatchTargets {
  std::vector<int> pids;
  std::string unit;  // checked only when watched live (no --journal-file)
  bool live_unit = false;
  std::vector<std::string> logs;
};

struct WatchRoots {
  std::string proc_root = "/proc";
  std::string sys_root = "/sys";
  // Where systemd keeps unit files (a unit may exist without running: no cgroup yet).
  std::vector<std::string> unit_dirs = {"/etc/systemd/system", "/run/systemd/system",
                                        "/run/systemd/transient", "/usr/lib/systemd/system",
                                        "/lib/systemd/system"};
};

// OK, or the first problem (kNotFound / kInvalidArgument / kPermission, so ExitCodeFor gives 2).
// On success `start_ticks` holds each PID's start time, to pin it against PID reuse.
Status CheckWatchTargets(const WatchTargets& targets, const WatchRoots& roots,
                         std::vector<uint64_t>* start_ticks);

}  // namespace spinup
