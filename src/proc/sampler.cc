#include "proc/sampler.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <deque>
#include <system_error>
#include <unordered_set>

namespace spinup::proc {
namespace fs = std::filesystem;

namespace {

std::optional<int> ParseInt(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

std::string Join(const fs::path& root, std::string_view rel) {
  std::string p = root.string();
  if (!rel.empty()) {
    if (p.empty() || p.back() != '/') p += '/';
    p += rel;
  }
  return p;
}

}  // namespace

ProcReader::ProcReader(fs::path proc_root) : root_(std::move(proc_root)) {}

std::optional<std::string> ProcReader::Read(std::string_view rel, size_t max_bytes) const {
  std::string path = Join(root_, rel);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  std::string out;
  // /proc files report size 0; read in chunks up to the cap. Most files fit the first chunk.
  size_t chunk = std::min<size_t>(max_bytes, 4096);
  bool failed = false;
  while (out.size() < max_bytes) {
    size_t old = out.size();
    out.resize(old + std::min(chunk, max_bytes - old));
    ssize_t n = ::read(fd, out.data() + old, out.size() - old);
    if (n < 0) {
      if (errno == EINTR) {
        out.resize(old);
        continue;
      }
      out.resize(old);
      failed = old == 0;  // e.g. io of a process we may not ptrace: EACCES on read
      break;
    }
    out.resize(old + static_cast<size_t>(n));
    if (n == 0) break;
  }
  ::close(fd);
  if (failed) return std::nullopt;
  return out;
}

std::optional<std::string> ProcReader::ReadLink(std::string_view rel) const {
  std::string path = Join(root_, rel);
  char buf[4096];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof(buf));
  if (n < 0) return std::nullopt;
  return std::string(buf, static_cast<size_t>(n));
}

std::vector<int> ProcReader::ListNumeric(std::string_view rel, size_t max_entries) const {
  std::vector<int> out;
  std::string path = Join(root_, rel);
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return out;
  while (out.size() < max_entries) {
    dirent* e = ::readdir(dir);
    if (e == nullptr) break;
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    if (auto v = ParseInt(e->d_name)) out.push_back(*v);
  }
  ::closedir(dir);
  return out;
}

Result<std::vector<int>> FindCgroupPids(const fs::path& sys_root, std::string_view unit,
                                        size_t max_pids) {
  std::string name(unit);
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    return Status::InvalidArgument("--unit " + name + ": not a unit name");
  }
  if (name.find('.') == std::string::npos) name += ".service";
  ProcReader sys(sys_root);
  for (std::string_view base : {"fs/cgroup/system.slice/", "fs/cgroup/systemd/system.slice/"}) {
    std::string rel = std::string(base) + name + "/cgroup.procs";
    if (auto text = sys.Read(rel, 1 << 20)) return ParsePidList(*text, max_pids);
  }
  return Status::NotFound(Join(sys_root, "fs/cgroup/system.slice/" + name) +
                          ": no such cgroup (is the unit running?)");
}

ProcessTreeSampler::ProcessTreeSampler(SamplerOptions options)
    : opt_(std::move(options)), reader_(opt_.proc_root) {
  if (opt_.ticks_per_second <= 0) opt_.ticks_per_second = 100;
  if (opt_.page_size == 0) opt_.page_size = 4096;
  if (opt_.model_dir && !opt_.model_dir->empty()) {
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(*opt_.model_dir, ec);
    model_prefix_ = (ec ? *opt_.model_dir : canon).string();
    while (model_prefix_.size() > 1 && model_prefix_.back() == '/') model_prefix_.pop_back();
    model_prefix_ += '/';
  }
}

std::vector<int> ProcessTreeSampler::FindDescendants(const std::vector<int>& roots,
                                                     bool* truncated) const {
  if (truncated) *truncated = false;
  std::vector<int> out;
  std::unordered_set<int> seen;
  for (int r : roots) {
    if (r > 0 && !seen.count(r) && reader_.Read(std::to_string(r) + "/stat", 1024)) {
      out.push_back(r);
      seen.insert(r);
    }
  }
  if (out.empty()) return out;
  // One pass over /proc/*/stat builds the parent map; the tree is then walked breadth first.
  std::unordered_map<int, std::vector<int>> children;
  bool full = scans_++ % kFullScanEvery == 0 || outsider_roots_ != roots;
  if (full) {
    outsiders_.clear();
    outsider_roots_ = roots;
  }
  std::vector<int> listed = reader_.ListNumeric("", 1 << 20);
  for (int pid : listed) {
    if (!full && outsiders_.count(pid)) continue;
    auto text = reader_.Read(std::to_string(pid) + "/stat", 1024);
    if (!text) continue;
    auto st = ParseStat(*text);
    if (st && st->ppid > 0 && st->ppid != pid) children[st->ppid].push_back(pid);
  }
  std::deque<int> queue(out.begin(), out.end());
  while (!queue.empty()) {
    int p = queue.front();
    queue.pop_front();
    auto it = children.find(p);
    if (it == children.end()) continue;
    std::sort(it->second.begin(), it->second.end());
    for (int c : it->second) {
      if (seen.count(c)) continue;
      if (out.size() >= opt_.max_processes) {
        if (truncated) *truncated = true;
        outsiders_.clear();  // the walk stopped early: who is outside is not known
        return out;
      }
      seen.insert(c);
      out.push_back(c);
      queue.push_back(c);
    }
  }
  // Everything listed and not in the tree is an outsider until the next full scan.
  std::unordered_set<int> next;
  for (int pid : listed) {
    if (!seen.count(pid)) next.insert(pid);
  }
  outsiders_ = std::move(next);
  return out;
}

void ProcessTreeSampler::Count(const ThreadState& t, ProcessSample& ps) {
  ++ps.threads_sampled;
  if (t.state == 'R') ++ps.threads_running;
  if (t.state == 'D') ++ps.threads_disk_wait;
  switch (t.wait) {
    case WaitKind::kFutex:
      ++ps.threads_futex_wait;
      break;
    case WaitKind::kPoll:
      ++ps.threads_poll_wait;
      break;
    case WaitKind::kSleep:
      ++ps.threads_sleep_wait;
      break;
    default:
      break;
  }
}

namespace {

// Reads a small file relative to a directory fd into buf; returns the length or -1.
ssize_t ReadSmallAt(int dirfd, const char* rel, char* buf, size_t cap) {
  int fd = ::openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return -1;
  ssize_t n;
  do {
    n = ::read(fd, buf, cap);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  return n;
}

}  // namespace

std::optional<ProcessTreeSampler::ThreadState> ProcessTreeSampler::ReadThread(int task_dirfd,
                                                                              int tid) const {
  // openat on the task directory: the kernel resolves two path components instead of five.
  char rel[48];
  char buf[1024];
  int len = std::snprintf(rel, sizeof(rel), "%d/stat", tid);
  if (len <= 0) return std::nullopt;
  ssize_t n = ReadSmallAt(task_dirfd, rel, buf, sizeof(buf));
  if (n <= 0) return std::nullopt;
  auto st = ParseStat(std::string_view(buf, static_cast<size_t>(n)));
  if (!st) return std::nullopt;
  ThreadState t;
  t.state = st->state;
  if (t.state != 'S' && t.state != 'D') return t;
  std::snprintf(rel, sizeof(rel), "%d/wchan", tid);
  n = ReadSmallAt(task_dirfd, rel, buf, sizeof(buf));
  if (n > 0) t.wait = ClassifyWchan(std::string_view(buf, static_cast<size_t>(n)));
  return t;
}

void ProcessTreeSampler::SampleThreads(int pid, ProcessSample& ps) const {
  std::string base = std::to_string(pid) + "/task";
  std::vector<int> tids = reader_.ListNumeric(base, opt_.max_threads_per_process);
  std::sort(tids.begin(), tids.end());
  int dirfd = ::open(Join(reader_.root(), base).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0) return;
  for (int tid : tids) {
    if (auto t = ReadThread(dirfd, tid)) Count(*t, ps);
  }
  ::close(dirfd);
}

void ProcessTreeSampler::SampleThreadsBudgeted(std::vector<ProcessSample>& procs) const {
  // The tree's threads in a stable order: (process index, tid).
  struct Ref {
    size_t proc;
    int tid;
  };
  std::vector<Ref> all;
  std::vector<std::vector<int>> tids(procs.size());
  for (size_t i = 0; i < procs.size(); ++i) {
    if (procs[i].state == 'Z') continue;
    tids[i] =
        reader_.ListNumeric(std::to_string(procs[i].pid) + "/task", opt_.max_threads_per_process);
    std::sort(tids[i].begin(), tids[i].end());
    for (int tid : tids[i]) all.push_back({i, tid});
  }
  auto key = [&](const Ref& r) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(procs[r.proc].pid)) << 32) |
           static_cast<uint32_t>(r.tid);
  };
  size_t budget =
      opt_.max_thread_reads_per_sample == 0 ? all.size() : opt_.max_thread_reads_per_sample;
  size_t n = std::min(budget, all.size());
  std::unordered_map<uint64_t, ThreadState> fresh;
  // Threads not read before come first (a new tree is covered as fast as the budget allows),
  // then the round-robin batch.
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t k = 0; k < all.size() && order.size() < n; ++k) {
    if (!thread_cache_.count(key(all[k]))) order.push_back(k);
  }
  size_t start = all.empty() ? 0 : thread_cursor_ % all.size();
  for (size_t k = 0; k < all.size() && order.size() < n; ++k) {
    size_t idx = (start + k) % all.size();
    if (thread_cache_.count(key(all[idx]))) order.push_back(idx);
  }
  thread_cursor_ = all.empty() ? 0 : (start + n) % all.size();
  std::sort(order.begin(), order.end());
  int dirfd = -1;
  size_t dir_proc = SIZE_MAX;
  for (size_t idx : order) {
    const Ref& r = all[idx];
    if (r.proc != dir_proc) {
      if (dirfd >= 0) ::close(dirfd);
      std::string base = std::to_string(procs[r.proc].pid) + "/task";
      dirfd = ::open(Join(reader_.root(), base).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      dir_proc = r.proc;
    }
    if (dirfd < 0) continue;
    if (auto t = ReadThread(dirfd, r.tid)) fresh[key(r)] = *t;
  }
  if (dirfd >= 0) ::close(dirfd);
  // Count fresh states, else cached ones; forget threads that are gone.
  std::unordered_map<uint64_t, ThreadState> next;
  next.reserve(all.size());
  for (const Ref& r : all) {
    uint64_t k = key(r);
    auto f = fresh.find(k);
    if (f == fresh.end()) {
      f = thread_cache_.find(k);
      if (f == thread_cache_.end()) continue;
    }
    Count(f->second, procs[r.proc]);
    next.emplace(k, f->second);
  }
  // Keep what other calls read (a caller may sample a cgroup and a --pid tree in turn), up to a
  // bound; threads of processes sampled in this call that were not listed are gone.
  std::unordered_set<uint32_t> here;
  for (const auto& p : procs) here.insert(static_cast<uint32_t>(p.pid));
  constexpr size_t kMaxCached = 16384;
  for (const auto& [k, v] : thread_cache_) {
    if (next.size() >= kMaxCached) break;
    if (!here.count(static_cast<uint32_t>(k >> 32))) next.emplace(k, v);
  }
  thread_cache_ = std::move(next);
}

std::vector<uint64_t> ProcessTreeSampler::SampleFds(int pid, ProcessSample& ps) const {
  std::vector<uint64_t> sockets;
  std::string base = std::to_string(pid) + "/fd/";
  std::vector<int> fds = reader_.ListNumeric(base, opt_.max_fds_per_process);
  std::sort(fds.begin(), fds.end());
  // Drop cached links of this process's fds that are closed now.
  const uint64_t hi = static_cast<uint64_t>(static_cast<uint32_t>(pid)) << 32;
  auto key = [&](int fd) { return hi | static_cast<uint32_t>(fd); };
  std::unordered_set<uint64_t> open_now;
  for (int fd : fds) open_now.insert(key(fd));
  for (auto it = fd_cache_.begin(); it != fd_cache_.end();) {
    if ((it->first >> 32) == (hi >> 32) && !open_now.count(it->first)) {
      it = fd_cache_.erase(it);
    } else {
      ++it;
    }
  }
  size_t period = std::max<size_t>(1, opt_.fd_recheck_period);
  for (int fd : fds) {
    std::optional<std::string> link;
    auto cached = fd_cache_.find(key(fd));
    bool model = cached != fd_cache_.end() && !model_prefix_.empty() &&
                 cached->second.starts_with(model_prefix_);
    bool due = cached == fd_cache_.end() || model ||
               (static_cast<size_t>(fd) + fd_generation_) % period == 0;
    if (due) {
      link = reader_.ReadLink(base + std::to_string(fd));
      if (link && fd_cache_.size() < kMaxCachedFds) {
        fd_cache_[key(fd)] = *link;
      } else if (!link && cached != fd_cache_.end()) {
        fd_cache_.erase(cached);
      }
    } else {
      link = cached->second;
    }
    if (!link) continue;
    if (auto inode = ParseSocketLink(*link)) {
      sockets.push_back(*inode);
      continue;
    }
    if (model_prefix_.empty() || !link->starts_with(model_prefix_)) continue;
    if (ps.model_files.size() >= opt_.max_model_files_per_process) continue;
    ProcessSample::OpenModelFile f;
    f.path = *link;
    if (auto info = reader_.Read(std::to_string(pid) + "/fdinfo/" + std::to_string(fd), 4096)) {
      f.offset = ParseFdinfoPos(*info).value_or(0);
    }
    // stat through the fd link: works for the real /proc and for fixture symlinks alike, and
    // does not open the model file.
    struct stat sb {};
    if (::stat(Join(reader_.root(), base + std::to_string(fd)).c_str(), &sb) == 0) {
      f.size = static_cast<uint64_t>(sb.st_size);
    }
    ps.model_files.push_back(std::move(f));
  }
  return sockets;
}

std::optional<ProcessSample> ProcessTreeSampler::SampleProcess(int pid) const {
  auto ps = SampleBasic(pid);
  if (ps && opt_.scan_threads && ps->state != 'Z') SampleThreads(pid, *ps);
  return ps;
}

std::optional<ProcessSample> ProcessTreeSampler::SampleBasic(int pid) const {
  std::string base = std::to_string(pid) + "/";
  auto stat_text = reader_.Read(base + "stat", 4096);
  if (!stat_text) return std::nullopt;
  auto st = ParseStat(*stat_text);
  if (!st) return std::nullopt;
  ProcessSample ps;
  ps.pid = pid;
  ps.ppid = st->ppid;
  ps.state = st->state;
  ps.comm = st->comm;
  ps.cpu_seconds = static_cast<double>(st->utime_ticks + st->stime_ticks) /
                   static_cast<double>(opt_.ticks_per_second);
  ps.rss_bytes = st->rss_pages > 0 ? static_cast<uint64_t>(st->rss_pages) * opt_.page_size : 0;
  ps.major_faults = st->majflt;
  ps.threads = static_cast<int>(std::clamp<int64_t>(st->num_threads, 0, 1 << 30));
  if (auto io_text = reader_.Read(base + "io", 4096)) {
    if (auto io = ParseIo(*io_text)) {
      ps.read_bytes = io->read_bytes;
      ps.rchar = io->rchar;
    }
  }
  if (auto cmd = reader_.Read(base + "cmdline", opt_.max_cmdline_bytes)) {
    ps.cmdline = JoinCmdline(ParseCmdline(*cmd), opt_.max_cmdline_bytes);
  }
  ps.compiler = IsCompilerComm(ps.comm);
  if (!ps.compiler && !ps.cmdline.empty()) {
    std::string_view argv0 = ps.cmdline;
    argv0 = argv0.substr(0, argv0.find(' '));
    ps.compiler = IsCompilerComm(argv0);
  }
  return ps;
}

void ProcessTreeSampler::SampleList(const std::vector<int>& pids, bool truncated, int ns_pid,
                                    Sample& out) const {
  ++fd_generation_;
  out.processes.clear();
  out.compiler_processes = 0;
  out.processes_truncated = truncated;
  std::vector<std::vector<uint64_t>> sockets;
  for (int pid : pids) {
    if (out.processes.size() >= opt_.max_processes) {
      out.processes_truncated = true;
      break;
    }
    auto ps = SampleBasic(pid);
    if (!ps) continue;
    std::vector<uint64_t> socks;
    if (opt_.scan_fds && ps->state != 'Z') socks = SampleFds(pid, *ps);
    if (ps->compiler) ++out.compiler_processes;
    out.processes.push_back(std::move(*ps));
    sockets.push_back(std::move(socks));
  }
  if (opt_.scan_threads) SampleThreadsBudgeted(out.processes);
  bool any_socket =
      std::any_of(sockets.begin(), sockets.end(), [](const auto& v) { return !v.empty(); });
  if (!any_socket) return;
  std::unordered_map<uint64_t, uint16_t> listening;
  for (const TcpSocket& s : ListeningSockets(ns_pid)) listening.emplace(s.inode, s.local_port);
  for (size_t i = 0; i < out.processes.size(); ++i) {
    auto& ports = out.processes[i].listening_ports;
    for (uint64_t inode : sockets[i]) {
      auto it = listening.find(inode);
      if (it != listening.end()) ports.push_back(it->second);
    }
    std::sort(ports.begin(), ports.end());
    ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  }
}

void ProcessTreeSampler::SampleTree(const std::vector<int>& roots, Sample& out) const {
  bool truncated = false;
  std::vector<int> pids = FindDescendants(roots, &truncated);
  SampleList(pids, truncated, pids.empty() ? 0 : pids.front(), out);
}

void ProcessTreeSampler::SamplePids(const std::vector<int>& pids, Sample& out) const {
  SampleList(pids, false, pids.empty() ? 0 : pids.front(), out);
}

namespace {

// The LISTEN rows of /proc/.../net/tcp{,6}. The kernel lists listening sockets before all others,
// so reading stops at the first row in another state: on a host with many connections this
// saves generating (and parsing) megabytes of text each sample.
std::optional<std::vector<TcpSocket>> ReadListeners(const std::string& path, bool v6) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::vector<TcpSocket> out;
  std::string text;
  size_t parsed = 0;  // bytes of `text` already parsed (whole lines)
  bool header = true;
  constexpr size_t kMax = 4 << 20;
  char buf[16384];
  bool done = false;
  while (!done && text.size() < kMax) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
    size_t end = text.rfind('\n');
    if (end == std::string::npos || end + 1 <= parsed) continue;
    std::string_view lines(text.data() + parsed, end + 1 - parsed);
    if (header) {
      size_t nl = lines.find('\n');
      lines.remove_prefix(nl + 1);
      header = false;
    }
    for (const TcpSocket& sock : ParseNetTcp(lines, v6)) {
      // Kernels before 4.4 print a listener's pending requests (SYN_RECV, 03) right after it.
      if (sock.state == 0x03) continue;
      if (sock.state != kTcpListen) {
        done = true;
        break;
      }
      out.push_back(sock);
    }
    parsed = end + 1;
  }
  ::close(fd);
  return out;
}

}  // namespace

std::vector<TcpSocket> ProcessTreeSampler::ListeningSockets(int ns_pid) const {
  std::vector<TcpSocket> out;
  for (bool v6 : {false, true}) {
    std::string name = v6 ? "net/tcp6" : "net/tcp";
    std::optional<std::vector<TcpSocket>> rows;
    if (ns_pid > 0)
      rows = ReadListeners(Join(reader_.root(), std::to_string(ns_pid) + "/" + name), v6);
    if (!rows) rows = ReadListeners(Join(reader_.root(), name), v6);
    if (rows) out.insert(out.end(), rows->begin(), rows->end());
  }
  return out;
}

bool ProcessTreeSampler::PortListening(uint16_t port, int ns_pid) const {
  auto socks = ListeningSockets(ns_pid);
  return std::any_of(socks.begin(), socks.end(),
                     [&](const TcpSocket& s) { return s.local_port == port; });
}

std::optional<std::string> ProcessTreeSampler::ModelPathOf(const std::vector<int>& pids) const {
  for (int pid : pids) {
    auto text = reader_.Read(std::to_string(pid) + "/cmdline", 64 * 1024);
    if (!text) continue;
    if (auto m = ModelPathFromCmdline(ParseCmdline(*text))) return m;
  }
  return std::nullopt;
}

}  // namespace spinup::proc
