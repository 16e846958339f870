// Ending a server's whole process tree: the main process, its process group, and every
// descendant that left the group (setsid, double fork), found by walking the parent links in
// /proc. Used by `spinup run` so that no orphaned rank keeps GPU memory or the port.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <set>
#include <string>

namespace spinup {

// PIDs whose parent chain reaches `root` (not including `root`), or that are in process group
// `pgid` (when > 0), read from `proc_root` ("/proc" outside tests). Unreadable entries are skipped.
std::set<pid_t> FindDescendants(const std::string& proc_root, pid_t root, pid_t pgid = 0);

// True when `pid` exists and is not a zombie.
bool ProcessAlive(const std::string& proc_root, pid_t pid);

struct KillTreeOptions {
  std::string proc_root = "/proc";
  std::chrono::milliseconds grace{5000};  // SIGTERM first, SIGKILL after this
  bool reap = true;                       // waitpid() the children of this process (a subreaper)
};

// Sends SIGTERM to the group and every descendant of `self` (this process, a subreaper: orphans
// of the tree are re-parented to it), waits up to the grace period for them to go, then SIGKILLs
// whatever is left and reaps it. Returns how many processes had to be SIGKILLed.
int EndProcessTree(pid_t self, pid_t pgid, const KillTreeOptions& options);

}  // namespace spinup
