// Gathering from /proc: who holds GPUs and the port, limits, /dev/shm, available memory.
#include <sys/statvfs.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "doctor/host_view.h"
#include "proc/proc_parse.h"
#include "proc/sampler.h"

namespace spinup::doctor {
namespace {

std::optional<uint64_t> ParseU64(std::string_view s) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size() && out.size() < 64) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename F>
void ForEachLine(std::string_view text, F&& f) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    f(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
}

ProcessRef Describe(const proc::ProcReader& reader, int pid, std::string what) {
  ProcessRef ref;
  ref.pid = pid;
  ref.what = std::move(what);
  std::string spid = std::to_string(pid);
  if (auto stat = reader.Read(spid + "/stat", 4096)) {
    if (auto s = proc::ParseStat(*stat)) {
      ref.ppid = s->ppid;
      ref.comm = s->comm;
    }
  }
  if (auto cmd = reader.Read(spid + "/cmdline", 16384)) {
    ref.cmdline = proc::JoinCmdline(proc::ParseCmdline(*cmd, 64, 512), 200);
  }
  if (ref.cmdline.empty()) {
    // NVML reports host PIDs: in a container the process may not exist in this /proc.
    ref.cmdline = ref.comm.empty() ? "not visible here: another container or PID namespace"
                                   : "[" + ref.comm + "]";
  }
  return ref;
}

}  // namespace

std::optional<uint64_t> ShmSizeFromMounts(std::string_view mounts) {
  std::optional<uint64_t> out;
  ForEachLine(mounts, [&](std::string_view line) {
    auto f = Fields(line);
    if (f.size() < 4 || f[1] != "/dev/shm") return;
    std::string_view opts = f[3];
    auto at = opts.find("size=");
    if (at == std::string_view::npos) return;
    std::string_view v = opts.substr(at + 5);
    v = v.substr(0, v.find(','));
    uint64_t mult = 1;
    if (!v.empty()) {
      switch (v.back()) {
        case 'k':
        case 'K':
          mult = 1ull << 10;
          break;
        case 'm':
        case 'M':
          mult = 1ull << 20;
          break;
        case 'g':
        case 'G':
          mult = 1ull << 30;
          break;
        default:
          break;
      }
      if (mult != 1) v.remove_suffix(1);
    }
    if (auto n = ParseU64(v); n && *n < (UINT64_MAX >> 30)) out = *n * mult;
  });
  return out;
}

Limits ParseLimits(std::string_view text) {
  Limits l;
  auto value = [](std::string_view rest, size_t i) -> std::optional<uint64_t> {
    auto f = Fields(rest);
    if (f.size() <= i) return std::nullopt;
    if (f[i] == "unlimited") return UINT64_MAX;
    return ParseU64(f[i]);
  };
  ForEachLine(text, [&](std::string_view line) {
    if (line.rfind("Max open files", 0) == 0) {
      l.nofile_soft = value(line.substr(14), 0);
      l.nofile_hard = value(line.substr(14), 1);
    }
    if (line.rfind("Max locked memory", 0) == 0) l.memlock_soft = value(line.substr(17), 0);
  });
  return l;
}

void GatherProcesses(const HostRoots& roots, int port, HostView& view) {
  proc::ProcReader reader(roots.proc);
  // Holders NVML named come with a PID only.
  for (auto& h : view.gpu_holders) {
    if (h.cmdline.empty()) h = Describe(reader, h.pid, h.what);
  }
  std::set<uint64_t> listen_inodes;
  for (bool v6 : {false, true}) {
    auto text = reader.Read(v6 ? "net/tcp6" : "net/tcp", 4 << 20);
    if (!text) continue;
    for (const auto& s : proc::ParseNetTcp(*text, v6)) {
      if (port > 0 && s.local_port == port && s.state == proc::kTcpListen) {
        view.port_listening = true;
        listen_inodes.insert(s.inode);
      }
    }
  }
  // /dev/nvidia0..N, nvidiactl, nvidia-uvm: any of them open means a CUDA user.
  const std::string nvidia_prefix = (roots.dev / "nvidia").string();
  for (int pid : reader.ListNumeric("", roots.max_processes)) {
    if (pid == roots.own_pid) continue;
    std::string fd_dir = std::to_string(pid) + "/fd";
    std::string holds, port_what;
    for (int fd : reader.ListNumeric(fd_dir, roots.max_fds_per_process)) {
      auto link = reader.ReadLink(fd_dir + "/" + std::to_string(fd));
      if (!link) continue;
      if (link->rfind(nvidia_prefix, 0) == 0 && holds.empty()) holds = *link;
      if (auto inode = proc::ParseSocketLink(*link); inode && listen_inodes.count(*inode)) {
        port_what = "port " + std::to_string(port);
      }
    }
    if (!holds.empty()) view.gpu_holders.push_back(Describe(reader, pid, holds));
    if (!port_what.empty()) view.port_owners.push_back(Describe(reader, pid, port_what));
  }
}

void GatherLimits(const HostRoots& roots, HostView& view) {
  proc::ProcReader reader(roots.proc);
  if (auto text = reader.Read(roots.self + "/limits")) {
    Limits l = ParseLimits(*text);
    view.nofile_hard = l.nofile_hard;
    view.memlock_soft = l.memlock_soft;
  }
  if (auto text = reader.Read(roots.self + "/mounts", 1 << 20)) {
    view.shm_bytes = ShmSizeFromMounts(*text);
  }
  if (!view.shm_bytes) {
    struct statvfs st {};
    if (::statvfs((roots.dev / "shm").c_str(), &st) == 0) {
      view.shm_bytes = static_cast<uint64_t>(st.f_blocks) * st.f_frsize;
    }
  }
  if (auto text = reader.Read("meminfo")) {
    ForEachLine(*text, [&](std::string_view line) {
      if (line.rfind("MemAvailable:", 0) != 0) return;
      auto f = Fields(line.substr(13));
      if (!f.empty()) {
        if (auto kb = ParseU64(f[0])) view.mem_available = *kb * 1024;
      }
    });
  }
}

}  // namespace spinup::doctor
