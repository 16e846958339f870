#include "live/child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

namespace spinup {

Status BecomeSubreaper() {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return Status::FromErrno(errno, "prctl(PR_SET_CHILD_SUBREAPER)");
  }
  return Status::Ok();
}

Result<ChildProcess> SpawnChild(const std::vector<std::string>& argv) {
  if (argv.empty()) return Status::InvalidArgument("no command to run (give it after --)");
  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Status::FromErrno(errno, "pipe");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return Status::FromErrno(e, "pipe");
  }
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    return Status::FromErrno(e, "pipe");
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]})
      ::close(fd);
    return Status::FromErrno(e, "fork");
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here to exec.
    // If spinup dies, even by SIGKILL, the server dies with it (its orphans go to the keeper,
    // live/tree_keeper.h). The check closes the race with a parent that died before the prctl.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::getppid() != parent) ::_exit(127);
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD}) ::signal(sig, SIG_DFL);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::execvp(args[0], args.data());
    int e = errno;
    ssize_t ignored = ::write(exec_pipe[1], &e, sizeof(e));
    (void)ignored;
    ::_exit(127);
  }
  // Parent: set the group here too, so it exists before we might signal it.
  ::setpgid(pid, pid);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ::close(exec_pipe[1]);
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(exec_pipe[0], &child_errno, sizeof(child_errno));
  } while (n < 0 && errno == EINTR);
  ::close(exec_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof(child_errno))) {
    ::waitpid(pid, nullptr, 0);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return Status::FromErrno(child_errno, argv[0] + ": cannot run");
  }
  for (int fd : {out_pipe[0], err_pipe[0]}) {
    int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  }
  return ChildProcess{pid, out_pipe[0], err_pipe[0]};
}

int ExitCodeFromWaitStatus(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

}  // namespace spinup
