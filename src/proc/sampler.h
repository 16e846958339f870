// Samples a server's process tree from /proc: per process state, CPU, RSS, io counters, major
// faults, thread states and wait channels, open model files with their offsets, and listening
// TCP sockets. The /proc root and /sys root are constructor parameters so tests point them at
// fixture trees; clock ticks per second and the page size are parameters too (the CLI resolves
// them once with sysconf). Work is capped (processes, threads per process, fds per process) so a
// 1,000-thread tree samples cheaply; see docs/signals.md.
//
// Usage (what `spinup watch --pid` / `spinup run` do each interval):
//   proc::SamplerOptions opt;                  // proc_root "/proc", sys_root "/sys"
//   opt.model_dir = "/models/Llama-3-70B";     // optional: which open files are model files
//   opt.ticks_per_second = sysconf(_SC_CLK_TCK);
//   proc::ProcessTreeSampler sampler(opt);
//   Sample s;
//   s.time_ms = now_ms;
//   sampler.SampleTree({server_pid}, s);       // fills processes, compiler_processes, truncated
//   s.port_listening = sampler.PortListening(30000, server_pid);
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "proc/proc_parse.h"
#include "spinup/startup.h"
#include "spinup/status.h"

namespace spinup::proc {

struct SamplerOptions {
  std::filesystem::path proc_root = "/proc";
  std::filesystem::path sys_root = "/sys";
  int64_t ticks_per_second = 100;  // sysconf(_SC_CLK_TCK)
  uint64_t page_size = 4096;       // sysconf(_SC_PAGESIZE); RSS falls back to stat's rss pages
  // Open files under this directory are reported as model files (with fdinfo offsets).
  std::optional<std::filesystem::path> model_dir;
  size_t max_processes = 256;            // a tree larger than this is sampled partially
  size_t max_threads_per_process = 512;  // threads considered per process
  // Threads whose stat + wchan are read per SampleTree/SamplePids call, across the whole tree
  // (0: no limit). Reading them is the dominant cost (~10-20 us per thread in the kernel), so a
  // large tree is covered round-robin: each call refreshes the next batch and the other threads
  // keep the state read in an earlier call (at most ceil(threads / budget) calls old).
  size_t max_thread_reads_per_sample = 128;
  size_t max_fds_per_process = 4096;  // fd links scanned per process
  // An fd's link target is cached; a cached fd is read again every this many samples (new fds
  // and fds on model files every sample). 1: every fd every sample.
  size_t fd_recheck_period = 4;
  size_t max_model_files_per_process = 64;
  size_t max_cmdline_bytes = 1024;
  bool scan_threads = true;  // read task/*/stat + wchan (the costliest part)
  bool scan_fds = true;      // read fd/* links (model files, sockets)
};

// Reads files under a /proc root with size caps. Missing files (a process that just exited,
// permission refused) read as nullopt; nothing throws.
class ProcReader {
 public:
  explicit ProcReader(std::filesystem::path proc_root = "/proc");
  const std::filesystem::path& root() const { return root_; }
  // Reads root/rel (e.g. "1234/stat"), at most max_bytes.
  std::optional<std::string> Read(std::string_view rel, size_t max_bytes = 64 * 1024) const;
  // readlink(root/rel), at most 4096 bytes.
  std::optional<std::string> ReadLink(std::string_view rel) const;
  // Numeric entries of root/rel ("" for the root itself: the PIDs), at most max_entries.
  std::vector<int> ListNumeric(std::string_view rel, size_t max_entries) const;

 private:
  std::filesystem::path root_;
};

// The PIDs of the processes in a systemd unit's cgroup: reads
// sys_root/fs/cgroup/system.slice/UNIT.service/cgroup.procs (cgroup v2), falling back to the v1
// layout sys_root/fs/cgroup/systemd/system.slice/UNIT.service/cgroup.procs. `unit` may carry its
// ".service" suffix or not, or be another unit type ("x.scope"). NotFound when neither exists.
Result<std::vector<int>> FindCgroupPids(const std::filesystem::path& sys_root,
                                        std::string_view unit, size_t max_pids = 4096);

class ProcessTreeSampler {
 public:
  explicit ProcessTreeSampler(SamplerOptions options = {});

  const SamplerOptions& options() const { return opt_; }
  const ProcReader& reader() const { return reader_; }

  // The roots and all their descendants (found through the ppid of every /proc/*/stat), roots
  // first, then breadth first; at most max_processes. Roots that do not exist are left out.
  // `truncated` (optional) is set when the cap cut the list.
  std::vector<int> FindDescendants(const std::vector<int>& roots, bool* truncated = nullptr) const;

  // One process, with all its threads read (up to max_threads_per_process); nullopt when it
  // does not exist (or its stat is unreadable).
  std::optional<ProcessSample> SampleProcess(int pid) const;

  // Samples every process of the trees under `roots` into out.processes (replacing them), sets
  // out.compiler_processes and out.processes_truncated, and fills each process's
  // listening_ports from the network namespace of the first live root.
  void SampleTree(const std::vector<int>& roots, Sample& out) const;

  // Samples exactly these PIDs (e.g. a cgroup's), without looking for descendants.
  void SamplePids(const std::vector<int>& pids, Sample& out) const;

  // Listening TCP sockets (IPv4 and IPv6) in the network namespace of `ns_pid` (its
  // /proc/PID/net/tcp*), or of /proc/net/tcp* when ns_pid is 0 or gone.
  std::vector<TcpSocket> ListeningSockets(int ns_pid = 0) const;
  bool PortListening(uint16_t port, int ns_pid = 0) const;

  // The server's model path from its command line (see ModelPathFromCmdline), for watch without
  // --model: tries each pid in order and returns the first found.
  std::optional<std::string> ModelPathOf(const std::vector<int>& pids) const;

 private:
  void SampleThreads(int pid, ProcessSample& ps) const;
  // Returns socket inodes seen among the process's fds.
  std::vector<uint64_t> SampleFds(int pid, ProcessSample& ps) const;
  void SampleList(const std::vector<int>& pids, bool truncated, int ns_pid, Sample& out) const;

  // What one thread was doing when last read.
  struct ThreadState {
    char state = '?';
    WaitKind wait = WaitKind::kNone;
  };
  static void Count(const ThreadState& t, ProcessSample& ps);
  std::optional<ThreadState> ReadThread(int task_dirfd, int tid) const;
  std::optional<ProcessSample> SampleBasic(int pid) const;
  void SampleThreadsBudgeted(std::vector<ProcessSample>& procs) const;

  SamplerOptions opt_;
  ProcReader reader_;
  std::string model_prefix_;  // model_dir, canonical, with a trailing '/'
  // Round-robin thread reading across calls (see max_thread_reads_per_sample). Mutable: a cache,
  // not observable state; the sampler is not meant to be shared between threads.
  mutable std::unordered_map<uint64_t, ThreadState> thread_cache_;  // key: pid << 32 | tid
  mutable size_t thread_cursor_ = 0;
  // PIDs seen outside the tree in the last full scan of /proc: their stat is not read again
  // (a process outside the tree cannot move into it, barring PID reuse), except in a full rescan
  // every kFullScanEvery calls or when the roots change.
  static constexpr int kFullScanEvery = 16;
  // fd link targets (key: pid << 32 | fd), see fd_recheck_period.
  static constexpr size_t kMaxCachedFds = 65536;
  mutable std::unordered_map<uint64_t, std::string> fd_cache_;
  mutable size_t fd_generation_ = 0;
  mutable std::unordered_set<int> outsiders_;
  mutable std::vector<int> outsider_roots_;
  mutable int scans_ = 0;
};

// Counts of a thread list's states and wait kinds (also used by tests).
struct ThreadCounts {
  int sampled = 0;
  int running = 0;
  int disk_wait = 0;
  int futex_wait = 0;
  int poll_wait = 0;
  int sleep_wait = 0;
};

}  // namespace spinup::proc
