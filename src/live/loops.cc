#include "live/loops.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "live/child_process.h"
#include "live/process_tree.h"

namespace spinup {

namespace {

// Blocks the given signals for the lifetime of the object and reads them through a signalfd.
class SignalGate {
 public:
  explicit SignalGate(std::initializer_list<int> signals) {
    sigemptyset(&set_);
    for (int s : signals) sigaddset(&set_, s);
    ::sigprocmask(SIG_BLOCK, &set_, &old_);
    fd_ = ::signalfd(-1, &set_, SFD_CLOEXEC | SFD_NONBLOCK);
  }
  ~SignalGate() {
    if (fd_ >= 0) ::close(fd_);
    ::sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalGate(const SignalGate&) = delete;
  SignalGate& operator=(const SignalGate&) = delete;
  int fd() const { return fd_; }
  // The signals that arrived since the last call.
  std::vector<int> Take() {
    std::vector<int> out;
    signalfd_siginfo info{};
    while (fd_ >= 0 && ::read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
      out.push_back(static_cast<int>(info.ssi_signo));
    }
    return out;
  }

 private:
  sigset_t set_{};
  sigset_t old_{};
  int fd_ = -1;
};

void WaitFor(const std::vector<int>& fds, int timeout_ms) {
  std::vector<pollfd> pfds;
  for (int fd : fds) pfds.push_back({fd, POLLIN, 0});
  ::poll(pfds.data(), pfds.size(), std::max(0, timeout_ms));
}

constexpr int64_t kPumpMs = 100;  // files and the journal are read this often between samples

int64_t IntervalMs(const Watcher& w) {
  return std::max<int64_t>(10, static_cast<int64_t>(w.interval_s() * 1000));
}

// The next tick: the interval's, or the --timeout deadline when that comes first.
int64_t NextWake(const Watcher& w, int64_t next_tick) {
  return std::min(next_tick, w.deadline_ms());
}

// Decorates the real sampler with what only the run loop knows: the server's exit status.
class RunSampleSource final : public SampleSource {
 public:
  explicit RunSampleSource(std::unique_ptr<SampleSource> inner) : inner_(std::move(inner)) {}
  Sample Take(int64_t now_ms) override {
    Sample s = inner_ ? inner_->Take(now_ms) : Sample{};
    s.time_ms = now_ms;
    s.exit_status = exit_status_;
    return s;
  }
  bool Gone() const override { return exit_status_.has_value(); }
  void set_exit_status(int status) { exit_status_ = status; }

 private:
  std::unique_ptr<SampleSource> inner_;
  std::optional<int> exit_status_;
};

}  // namespace

WatchEnd RunWatchLoop(Watcher& watcher, Clock& clock) {
  SignalGate signals({SIGINT, SIGTERM, SIGHUP});
  const int64_t interval = IntervalMs(watcher);
  int64_t next_tick = clock.NowMs();
  while (true) {
    int64_t now = clock.NowMs();
    if (now >= NextWake(watcher, next_tick)) {
      // --once: read everything the sources hold before the one judgement.
      for (int i = 0; i < (watcher.options().once ? 1000 : 1); ++i) {
        if (!watcher.Pump() && watcher.options().once) break;
      }
      if (auto end = watcher.Tick()) return *end;
      next_tick = std::max(next_tick + interval, now + 1);
      // Every source ended (journal files read to their end) and no process is left to sample.
      if (watcher.all_sources_done() && (watcher.sampler_gone() || !watcher.has_sampler())) {
        return WatchEnd{ExitCodeForState(watcher.last_verdict().state), "sources ended"};
      }
    }
    std::vector<int> fds = watcher.PollFds();
    fds.push_back(signals.fd());
    WaitFor(fds, static_cast<int>(std::min(kPumpMs, NextWake(watcher, next_tick) - clock.NowMs())));
    if (!signals.Take().empty()) {
      watcher.Evaluate();
      return WatchEnd{ExitCodeForState(watcher.last_verdict().state), "interrupted"};
    }
    if (watcher.Pump()) {
      if (auto end = watcher.Evaluate()) return *end;
    }
  }
}

RunResult RunServer(const RunOptions& options, WatchOptions watch_options, Clock& clock,
                    StartupModel& model, const SamplerFactory& make_sampler,
                    std::vector<Sink*> sinks) {
  RunResult result;
  // Orphans of the server (ranks whose parent died) come to us, so we can end and reap them.
  (void)BecomeSubreaper();
  // --log is opened before the server starts: a missing folder is a usage error, not a run
  // that silently keeps no log.
  int log_fd = -1;
  if (!options.log_file.empty()) {
    log_fd = ::open(options.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) {
      result.exit_code = 2;
      result.error = Status::FromErrno(errno, "--log " + options.log_file).message();
      return result;
    }
  }
  SignalGate signals({SIGINT, SIGTERM, SIGHUP, SIGCHLD});
  auto child = SpawnChild(options.argv);
  if (!child.ok()) {
    if (log_fd >= 0) ::close(log_fd);
    result.exit_code = 127;
    result.error = child.status().message();
    return result;
  }
  const pid_t pid = child->pid;
  watch_options.server_lifetime = true;
  RunSampleSource sampler(make_sampler ? make_sampler(pid) : nullptr);
  Watcher watcher(watch_options, clock, model, &sampler, std::move(sinks));
  for (VerdictStage* st : options.stages) watcher.AddStage(st);
  watcher.AddSource(
      std::make_unique<PipeSource>(child->stdout_fd, "stdout", STDOUT_FILENO, log_fd));
  watcher.AddSource(
      std::make_unique<PipeSource>(child->stderr_fd, "stderr", STDERR_FILENO, log_fd));

  auto pump = [&] {
    // Erase and redraw the terminal view only when output is about to pass through.
    std::vector<pollfd> pfds;
    for (int fd : watcher.PollFds()) pfds.push_back({fd, POLLIN, 0});
    const bool output = !pfds.empty() && ::poll(pfds.data(), pfds.size(), 0) > 0;
    if (output && options.before_output) options.before_output();
    bool decisive = watcher.Pump();
    if (output && options.after_output) options.after_output();
    return decisive;
  };
  std::optional<int> server_status;
  auto reap = [&] {
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(-1, &st, WNOHANG)) > 0) {
      if (r == pid) server_status = st;
    }
  };

  std::optional<WatchEnd> end;
  const int64_t interval = IntervalMs(watcher);
  int64_t next_tick = clock.NowMs();
  // After a forwarded SIGINT/SIGTERM/SIGHUP the server gets the grace period to exit on its own;
  // then the tree is ended (a hung rank often ignores SIGTERM).
  std::optional<std::chrono::steady_clock::time_point> stop_deadline;
  while (!server_status && !end) {
    if (stop_deadline && std::chrono::steady_clock::now() >= *stop_deadline) break;
    int64_t now = clock.NowMs();
    if (now >= NextWake(watcher, next_tick)) {
      pump();
      end = watcher.Tick();
      next_tick = std::max(next_tick + interval, now + 1);
      if (end) break;
    }
    std::vector<int> fds = watcher.PollFds();
    fds.push_back(signals.fd());
    WaitFor(fds, static_cast<int>(std::min(kPumpMs, NextWake(watcher, next_tick) - clock.NowMs())));
    for (int sig : signals.Take()) {
      if (sig == SIGCHLD) continue;  // reaped below, every pass
      ::kill(-pid, sig);  // what the terminal would have sent the foreground group
      if (!stop_deadline) stop_deadline = std::chrono::steady_clock::now() + options.grace;
    }
    // Every pass, not only on SIGCHLD: a thread started before the signal gate (the metrics
    // endpoint's) may take the process's SIGCHLD, and the gate would never see it.
    reap();
    if (pump()) end = watcher.Evaluate();
  }

  // Evidence gathered at a stall needs the tree alive: let it finish (bounded) before ending it.
  watcher.Settle();
  // Whatever happened, no process of the tree outlives us: not a rank holding GPU memory, not a
  // child holding the port.
  KillTreeOptions kill_options;
  kill_options.proc_root = options.proc_root;
  kill_options.grace = options.grace;
  kill_options.reap = false;  // reaped below, keeping the server's status
  if (!server_status) {
    ::kill(-pid, SIGTERM);
  }
  auto deadline = std::chrono::steady_clock::now() + options.grace;
  while (!server_status && std::chrono::steady_clock::now() < deadline) {
    reap();
    if (!server_status) WaitFor({signals.fd()}, 50);
    signals.Take();
    pump();
  }
  if (!server_status) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    int st = 0;
    if (::waitpid(pid, &st, 0) == pid) server_status = st;
  }
  result.killed_after_grace = EndProcessTree(::getpid(), pid, kill_options);
  reap();
  // The tree is gone, so the pipes reach EOF: read the last lines.
  auto drain_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!watcher.all_sources_done() && std::chrono::steady_clock::now() < drain_deadline) {
    pump();
    if (!watcher.all_sources_done()) WaitFor(watcher.PollFds(), 50);
  }
  reap();
  if (log_fd >= 0) ::close(log_fd);

  int status = server_status ? *server_status : 0;
  int code = ExitCodeFromWaitStatus(status);
  sampler.set_exit_status(WIFSIGNALED(status) ? -WTERMSIG(status) : code);
  if (end) {
    // Ended by the watch (--until, --timeout, --once): judge once more with what the server left.
    watcher.Finish(*end);
    result.exit_code = end->exit_code;
    result.ended_by_watch = true;
  } else {
    watcher.Tick();
    watcher.Finish(WatchEnd{code, "server exited"});
    result.exit_code = code;
  }
  return result;
}

}  // namespace spinup
