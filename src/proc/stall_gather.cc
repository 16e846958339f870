#include "proc/stall_gather.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "base/readonly_file.h"
#include "proc/proc_parse.h"
#include "proc/stall_evidence.h"

namespace spinup::proc {

namespace {

using SteadyClock = std::chrono::steady_clock;
namespace fs = std::filesystem;

std::string ReadProcFile(const fs::path& path, size_t cap, std::string* error) {
  auto f = ReadOnlyFile::Open(path);
  if (!f.ok()) {
    if (error) *error = f.status().message();
    return "";
  }
  std::string out;
  Status st = f->ReadAt(0, cap, &out);
  if (!st.ok() && error) *error = st.message();
  return out;
}

void Cap(std::string& s, size_t cap) {
  if (s.size() > cap) {
    s.resize(cap);
    s += "\n... (cut at " + std::to_string(cap) + " bytes)";
  }
}

// The threads of one process: wait channels always, kernel stacks where the kernel lets us.
void ReadKernelSide(const GatherTarget& t, const GatherOptions& o, bool want_stacks,
                    RankStack& out) {
  fs::path task = fs::path(o.proc_root) / std::to_string(t.pid) / "task";
  std::vector<std::string> wchans;
  std::map<std::string, int> stacks;  // distinct stack -> threads
  std::string stack_error;
  std::error_code ec;
  size_t n = 0;
  for (fs::directory_iterator it(task, ec), end; !ec && it != end && n < o.max_threads;
       it.increment(ec), ++n) {
    std::string w = ReadProcFile(it->path() / "wchan", 128, nullptr);
    wchans.push_back(w.substr(0, w.find('\n')));
    if (!want_stacks) continue;
    std::string err;
    std::string text = ReadProcFile(it->path() / "stack", 8192, &err);
    if (text.empty()) {
      if (stack_error.empty()) stack_error = err.empty() ? "empty" : err;
      continue;
    }
    std::string joined;
    for (const auto& f : ParseKernelStack(text)) joined += "    " + f + "\n";
    stacks[joined]++;
  }
  if (ec && n == 0) out.notes.push_back(task.string() + ": " + ec.message());
  out.wait_channels = SummarizeWaitChannels(wchans);
  if (!want_stacks) return;
  if (stacks.empty()) {
    out.notes.push_back("kernel stacks unreadable (" + stack_error +
                        "; reading them needs root or CAP_SYS_ADMIN)");
    out.source = "none";
    return;
  }
  std::vector<std::pair<std::string, int>> sorted(stacks.begin(), stacks.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out.source = "kernel";
  for (const auto& [text, count] : sorted) {
    out.stack += std::to_string(count) + (count == 1 ? " thread:\n" : " threads:\n") + text;
  }
  Cap(out.stack, o.stack_cap);
}

void RunPySpy(const GatherTarget& t, const GatherOptions& o, const CommandRunner& run,
              std::chrono::milliseconds limit, RankStack& out) {
  CommandOutput r = run({o.py_spy, "dump", "--pid", std::to_string(t.pid)}, limit, o.stack_cap);
  if (!r.started) {
    out.notes.push_back("py-spy: " + r.error);
  } else if (r.timed_out) {
    out.notes.push_back("py-spy: no answer within " +
                        std::to_string(limit.count() / 1000.0).substr(0, 4) + " s");
  } else if (r.exit_code != 0 || ParsePySpyDump(r.output).empty()) {
    std::string first = r.output.substr(0, r.output.find('\n')).substr(0, 200);
    out.notes.push_back("py-spy: exit " + std::to_string(r.exit_code) +
                        (first.empty() ? "" : ": " + first));
  } else {
    out.source = "py-spy";
    out.waiting_in = CollectiveOf(ParsePySpyDump(r.output));
    out.stack = std::move(r.output);
    Cap(out.stack, o.stack_cap);
  }
}

}  // namespace

std::vector<GatherTarget> StallTargets(const Sample& sample, size_t max) {
  std::vector<std::pair<GatherTarget, int>> ranks, others;
  for (const auto& p : sample.processes) {
    if (p.compiler || p.state == 'Z' || p.state == 'X') continue;
    GatherTarget t{p.pid, RankOfProcess(p.cmdline, p.comm)};
    (t.rank.empty() ? others : ranks).emplace_back(t, p.threads);
  }
  std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) {
    return a.first.rank.size() != b.first.rank.size() ? a.first.rank.size() < b.first.rank.size()
                                                      : a.first.rank < b.first.rank;
  });
  std::stable_sort(others.begin(), others.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<GatherTarget> out;
  for (auto* list : {&ranks, &others}) {
    for (const auto& [t, threads] : *list) {
      if (out.size() < max) out.push_back(t);
    }
  }
  return out;
}

StallEvidence GatherStallEvidence(const std::vector<GatherTarget>& targets,
                                  const std::vector<RankPhase>& ranks, const GatherOptions& o) {
  const auto start = SteadyClock::now();
  const auto deadline = start + o.total_limit;
  StallEvidence ev;
  ev.ranks.resize(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    ev.ranks[i].rank = targets[i].rank;
    ev.ranks[i].pid = targets[i].pid;
    ev.ranks[i].source = "none";
  }
  auto cancelled = [&] { return o.cancelled && o.cancelled(); };
  const CommandRunner run = o.runner ? o.runner : CommandRunner(RunBoundedCommand);
  if (o.py_spy.empty()) {
    ev.notes.push_back("py-spy is not on PATH: kernel stacks and wait channels instead");
  } else {
    // A few py-spy runs at once, each within its limit and all within the total.
    std::mutex mu;
    size_t next = 0;
    auto worker = [&] {
      while (true) {
        size_t i;
        {
          std::lock_guard lock(mu);
          if (next >= targets.size()) return;
          i = next++;
        }
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        if (left.count() < 200 || cancelled()) {
          ev.ranks[i].notes.push_back("py-spy: skipped (the gathering's time was spent)");
          continue;
        }
        RunPySpy(targets[i], o, run, std::min(o.per_pid_limit, left), ev.ranks[i]);
      }
    };
    std::vector<std::thread> pool;
    for (int k = 0; k < std::max(1, o.parallel) && k < static_cast<int>(targets.size()); ++k) {
      try {
        pool.emplace_back(worker);
      } catch (const std::system_error&) {
        break;  // no thread to spare (pids limit): the ones running, or this one, do the rest
      }
    }
    if (pool.empty()) worker();
    for (auto& t : pool) t.join();
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (cancelled()) break;
    ReadKernelSide(targets[i], o, ev.ranks[i].source != "py-spy", ev.ranks[i]);
  }
  std::vector<std::pair<std::string, std::string>> waiting;
  for (const auto& r : ev.ranks) {
    if (!r.rank.empty() && !r.waiting_in.empty()) waiting.emplace_back(r.rank, r.waiting_in);
  }
  ev.behind = BehindSentence(ranks, waiting);
  ev.gather_seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
  return ev;
}

CommandOutput RunBoundedCommand(const std::vector<std::string>& argv,
                                std::chrono::milliseconds limit, size_t cap) {
  CommandOutput out;
  if (argv.empty()) {
    out.error = "no command";
    return out;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    out.error = "pipe failed";
    return out;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    out.error = "fork failed";
    return out;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(fds[1]);
  out.started = true;
  const auto deadline = SteadyClock::now() + limit;
  char buf[4096];
  while (true) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) {
      out.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = ::read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;  // EOF: every writer closed
    size_t room = cap - std::min(cap, out.output.size());
    out.output.append(buf, std::min(room, static_cast<size_t>(n)));
    if (static_cast<size_t>(n) > room) {
      out.truncated = true;  // the rest would be dropped: no reason to wait for it
      break;
    }
  }
  ::close(fds[0]);
  const bool killed = out.timed_out || out.truncated;
  if (killed) ::kill(-pid, SIGKILL);
  int st = 0;
  // After EOF the child exits promptly; if it closed its output and lingers, the limit ends it.
  while (::waitpid(pid, &st, killed ? 0 : WNOHANG) == 0) {
    if (SteadyClock::now() >= deadline) {
      out.timed_out = true;
      ::kill(-pid, SIGKILL);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  out.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  if (out.exit_code == 127 && out.output.empty()) {
    out.started = false;
    out.error = argv[0] + ": cannot be executed";
  }
  return out;
}

}  // namespace spinup::proc
