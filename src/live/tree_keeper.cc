#include "live/tree_keeper.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "live/process_tree.h"

namespace spinup {
namespace {

// Everything still below the keeper is SIGKILLed and reaped: the monitor is gone, so nothing is
// left to end the tree gracefully. Orphans keep arriving (re-parented) until the last one dies,
// so this loops until the keeper has no child at all.
void KillEverythingBelow() {
  const pid_t self = ::getpid();
  while (true) {
    for (pid_t p : FindDescendants("/proc", self)) ::kill(p, SIGKILL);
    int st = 0;
    pid_t r = ::waitpid(-1, &st, 0);
    if (r < 0 && errno == ECHILD) return;
  }
}

[[noreturn]] void ExitLike(int status) {
  if (WIFSIGNALED(status)) {
    // Die of the same signal, so our parent sees what it would have seen without the keeper;
    // no core file of the keeper for a core-dumping one.
    const int sig = WTERMSIG(status);
    rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

[[noreturn]] void Keep(pid_t monitor, const sigset_t& waited) {
  while (true) {
    siginfo_t info{};
    int sig = ::sigwaitinfo(&waited, &info);
    if (sig < 0) continue;  // EINTR
    if (sig != SIGCHLD) {
      // Sent by a process (kill, a supervisor): pass it on. A terminal's SIGINT (si_code > 0)
      // reached the monitor already, through the foreground process group.
      if (info.si_code <= 0) ::kill(monitor, sig);
      continue;
    }
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(-1, &st, WNOHANG)) > 0) {
      if (r != monitor) continue;  // an orphan that ended by itself
      KillEverythingBelow();
      ExitLike(st);
    }
  }
}

}  // namespace

Status SplitOffTreeKeeper() {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return Status::FromErrno(errno, "prctl(PR_SET_CHILD_SUBREAPER)");
  }
  sigset_t waited, old;
  sigemptyset(&waited);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&waited, s);
  ::sigprocmask(SIG_BLOCK, &waited, &old);
  std::cout.flush();  // nothing buffered may be written twice
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t keeper = ::getpid();
  const pid_t monitor = ::fork();
  if (monitor < 0) {
    int e = errno;
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    return Status::FromErrno(e, "fork (spinup run continues without its tree keeper)");
  }
  if (monitor > 0) Keep(monitor, waited);
  // The monitor: the keeper's death is a SIGTERM (the run loop's signalfd takes it).
  ::prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  if (::getppid() != keeper) ::raise(SIGTERM);  // it died before the line above
  return Status::Ok();
}

}  // namespace spinup
