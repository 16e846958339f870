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

namespace {

// --log is opened before the server starts: a missing folder is a usage error, not a run that
// silently keeps no log. -1 without --log.
Result<int> OpenServerLog(const std::string& path) {
  if (path.empty()) return -1;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "--log " + path);
  return fd;
}

// One `run` once the server is started: the loop's steps over its process group, its watcher
// and the signal gate.
class ServerRun {
 public:
  ServerRun(const RunOptions& options, pid_t pid, Watcher& watcher, SignalGate& signals)
      : options_(options), pid_(pid), watcher_(watcher), signals_(signals) {}

  // Reads the sources; erases and redraws the terminal view only when output is about to pass
  // through. True when something decisive was read.
  bool Pump() {
    std::vector<pollfd> pfds;
    for (int fd : watcher_.PollFds()) pfds.push_back({fd, POLLIN, 0});
    const bool output = !pfds.empty() && ::poll(pfds.data(), pfds.size(), 0) > 0;
    if (output && options_.before_output) options_.before_output();
    bool decisive = watcher_.Pump();
    if (output && options_.after_output) options_.after_output();
    return decisive;
  }

  void Reap() {
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(-1, &st, WNOHANG)) > 0) {
      if (r == pid_) server_status_ = st;
    }
  }

  // Until the server exits, the watch ends it (the end is returned), or the grace period after a
  // forwarded SIGINT/SIGTERM/SIGHUP runs out (a hung rank often ignores SIGTERM).
  std::optional<WatchEnd> Watch(Clock& clock) {
    std::optional<WatchEnd> end;
    const int64_t interval = IntervalMs(watcher_);
    int64_t next_tick = clock.NowMs();
    std::optional<std::chrono::steady_clock::time_point> stop_deadline;
    while (!server_status_ && !end) {
      if (stop_deadline && std::chrono::steady_clock::now() >= *stop_deadline) break;
      int64_t now = clock.NowMs();
      if (now >= NextWake(watcher_, next_tick)) {
        Pump();
        end = watcher_.Tick();
        next_tick = std::max(next_tick + interval, now + 1);
        if (end) break;
      }
      std::vector<int> fds = watcher_.PollFds();
      fds.push_back(signals_.fd());
      WaitFor(fds,
              static_cast<int>(std::min(kPumpMs, NextWake(watcher_, next_tick) - clock.NowMs())));
      for (int sig : signals_.Take()) {
        if (sig == SIGCHLD) continue;  // reaped below, every pass
        ::kill(-pid_, sig);            // what the terminal would have sent the foreground group
        if (!stop_deadline) stop_deadline = std::chrono::steady_clock::now() + options_.grace;
      }
      // Every pass, not only on SIGCHLD: a thread started before the signal gate (the metrics
      // endpoint's) may take the process's SIGCHLD, and the gate would never see it.
      Reap();
      if (Pump()) end = watcher_.Evaluate();
    }
    return end;
  }

  // Whatever happened, no process of the tree outlives us: not a rank holding GPU memory, not a
  // child holding the port. SIGTERM, the grace period, then SIGKILL. Returns the processes that
  // needed SIGKILL.
  int EndTree() {
    KillTreeOptions kill_options;
    kill_options.proc_root = options_.proc_root;
    kill_options.grace = options_.grace;
    kill_options.reap = false;  // reaped here, keeping the server's status
    if (!server_status_) ::kill(-pid_, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + options_.grace;
    while (!server_status_ && std::chrono::steady_clock::now() < deadline) {
      Reap();
      if (!server_status_) WaitFor({signals_.fd()}, 50);
      signals_.Take();
      Pump();
    }
    if (!server_status_) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      int st = 0;
      if (::waitpid(pid_, &st, 0) == pid_) server_status_ = st;
    }
    int killed = EndProcessTree(::getpid(), pid_, kill_options);
    Reap();
    return killed;
  }

  // The tree is gone, so the pipes reach EOF: read the last lines (for at most 2 s).
  void Drain() {
    auto drain_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!watcher_.all_sources_done() && std::chrono::steady_clock::now() < drain_deadline) {
      Pump();
      if (!watcher_.all_sources_done()) WaitFor(watcher_.PollFds(), 50);
    }
    Reap();
  }

  int server_status() const { return server_status_.value_or(0); }

 private:
  const RunOptions& options_;
  const pid_t pid_;
  Watcher& watcher_;
  SignalGate& signals_;
  std::optional<int> server_status_;
};

}  // namespace

RunResult RunServer(const RunOptions& options, WatchOptions watch_options, Clock& clock,
                    StartupModel& model, const SamplerFactory& make_sampler,
                    std::vector<Sink*> sinks) {
  RunResult result;
  // Orphans of the server (ranks whose parent died) come to us, so we can end and reap them.
  (void)BecomeSubreaper();
  auto log_fd = OpenServerLog(options.log_file);
  if (!log_fd.ok()) {
    result.exit_code = 2;
    result.error = log_fd.status().message();
    return result;
  }
  SignalGate signals({SIGINT, SIGTERM, SIGHUP, SIGCHLD});
  auto child = SpawnChild(options.argv);
  if (!child.ok()) {
    if (*log_fd >= 0) ::close(*log_fd);
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
      std::make_unique<PipeSource>(child->stdout_fd, "stdout", STDOUT_FILENO, *log_fd));
  watcher.AddSource(
      std::make_unique<PipeSource>(child->stderr_fd, "stderr", STDERR_FILENO, *log_fd));

  ServerRun run(options, pid, watcher, signals);
  std::optional<WatchEnd> end = run.Watch(clock);
  // Evidence gathered at a stall needs the tree alive: let it finish (bounded) before ending it.
  watcher.Settle();
  result.killed_after_grace = run.EndTree();
  run.Drain();
  if (*log_fd >= 0) ::close(*log_fd);

  int status = run.server_status();
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
