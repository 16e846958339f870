#include "proc/proc_parse.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace spinup::proc {
namespace {

// Splits on runs of spaces/tabs; at most max_fields fields.
std::vector<std::string_view> SplitFields(std::string_view s, size_t max_fields) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size() && out.size() < max_fields) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

template <typename T>
bool ParseNum(std::string_view s, T& out, int base = 10) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

template <typename T>
T NumOr(std::string_view s, T fallback) {
  T v{};
  return ParseNum(s, v) ? v : fallback;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Calls fn(line) for each line, at most max_lines.
template <typename Fn>
void ForEachLine(std::string_view text, size_t max_lines, Fn fn) {
  size_t n = 0;
  while (!text.empty() && n < max_lines) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    fn(line);
    ++n;
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

std::string_view Basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::optional<StatInfo> ParseStat(std::string_view text) {
  size_t open = text.find('(');
  size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  StatInfo info;
  if (!ParseNum(Trim(text.substr(0, open)), info.pid)) return std::nullopt;
  info.comm = std::string(text.substr(open + 1, std::min<size_t>(close - open - 1, 64)));
  // Fields from 3 (state) on; index 0 here is field 3.
  auto f = SplitFields(text.substr(close + 1), 64);
  if (f.size() < 2 || f[0].size() != 1) return std::nullopt;
  info.state = f[0][0];
  auto field = [&](size_t n) -> std::string_view {  // n: 1-based field number in proc(5)
    return n >= 3 && n - 3 < f.size() ? f[n - 3] : std::string_view();
  };
  info.ppid = NumOr<int>(field(4), 0);
  info.pgrp = NumOr<int>(field(5), 0);
  info.session = NumOr<int>(field(6), 0);
  info.minflt = NumOr<uint64_t>(field(10), 0);
  info.majflt = NumOr<uint64_t>(field(12), 0);
  info.utime_ticks = NumOr<uint64_t>(field(14), 0);
  info.stime_ticks = NumOr<uint64_t>(field(15), 0);
  info.num_threads = NumOr<int64_t>(field(20), 0);
  info.starttime_ticks = NumOr<uint64_t>(field(22), 0);
  info.vsize_bytes = NumOr<uint64_t>(field(23), 0);
  info.rss_pages = NumOr<int64_t>(field(24), 0);
  return info;
}

std::optional<StatusInfo> ParseStatus(std::string_view text) {
  StatusInfo info;
  bool have_name = false;
  auto kb = [](std::string_view v) -> std::optional<uint64_t> {
    auto f = SplitFields(v, 2);
    uint64_t n = 0;
    if (f.empty() || !ParseNum(f[0], n) || n > (UINT64_MAX >> 10)) return std::nullopt;
    return n * 1024;  // the kernel writes "kB" meaning KiB
  };
  ForEachLine(text, 128, [&](std::string_view line) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = line.substr(0, colon);
    std::string_view value = Trim(line.substr(colon + 1));
    if (key == "Name") {
      info.name = std::string(value.substr(0, 64));
      have_name = true;
    } else if (key == "State") {
      if (!value.empty()) info.state = value[0];
    } else if (key == "Tgid") {
      info.tgid = NumOr<int>(value, 0);
    } else if (key == "Pid") {
      info.pid = NumOr<int>(value, 0);
    } else if (key == "PPid") {
      info.ppid = NumOr<int>(value, 0);
    } else if (key == "VmRSS") {
      info.vm_rss_bytes = kb(value);
    } else if (key == "VmHWM") {
      info.vm_hwm_bytes = kb(value);
    } else if (key == "Threads") {
      info.threads = NumOr<int>(value, 0);
    }
  });
  if (!have_name) return std::nullopt;
  return info;
}

std::optional<IoInfo> ParseIo(std::string_view text) {
  IoInfo io;
  bool any = false;
  ForEachLine(text, 32, [&](std::string_view line) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = line.substr(0, colon);
    uint64_t v = 0;
    if (!ParseNum(Trim(line.substr(colon + 1)), v)) return;
    uint64_t* slot = nullptr;
    if (key == "rchar") slot = &io.rchar;
    if (key == "wchar") slot = &io.wchar;
    if (key == "syscr") slot = &io.syscr;
    if (key == "syscw") slot = &io.syscw;
    if (key == "read_bytes") slot = &io.read_bytes;
    if (key == "write_bytes") slot = &io.write_bytes;
    if (key == "cancelled_write_bytes") slot = &io.cancelled_write_bytes;
    if (slot != nullptr) {
      *slot = v;
      any = true;
    }
  });
  if (!any) return std::nullopt;
  return io;
}

std::vector<std::string> ParseCmdline(std::string_view text, size_t max_args,
                                      size_t max_arg_bytes) {
  std::vector<std::string> args;
  while (!text.empty() && args.size() < max_args) {
    size_t nul = text.find('\0');
    std::string_view arg = text.substr(0, nul);
    args.emplace_back(arg.substr(0, max_arg_bytes));
    if (nul == std::string_view::npos) break;
    text.remove_prefix(nul + 1);
  }
  return args;
}

std::string JoinCmdline(const std::vector<std::string>& args, size_t max_bytes) {
  std::string out;
  for (const auto& a : args) {
    if (out.size() >= max_bytes) break;
    if (!out.empty()) out += ' ';
    out += a;
  }
  if (out.size() > max_bytes) out.resize(max_bytes);
  // Keep the text printable: a title rewritten in place can leave stray NULs or controls.
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

WaitKind ClassifyWchan(std::string_view wchan) {
  wchan = Trim(wchan);
  if (wchan.empty() || wchan == "0") return WaitKind::kNone;
  // Compiler-cloned symbol names carry a suffix: "poll_schedule_timeout.constprop.0".
  size_t dot = wchan.find('.');
  if (dot != std::string_view::npos) wchan = wchan.substr(0, dot);
  if (wchan.starts_with("futex_") || wchan == "do_futex") return WaitKind::kFutex;
  static constexpr std::array<std::string_view, 16> kPoll = {"do_poll",
                                                             "do_sys_poll",
                                                             "poll_schedule_timeout",
                                                             "do_select",
                                                             "core_sys_select",
                                                             "ep_poll",
                                                             "do_epoll_wait",
                                                             "pipe_read",
                                                             "pipe_wait",
                                                             "unix_stream_read_generic",
                                                             "unix_stream_data_wait",
                                                             "skb_wait_for_more_packets",
                                                             "sk_wait_data",
                                                             "inet_csk_accept",
                                                             "tcp_recvmsg",
                                                             "tcp_recvmsg_locked"};
  if (std::find(kPoll.begin(), kPoll.end(), wchan) != kPoll.end()) return WaitKind::kPoll;
  if (wchan == "hrtimer_nanosleep" || wchan == "do_nanosleep" || wchan == "clock_nanosleep" ||
      wchan == "common_nsleep") {
    return WaitKind::kSleep;
  }
  return WaitKind::kOther;
}

std::string_view WaitKindName(WaitKind kind) {
  switch (kind) {
    case WaitKind::kNone:
      return "none";
    case WaitKind::kFutex:
      return "futex";
    case WaitKind::kPoll:
      return "poll";
    case WaitKind::kSleep:
      return "sleep";
    case WaitKind::kOther:
      return "other";
  }
  return "other";
}

std::optional<uint64_t> ParseFdinfoPos(std::string_view text) {
  std::optional<uint64_t> pos;
  ForEachLine(text, 64, [&](std::string_view line) {
    if (pos || !line.starts_with("pos:")) return;
    uint64_t v = 0;
    if (ParseNum(Trim(line.substr(4)), v)) pos = v;
  });
  return pos;
}

namespace {

// "0100007F:1F90" (IPv4) or 32 hex digits + ":1F90" (IPv6), in the kernel's native byte order
// per 32-bit word (little-endian on every platform we run on).
bool ParseTcpAddress(std::string_view s, bool ipv6, uint16_t& port, bool& loopback) {
  size_t colon = s.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view addr = s.substr(0, colon);
  unsigned p = 0;
  if (!ParseNum(s.substr(colon + 1), p, 16) || p > 0xFFFF) return false;
  port = static_cast<uint16_t>(p);
  if (!ipv6) {
    uint32_t a = 0;
    if (addr.size() != 8 || !ParseNum(addr, a, 16)) return false;
    loopback = (a & 0xFF) == 127;  // first octet sits in the low byte
    return true;
  }
  if (addr.size() != 32) return false;
  std::array<uint32_t, 4> w{};
  for (size_t i = 0; i < 4; ++i) {
    if (!ParseNum(addr.substr(i * 8, 8), w[i], 16)) return false;
  }
  // ::1 is words 0,0,0 and 0x01000000 (the byte 01 last in memory).
  loopback = w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0x01000000;
  // ::ffff:127.x.x.x (IPv4-mapped loopback)
  if (w[0] == 0 && w[1] == 0 && w[2] == 0xFFFF0000 && (w[3] & 0xFF) == 127) loopback = true;
  return true;
}

}  // namespace

std::vector<TcpSocket> ParseNetTcp(std::string_view text, bool ipv6, size_t max_rows) {
  std::vector<TcpSocket> out;
  size_t rows = 0;
  ForEachLine(text, max_rows + 1, [&](std::string_view line) {
    if (rows++ == 0 && line.find("local_address") != std::string_view::npos) return;
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
    auto f = SplitFields(line, 12);
    if (f.size() < 10 || f[0].empty() || f[0].back() != ':') return;
    TcpSocket s;
    s.ipv6 = ipv6;
    unsigned st = 0;
    if (!ParseTcpAddress(f[1], ipv6, s.local_port, s.loopback_only)) return;
    if (!ParseNum(f[3], st, 16) || st > 0xFF) return;
    s.state = static_cast<uint8_t>(st);
    if (!ParseNum(f[9], s.inode)) return;
    out.push_back(s);
  });
  return out;
}

std::optional<uint64_t> ParseSocketLink(std::string_view link) {
  constexpr std::string_view kPrefix = "socket:[";
  if (!link.starts_with(kPrefix) || !link.ends_with("]")) return std::nullopt;
  uint64_t inode = 0;
  if (!ParseNum(link.substr(kPrefix.size(), link.size() - kPrefix.size() - 1), inode)) {
    return std::nullopt;
  }
  return inode;
}

std::vector<int> ParsePidList(std::string_view text, size_t max_pids) {
  std::vector<int> out;
  ForEachLine(text, max_pids * 2 + 16, [&](std::string_view line) {
    int pid = 0;
    if (out.size() < max_pids && ParseNum(Trim(line), pid) && pid > 0) out.push_back(pid);
  });
  return out;
}

std::vector<int> ParseChildren(std::string_view text, size_t max_pids) {
  std::vector<int> out;
  for (std::string_view f : SplitFields(text, max_pids)) {
    int pid = 0;
    if (ParseNum(f, pid) && pid > 0) out.push_back(pid);
  }
  return out;
}

std::optional<std::string> ModelPathFromCmdline(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    for (std::string_view flag : {"--model-path", "--model"}) {
      if (a == flag && i + 1 < args.size() && !args[i + 1].empty()) return args[i + 1];
      if (a.size() > flag.size() + 1 && a.starts_with(flag) && a[flag.size()] == '=') {
        return std::string(a.substr(flag.size() + 1));
      }
    }
  }
  // `vllm serve PATH`: the first argument after "serve" that is not an option. Only when vllm is
  // the program (argv[0]) or run through an interpreter (python -m vllm..., /usr/bin/vllm).
  for (size_t i = 0; i + 1 < args.size() && i < 4; ++i) {
    if (args[i] != "serve") continue;
    bool is_vllm = false;
    for (size_t j = 0; j < i; ++j) {
      std::string_view b = Basename(args[j]);
      if (b == "vllm" || b.starts_with("vllm.")) is_vllm = true;
    }
    if (is_vllm && !args[i + 1].starts_with("-")) return args[i + 1];
  }
  return std::nullopt;
}

bool IsCompilerComm(std::string_view comm) {
  std::string_view b = Basename(comm);
  static constexpr std::array<std::string_view, 16> kCompilers = {
      "nvcc", "cicc", "ptxas", "fatbinary", "nvlink", "ninja",   "cc1plus", "cc1",
      "gcc",  "g++",  "c++",   "cc",        "clang",  "clang++", "ld",      "as"};
  if (std::find(kCompilers.begin(), kCompilers.end(), b) != kCompilers.end()) return true;
  // Versioned drivers: gcc-12, g++-12, clang-14, clang++-14.
  for (std::string_view prefix : {"gcc-", "g++-", "clang-", "clang++-", "x86_64-linux-gnu-g"}) {
    if (b.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace spinup::proc
