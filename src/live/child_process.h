// Starting the server under `spinup run`: a child in its own process group, with its stdout and
// stderr on pipes (so spinup can pass them through and read them), this process its subreaper.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct ChildProcess {
  pid_t pid = -1;      // also the process group id
  int stdout_fd = -1;  // read ends, non-blocking, close-on-exec
  int stderr_fd = -1;
};

// Makes this process a subreaper (PR_SET_CHILD_SUBREAPER), so descendants orphaned by the server
// are re-parented here and can be ended and reaped.
Status BecomeSubreaper();

// Forks and execs argv (PATH is searched) in a new process group with default signal dispositions
// and an empty signal mask; stdin is inherited. Fails when argv is empty or exec fails (the child
// reports the errno through a close-on-exec pipe).
Result<ChildProcess> SpawnChild(const std::vector<std::string>& argv);

// The shell convention for an exit: the code, or 128 + signal number when killed by a signal.
int ExitCodeFromWaitStatus(int wait_status);

}  // namespace spinup
