// Pure parsers for the /proc files the sampler reads: text in, struct out, no I/O. Everything
// under /proc is untrusted input here (a process can put anything in its comm or cmdline, a file
// can be cut short by a process that exits mid-read), so every parser bounds-checks and returns
// nullopt (or skips a line) rather than crashing. Field layouts: proc(5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinup::proc {

// /proc/PID/stat and /proc/PID/task/TID/stat. The comm field may hold spaces and parentheses
// ("(a) b)"), so the fields after it are found from the LAST ')' in the text.
struct StatInfo {
  int pid = 0;
  std::string comm;
  char state = '?';
  int ppid = 0;
  int pgrp = 0;
  int session = 0;
  uint64_t minflt = 0;
  uint64_t majflt = 0;
  uint64_t utime_ticks = 0;
  uint64_t stime_ticks = 0;
  int64_t num_threads = 0;
  uint64_t starttime_ticks = 0;  // since boot; with pid, identifies a process across pid reuse
  uint64_t vsize_bytes = 0;
  int64_t rss_pages = 0;
};
std::optional<StatInfo> ParseStat(std::string_view text);

// /proc/PID/status: the few keys we use. Missing keys stay at their defaults.
struct StatusInfo {
  std::string name;
  char state = '?';
  int tgid = 0;
  int pid = 0;
  int ppid = 0;
  std::optional<uint64_t> vm_rss_bytes;  // "VmRSS:  1234 kB" (absent for kernel threads, zombies)
  std::optional<uint64_t> vm_hwm_bytes;  // "VmHWM:" peak RSS
  int threads = 0;
};
// nullopt only when the text has no "Name:" line (not a status file at all).
std::optional<StatusInfo> ParseStatus(std::string_view text);

// /proc/PID/io. Readable only for processes we may ptrace; nullopt when no key was found.
struct IoInfo {
  uint64_t rchar = 0;
  uint64_t wchar = 0;
  uint64_t syscr = 0;
  uint64_t syscw = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  uint64_t cancelled_write_bytes = 0;
};
std::optional<IoInfo> ParseIo(std::string_view text);

// /proc/PID/cmdline: NUL-separated arguments (a trailing NUL or none). At most max_args
// arguments, each capped at max_arg_bytes. A process that rewrote its title (setproctitle) may
// use spaces instead of NULs; that arrives as one argument.
std::vector<std::string> ParseCmdline(std::string_view text, size_t max_args = 256,
                                      size_t max_arg_bytes = 4096);
// The arguments joined by single spaces, capped at max_bytes (for ProcessSample::cmdline).
std::string JoinCmdline(const std::vector<std::string>& args, size_t max_bytes = 1024);

// What a sleeping thread waits on, from /proc/PID/task/TID/wchan (a kernel symbol name).
//   kFutex: futex_wait_queue, futex_wait_queue_me, futex_wait, futex_* (mutexes, condition
//           variables, thread joins: a thread blocked on another thread of its process or on a
//           shared-memory peer).
//   kPoll:  poll/select/epoll and blocking reads on pipes and sockets: do_poll, do_sys_poll,
//           poll_schedule_timeout*, do_select, core_sys_select, ep_poll, do_epoll_wait,
//           pipe_read, pipe_wait, unix_stream_read_generic, unix_stream_data_wait,
//           skb_wait_for_more_packets, sk_wait_data, inet_csk_accept, tcp_recvmsg* (waiting for
//           a message from another process or host).
//   kSleep: nanosleep/hrtimer_nanosleep/do_nanosleep (a timed sleep, e.g. a polling loop).
//   kOther: any other symbol (page faults, disk waits, child waits, ...).
//   kNone:  "0" or empty: running, or the kernel hides the symbol from us.
// A ".constprop.0" / ".isra.0" / ".part.0" suffix from compiler cloning is ignored.
enum class WaitKind { kNone, kFutex, kPoll, kSleep, kOther };
WaitKind ClassifyWchan(std::string_view wchan);
std::string_view WaitKindName(WaitKind kind);

// /proc/PID/fdinfo/FD: the "pos:" line (the file offset). nullopt when absent.
std::optional<uint64_t> ParseFdinfoPos(std::string_view text);

// One row of /proc/net/tcp or /proc/net/tcp6.
struct TcpSocket {
  uint16_t local_port = 0;
  uint8_t state = 0;  // 0x0A = LISTEN
  uint64_t inode = 0;
  bool ipv6 = false;
  bool loopback_only = false;  // bound to 127.0.0.0/8 or ::1
};
inline constexpr uint8_t kTcpListen = 0x0A;
// Skips the header and any malformed row; at most max_rows rows are parsed.
std::vector<TcpSocket> ParseNetTcp(std::string_view text, bool ipv6, size_t max_rows = 65536);

// The inode of a socket fd link target "socket:[123]"; nullopt for anything else.
std::optional<uint64_t> ParseSocketLink(std::string_view link);

// cgroup.procs / tasks: one PID per line; malformed lines skipped; at most max_pids.
std::vector<int> ParsePidList(std::string_view text, size_t max_pids = 4096);

// /proc/PID/task/TID/children: space-separated PIDs.
std::vector<int> ParseChildren(std::string_view text, size_t max_pids = 4096);

// The model path in an inference server's command line, or nullopt. Understands
//   --model-path X, --model-path=X, --model X, --model=X  (SGLang, vLLM, TGI-like launchers)
//   vllm serve PATH  (the first positional after "serve" when argv[0] or argv[1] names vllm)
//   python -m sglang.launch_server --model-path X, sglang serve --model-path X
std::optional<std::string> ModelPathFromCmdline(const std::vector<std::string>& args);

// True when comm (or the basename of argv[0]) is a compiler process that JIT/AOT compilation
// spawns: nvcc, cicc, ptxas, fatbinary, nvlink, ninja, cc1plus, cc1, gcc, g++, c++, clang,
// clang++, ld, as. Their presence in the tree is a progress signal for the compile phase.
bool IsCompilerComm(std::string_view comm);

}  // namespace spinup::proc
