#include "live/process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <thread>
#include <vector>

namespace spinup {

namespace {

struct StatFields {
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
};

// Reads the few fields we need from /proc/PID/stat; comm may hold spaces or ')' so parse after
// the last ')'.
bool ReadStat(const std::string& proc_root, pid_t pid, StatFields& out) {
  std::string path = proc_root + "/" + std::to_string(pid) + "/stat";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];
  ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  std::string_view s(buf, static_cast<size_t>(n));
  size_t close = s.rfind(')');
  if (close == std::string_view::npos || close + 2 >= s.size()) return false;
  const char* p = buf + close + 2;
  out.state = *p;
  char* end = nullptr;
  long ppid = std::strtol(p + 1, &end, 10);
  if (end == p + 1) return false;
  long pgrp = std::strtol(end, &end, 10);
  out.ppid = static_cast<pid_t>(ppid);
  out.pgrp = static_cast<pid_t>(pgrp);
  return true;
}

std::map<pid_t, StatFields> ReadAll(const std::string& proc_root) {
  std::map<pid_t, StatFields> all;
  DIR* dir = ::opendir(proc_root.c_str());
  if (dir == nullptr) return all;
  while (dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || pid <= 0) continue;
    StatFields f;
    if (ReadStat(proc_root, static_cast<pid_t>(pid), f)) all[static_cast<pid_t>(pid)] = f;
    if (all.size() > 1'000'000) break;
  }
  ::closedir(dir);
  return all;
}

}  // namespace

std::set<pid_t> FindDescendants(const std::string& proc_root, pid_t root, pid_t pgid) {
  auto all = ReadAll(proc_root);
  std::multimap<pid_t, pid_t> children;
  for (const auto& [pid, f] : all) children.emplace(f.ppid, pid);
  std::set<pid_t> out;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    pid_t p = todo.back();
    todo.pop_back();
    auto [b, e] = children.equal_range(p);
    for (auto it = b; it != e; ++it) {
      if (it->second != root && out.insert(it->second).second) todo.push_back(it->second);
    }
  }
  if (pgid > 0) {
    for (const auto& [pid, f] : all) {
      if (f.pgrp == pgid && pid != root) out.insert(pid);
    }
  }
  return out;
}

bool ProcessAlive(const std::string& proc_root, pid_t pid) {
  StatFields f;
  return ReadStat(proc_root, pid, f) && f.state != 'Z' && f.state != 'X';
}

int EndProcessTree(pid_t self, pid_t pgid, const KillTreeOptions& options) {
  auto reap = [&] {
    if (!options.reap) return;
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
  };
  // Every process once seen stays on the list: one re-parented away from us (when this process
  // is not a subreaper) must still be seen to its end.
  std::set<pid_t> known;
  auto living = [&] {
    for (pid_t p : FindDescendants(options.proc_root, self, pgid)) known.insert(p);
    std::set<pid_t> alive;
    for (pid_t p : known) {
      if (ProcessAlive(options.proc_root, p)) alive.insert(p);
    }
    return alive;
  };
  if (pgid > 0) ::kill(-pgid, SIGTERM);
  std::set<pid_t> termed;
  for (pid_t p : living()) {
    ::kill(p, SIGTERM);
    termed.insert(p);
  }
  auto deadline = std::chrono::steady_clock::now() + options.grace;
  std::set<pid_t> left;
  while (true) {
    reap();
    left = living();
    if (left.empty() || std::chrono::steady_clock::now() >= deadline) break;
    // Processes forked after the first round get their SIGTERM too (once: a second one can
    // interrupt a graceful shutdown).
    for (pid_t p : left) {
      if (termed.insert(p).second) ::kill(p, SIGTERM);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  int killed = 0;
  for (int round = 0; round < 20 && !left.empty(); ++round) {
    if (pgid > 0) ::kill(-pgid, SIGKILL);
    for (pid_t p : left) {
      if (::kill(p, SIGKILL) == 0 && round == 0) ++killed;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    reap();
    left = living();
  }
  reap();
  return killed;
}

}  // namespace spinup
