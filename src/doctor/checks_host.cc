// Groups 4-6: GPUs (holders, count, CUDA_VISIBLE_DEVICES), peer-to-peer risk, and the host
// (port, /dev/shm, limits, caches, socket interfaces).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "base/units.h"
#include "doctor/doctor.h"

namespace spinup::doctor {
namespace {

std::vector<std::string> SplitComma(std::string_view s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size() && out.size() < 256) {
    size_t c = s.find(',', pos);
    if (c == std::string_view::npos) c = s.size();
    std::string_view part = s.substr(pos, c - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    out.emplace_back(part);
    pos = c + 1;
  }
  return out;
}

std::string Describe(const ProcessRef& p) {
  return fmt::format("PID {} ({}{})", p.pid, p.cmdline,
                     p.ppid == 1 ? ", parent PID 1: an orphan" : "");
}

// How many GPUs CUDA will see, or nullopt when CUDA_VISIBLE_DEVICES is unset.
std::optional<size_t> VisibleCount(const HostView& v) {
  const std::string* cvd = v.command.getenv("CUDA_VISIBLE_DEVICES");
  if (cvd == nullptr) return std::nullopt;
  if (cvd->empty()) return 0;
  return SplitComma(*cvd).size();
}

}  // namespace

void CheckGpus(const HostView& v, Emitter& e) {
  const Thresholds& t = e.t();
  std::map<int, ProcessRef> holders;  // by PID: NVML and the fd scan may both name one
  for (const auto& h : v.gpu_holders) {
    if (std::find(t.gpu_holder_ignore.begin(), t.gpu_holder_ignore.end(), h.comm) !=
        t.gpu_holder_ignore.end()) {
      continue;
    }
    auto [it, fresh] = holders.emplace(h.pid, h);
    if (!fresh && it->second.cmdline.empty()) it->second = h;
  }
  std::vector<std::string> lines, pids;
  for (const auto& [pid, h] : holders) {
    lines.push_back(fmt::format("{} holds {}", Describe(h), h.what));
    pids.push_back(std::to_string(pid));
  }
  for (const auto& g : v.gpus) {
    if (g.pids.empty() && g.used_bytes > t.gpu_orphan_used_bytes) {
      lines.push_back(
          fmt::format("GPU {} has {} in use and no process listed (an orphan in "
                      "another container, or a process NVML cannot see)",
                      g.index, FormatBytesBinary(g.used_bytes)));
    }
  }
  if (!lines.empty()) {
    e.Add("gpu-holders", CheckStatus::kFail,
          {{"detail", fmt::format("{}", fmt::join(lines, "; "))},
           {"pids", pids.empty() ? "the owner" : fmt::format("{}", fmt::join(pids, " "))}});
  } else {
    e.Add("gpu-holders", CheckStatus::kOk,
          {{"detail", v.nvml_available
                          ? "no process holds GPU memory or /dev/nvidia*"
                          : "no process has /dev/nvidia* open (no NVML: memory not checked)"}});
  }
  const std::string* cvd = v.command.getenv("CUDA_VISIBLE_DEVICES");
  if (cvd != nullptr) {
    std::set<std::string> seen;
    std::string bad;
    for (const auto& d : SplitComma(*cvd)) {
      unsigned idx = 0;
      auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), idx);
      bool numeric = ec == std::errc() && p == d.data() + d.size();
      bool uuid = d.rfind("GPU-", 0) == 0 || d.rfind("MIG-", 0) == 0;
      if (!seen.insert(d).second)
        bad = fmt::format("{} is listed twice", d);
      else if (!numeric && !uuid)
        bad = fmt::format("'{}' is neither an index nor a UUID", d);
      else if (numeric && v.nvml_available && idx >= v.gpus.size())
        bad = fmt::format("{} is not a GPU here ({} present)", d, v.gpus.size());
      if (!bad.empty()) break;
    }
    Vars vars{{"count", std::to_string(v.gpus.size())}};
    vars["detail"] = bad.empty()
                         ? fmt::format("CUDA_VISIBLE_DEVICES={} names GPUs that exist", *cvd)
                         : fmt::format("CUDA_VISIBLE_DEVICES={}: {}", *cvd, bad);
    e.Add("cuda-visible-devices", bad.empty() ? CheckStatus::kOk : CheckStatus::kFail, vars);
  }
  if (!v.nvml_available) {
    e.Skip("gpu-count", v.nvml_message.empty() ? "no NVML" : v.nvml_message);
    return;
  }
  size_t have = v.gpus.size();
  if (auto n = VisibleCount(v)) have = std::min(have, *n);
  int need = GpusNeeded(v.command);
  Vars vars{{"need", std::to_string(need)},
            {"have", std::to_string(have)},
            {"cvd", cvd ? fmt::format(" (CUDA_VISIBLE_DEVICES={})", *cvd) : ""}};
  e.Add("gpu-count", static_cast<size_t>(need) > have ? CheckStatus::kFail : CheckStatus::kOk,
        vars);
}

void CheckP2p(const HostView& v, Emitter& e) {
  const ServerCommand& c = v.command;
  int ranks = GpusNeeded(c);
  if (c.nnodes > 1 || ranks < 2 || c.tp * c.pp < 2) {
    e.Skip("p2p-risk", "no tensor or pipeline parallelism across GPUs of one node");
    return;
  }
  if (const std::string* d = c.getenv("NCCL_P2P_DISABLE"); d != nullptr && *d == "1") {
    e.Add("p2p-risk", CheckStatus::kOk,
          {{"detail", "NCCL_P2P_DISABLE=1 is set: NCCL uses shared memory"}});
    return;
  }
  // Links among the GPUs this node will use (the first `ranks` NVML indices).
  bool all_nvlink = true, any_link = false, p2p_refused = false;
  std::set<std::string> levels;
  for (const auto& l : v.links) {
    if (l.a >= ranks || l.b >= ranks) continue;
    any_link = true;
    all_nvlink = all_nvlink && l.nvlink;
    if (!l.nvlink && !l.level.empty()) levels.insert(l.level);
    if (l.p2p_read && !*l.p2p_read) p2p_refused = true;
  }
  if (any_link && all_nvlink) {
    e.Add("p2p-risk", CheckStatus::kOk,
          {{"detail", fmt::format("the {} GPUs are joined by NVLink", ranks)}});
    return;
  }
  std::vector<std::string> factors;
  if (v.iommu_mode == "translated") factors.push_back("the IOMMU translates DMA (not iommu=pt)");
  if (!v.acs_redirect_bridges.empty()) {
    factors.push_back(fmt::format("ACS redirection on {} PCIe bridge(s) ({})",
                                  v.acs_redirect_bridges.size(), v.acs_redirect_bridges.front()));
  }
  if (!v.confidential_vm.empty()) {
    factors.push_back(
        fmt::format("a {} confidential VM (peer access is off in CC mode)", v.confidential_vm));
  } else if (v.hypervisor) {
    factors.push_back("a virtual machine (GPU passthrough)");
  }
  if (p2p_refused) factors.push_back("NVML reports P2P reads as not supported");
  // Without NVML the topology is unknown (NVLink may be there): a plain VM is not reason enough.
  if (!any_link && !p2p_refused && v.iommu_mode != "translated" && v.acs_redirect_bridges.empty() &&
      v.confidential_vm.empty()) {
    e.Skip("p2p-risk",
           "GPU topology unknown (no NVML) and no IOMMU translation, ACS redirection "
           "or confidential VM seen");
    return;
  }
  std::string topology =
      !any_link ? "topology unknown without NVML" : fmt::format("PCIe {}", fmt::join(levels, "/"));
  if (levels.empty() && any_link) topology = "PCIe";
  if (factors.empty()) {
    e.Add("p2p-risk", CheckStatus::kOk,
          {{"detail", fmt::format("no NVLink ({}), but no IOMMU translation, ACS redirection or VM "
                                  "seen: PCIe P2P should work",
                                  topology)}});
    return;
  }
  e.Add("p2p-risk", CheckStatus::kWarn,
        {{"tp", std::to_string(c.tp)},
         {"topology", topology},
         {"factors", fmt::format("{}", fmt::join(factors, ", "))}});
}

namespace {

void CheckPort(const HostView& v, Emitter& e) {
  int port = v.command.port;
  if (port <= 0) {
    e.Skip("port-free", "port unknown");
    return;
  }
  Vars vars{{"port", std::to_string(port)}};
  if (!v.port_owners.empty()) {
    std::vector<std::string> owners;
    for (const auto& p : v.port_owners) owners.push_back(Describe(p));
    vars["owner"] = fmt::format("{}", fmt::join(owners, ", "));
    e.Add("port-free", CheckStatus::kFail, vars);
  } else if (v.port_listening) {
    vars["owner"] = "a process this user cannot see (run doctor as root to name it)";
    e.Add("port-free", CheckStatus::kFail, vars);
  } else {
    e.Add("port-free", CheckStatus::kOk, vars);
  }
}

void CheckLimits(const HostView& v, Emitter& e) {
  const Thresholds& t = e.t();
  if (v.shm_bytes) {
    e.Add("shm-size", *v.shm_bytes < t.shm_min_bytes ? CheckStatus::kWarn : CheckStatus::kOk,
          {{"size", FormatBytesBinary(*v.shm_bytes)}});
  } else {
    e.Skip("shm-size", "/dev/shm not found");
  }
  auto show = [](uint64_t n) {
    return n == UINT64_MAX ? std::string("unlimited") : std::to_string(n);
  };
  if (v.nofile_hard) {
    e.Add("ulimit-nofile", *v.nofile_hard < t.nofile_min ? CheckStatus::kWarn : CheckStatus::kOk,
          {{"value", show(*v.nofile_hard)}, {"min", std::to_string(t.nofile_min)}});
  }
  // Locked memory matters for RDMA registration (InfiniBand/RoCE between nodes), not on one node.
  if (v.memlock_soft && v.command.nnodes > 1) {
    std::string shown =
        *v.memlock_soft == UINT64_MAX ? "unlimited" : FormatBytesBinary(*v.memlock_soft);
    e.Add("ulimit-memlock",
          *v.memlock_soft < t.memlock_min_bytes ? CheckStatus::kWarn : CheckStatus::kOk,
          {{"value", shown}});
  }
}

void CheckCaches(const HostView& v, Emitter& e) {
  if (v.caches.empty()) {
    e.Skip("cache-dirs", "no cache folders known (HOME unset)");
    return;
  }
  std::vector<std::string> bad, good;
  for (const auto& c : v.caches) {
    std::string free = c.free_bytes ? FormatBytes(*c.free_bytes) + " free" : "free space unknown";
    if (!c.writable) {
      bad.push_back(fmt::format("{}={} is not writable", c.name, c.path));
    } else if (c.free_bytes && *c.free_bytes < e.t().cache_free_min_bytes) {
      bad.push_back(fmt::format("{}={} has only {}", c.name, c.path, free));
    } else {
      good.push_back(fmt::format("{} ({})", c.name, free));
    }
  }
  if (!bad.empty()) {
    e.Add("cache-dirs", CheckStatus::kWarn, {{"detail", fmt::format("{}", fmt::join(bad, "; "))}});
  } else {
    e.Add("cache-dirs", CheckStatus::kOk,
          {{"detail", fmt::format("writable with room: {}", fmt::join(good, ", "))}});
  }
}

// NCCL_SOCKET_IFNAME syntax: comma-separated prefixes; "^" excludes, "=" matches exactly.
void CheckIfnames(const HostView& v, Emitter& e) {
  std::vector<std::string> bad, set;
  for (const char* var : {"NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"}) {
    const std::string* val = v.command.getenv(var);
    if (val == nullptr || val->empty() || (*val)[0] == '^') continue;
    set.push_back(fmt::format("{}={}", var, *val));
    bool exact = (*val)[0] == '=';
    bool any = false;
    for (auto name : SplitComma(exact ? val->substr(1) : *val)) {
      for (const auto& n : v.net_interfaces) {
        if (exact ? n == name : n.rfind(name, 0) == 0) any = true;
      }
    }
    if (!any) bad.push_back(fmt::format("{}={} matches no interface", var, *val));
  }
  if (v.net_interfaces.empty() || set.empty()) {
    if (!set.empty()) e.Skip("socket-ifname", "network interfaces unknown");
    return;
  }
  Vars vars{{"interfaces", fmt::format("{}", fmt::join(v.net_interfaces, ", "))},
            {"first", v.net_interfaces.front()}};
  for (const auto& n : v.net_interfaces) {
    if (n != "lo" && n.rfind("docker", 0) != 0 && n.rfind("veth", 0) != 0) {
      vars["first"] = n;
      break;
    }
  }
  vars["detail"] = bad.empty()
                       ? fmt::format("{} name interfaces that exist", fmt::join(set, ", "))
                       : fmt::format("{} (present: {})", fmt::join(bad, "; "), vars["interfaces"]);
  e.Add("socket-ifname", bad.empty() ? CheckStatus::kOk : CheckStatus::kFail, vars);
}

}  // namespace

void CheckHost(const HostView& v, Emitter& e) {
  CheckPort(v, e);
  CheckLimits(v, e);
  CheckCaches(v, e);
  CheckIfnames(v, e);
}

}  // namespace spinup::doctor
