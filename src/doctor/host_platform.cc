// Gathering from /sys, /proc/cpuinfo, /dev and NVML: the platform facts behind NCCL P2P hangs
// (IOMMU mode, PCIe ACS, virtual machines, confidential computing, GPU topology) and the NICs.
#include <algorithm>
#include <system_error>

#include "doctor/host_view.h"
#include "proc/nvml.h"
#include "proc/sampler.h"

namespace spinup::doctor {
namespace fs = std::filesystem;
namespace {

constexpr size_t kMaxEntries = 1024;

std::vector<std::string> ListDir(const fs::path& dir, size_t cap = kMaxEntries) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    out.push_back(it->path().filename().string());
    if (out.size() >= cap) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Trimmed(std::optional<std::string> s) {
  if (!s) return "";
  while (!s->empty() && (s->back() == '\n' || s->back() == ' ')) s->pop_back();
  return *s;
}

bool HasWord(std::string_view text, std::string_view word) {
  size_t pos = 0;
  while ((pos = text.find(word, pos)) != std::string_view::npos) {
    bool left = pos == 0 || text[pos - 1] == ' ' || text[pos - 1] == '\t';
    size_t end = pos + word.size();
    bool right = end == text.size() || text[end] == ' ' || text[end] == '\n';
    if (left && right) return true;
    pos = end;
  }
  return false;
}

std::string LevelName(int level) {
  switch (level) {
    case 0:
      return "same board";
    case 10:
      return "PIX";
    case 20:
      return "PXB";
    case 30:
      return "PHB";
    case 40:
      return "NODE";
    case 50:
      return "SYS";
    default:
      return "";
  }
}

}  // namespace

std::optional<bool> AcsRedirectEnabled(std::string_view cfg) {
  auto u32 = [&](size_t off) -> uint32_t {
    return static_cast<uint32_t>(static_cast<unsigned char>(cfg[off])) |
           static_cast<uint32_t>(static_cast<unsigned char>(cfg[off + 1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(cfg[off + 2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(cfg[off + 3])) << 24;
  };
  size_t off = 0x100;
  for (int hops = 0; hops < 64 && off >= 0x100 && off + 8 <= cfg.size(); ++hops) {
    uint32_t header = u32(off);
    if (header == 0 || header == 0xffffffff) return std::nullopt;
    if ((header & 0xffff) == 0x000d) {  // ACS extended capability
      uint32_t control = u32(off + 4) >> 16;
      constexpr uint32_t kRedirectBits = 0x01 | 0x04 | 0x08 | 0x10 | 0x20;  // SV RR CR UF EC
      return (control & kRedirectBits) != 0;
    }
    size_t next = (header >> 20) & 0xffc;
    if (next <= off) return std::nullopt;
    off = next;
  }
  return std::nullopt;
}

void GatherPlatform(const HostRoots& roots, HostView& view) {
  proc::ProcReader reader(roots.proc);
  std::string cpuinfo = reader.Read("cpuinfo", 4 << 20).value_or("");
  // Only the first processor's flags: every CPU has the same.
  size_t flags = cpuinfo.find("\nflags");
  std::string_view line;
  if (flags != std::string::npos) {
    size_t end = cpuinfo.find('\n', flags + 1);
    line = std::string_view(cpuinfo).substr(flags + 1,
                                            end == std::string::npos ? end : end - flags - 1);
  }
  view.hypervisor = HasWord(line, "hypervisor");
  std::error_code ec;
  if (HasWord(line, "tdx_guest") || fs::exists(roots.dev / "tdx_guest", ec)) {
    view.confidential_vm = "TDX";
  } else if (fs::exists(roots.dev / "sev-guest", ec) ||
             (view.hypervisor && HasWord(line, "sev_snp"))) {
    view.confidential_vm = "SEV-SNP";
  }
  // The IOMMU default domain type: DMA / DMA-FQ translate every device access (what breaks
  // PCIe P2P); identity is passthrough (iommu=pt).
  fs::path groups = roots.sys / "kernel" / "iommu_groups";
  auto names = ListDir(groups, 256);
  if (names.empty()) {
    view.iommu_mode = fs::exists(roots.sys / "kernel", ec) ? "off" : "";
  } else {
    bool translated = false, identity = false;
    for (const auto& g : names) {
      proc::ProcReader sysr(groups);
      std::string type = Trimmed(sysr.Read(g + "/type", 64));
      translated = translated || type.rfind("DMA", 0) == 0;
      identity = identity || type == "identity";
    }
    view.iommu_mode = translated ? "translated" : (identity ? "passthrough" : "");
  }
  fs::path pci = roots.sys / "bus" / "pci" / "devices";
  proc::ProcReader pcir(pci);
  for (const auto& bdf : ListDir(pci)) {
    if (Trimmed(pcir.Read(bdf + "/class", 64)).rfind("0x0604", 0) != 0) continue;  // bridges
    auto cfg = pcir.Read(bdf + "/config", 4096);
    if (cfg && AcsRedirectEnabled(*cfg).value_or(false)) view.acs_redirect_bridges.push_back(bdf);
  }
  for (const auto& n : ListDir(roots.sys / "class" / "net")) view.net_interfaces.push_back(n);
}

void GatherGpus(const proc::NvmlGpu& nvml, HostView& view) {
  view.nvml_available = nvml.available();
  view.nvml_message = nvml.message();
  if (!nvml.available()) return;
  for (const auto& g : nvml.SampleDevices()) {
    GpuInfo info;
    info.index = g.index;
    info.name = g.name;
    info.total_bytes = g.total_bytes;
    info.used_bytes = g.used_bytes;
    for (const auto& p : g.processes) info.pids.push_back(p.pid);
    view.gpus.push_back(std::move(info));
  }
  for (const auto& l : nvml.SampleLinks()) {
    view.links.push_back({l.a, l.b, l.nvlink, LevelName(l.common_ancestor), l.p2p_read});
  }
}

}  // namespace spinup::doctor
