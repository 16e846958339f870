// Everything doctor knows about the host, gathered once: GPUs (NVML or --gpu-mem), processes
// holding GPUs or the port, the platform facts behind P2P hangs, limits, caches, and the
// checkpoint. The checks are pure functions over this struct, so tests build one by hand or
// gather it from fixture roots. Gathering only reads; it never changes anything.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/model_shape.h"
#include "doctor/server_command.h"
#include "spinup/checkpoint.h"

namespace spinup::proc {
class NvmlGpu;
}

namespace spinup::doctor {

struct GpuInfo {
  int index = 0;
  std::string name;
  uint64_t total_bytes = 0;
  uint64_t used_bytes = 0;
  std::vector<int> pids;  // compute processes NVML lists on it
};

// How two GPUs reach each other (NVML): over NVLink, or through PCIe at some topology level.
struct GpuLink {
  int a = 0, b = 0;
  bool nvlink = false;
  std::string level;             // "PIX", "PXB", "PHB", "NODE", "SYS", "" when unknown
  std::optional<bool> p2p_read;  // NVML's P2P read capability; nullopt when not reported
};

struct ProcessRef {
  int pid = 0;
  int ppid = 0;
  std::string comm;
  std::string cmdline;
  std::string what;  // "/dev/nvidia0", "port 30000", "GPU 0 (16.0 GiB)"
};

struct CacheDir {
  std::string name;  // the variable that sets it, e.g. TRITON_CACHE_DIR
  std::string path;
  bool exists = false;
  bool writable = false;  // the folder, or the nearest existing parent
  std::optional<uint64_t> free_bytes;
};

struct HostView {
  ServerCommand command;

  // GPUs
  bool nvml_available = false;
  std::string nvml_message;
  std::vector<GpuInfo> gpus;
  std::vector<GpuLink> links;
  std::optional<uint64_t> gpu_mem_flag;  // --gpu-mem: per-GPU memory when NVML is absent
  std::vector<ProcessRef> gpu_holders;   // processes with GPU memory or /dev/nvidia* open
  std::vector<ProcessRef> port_owners;   // processes listening on the server's port
  bool port_listening = false;           // some socket listens on it (owner maybe unknown)

  // Platform (P2P risk)
  std::string iommu_mode;                         // "translated", "passthrough", "off", "" unknown
  std::vector<std::string> acs_redirect_bridges;  // PCI bridges with ACS redirection on
  bool hypervisor = false;                        // cpuinfo "hypervisor" flag
  std::string confidential_vm;                    // "SEV-SNP", "TDX", ""

  // Host limits and resources
  std::optional<uint64_t> shm_bytes;
  // Open files: the engines raise their soft limit up to the hard one, so the hard limit counts.
  std::optional<uint64_t> nofile_hard;    // UINT64_MAX: unlimited
  std::optional<uint64_t> memlock_soft;   // nullopt: unknown; UINT64_MAX: unlimited
  std::optional<uint64_t> mem_available;  // /proc/meminfo MemAvailable
  std::vector<std::string> net_interfaces;
  std::vector<CacheDir> caches;

  // Checkpoint
  std::optional<Checkpoint> checkpoint;
  std::string checkpoint_error;  // why it could not be loaded
  std::string checkpoint_fix;
  bool checkpoint_download = false;  // a Hub id not in the cache: the engine will download it
  std::optional<ModelShape> shape;
  std::optional<double> read_bytes_per_s;
  std::string read_source;  // "measured", "flag", "default"
  std::optional<double> resident_fraction;
};

// Where gathering looks; tests point every root at a fixture tree.
struct HostRoots {
  std::filesystem::path proc = "/proc";
  std::filesystem::path sys = "/sys";
  std::filesystem::path dev = "/dev";
  std::string self = "self";  // /proc/<self>/limits, /proc/<self>/mounts
  int own_pid = 0;            // left out of the holder scan (NVML opens /dev/nvidia* here too)
  size_t max_processes = 4096;
  size_t max_fds_per_process = 4096;
};

struct GatherOptions {
  HostRoots roots;
  const proc::NvmlGpu* nvml = nullptr;  // nullptr: no GPU queries
  std::optional<uint64_t> gpu_mem;
  std::optional<double> read_bytes_per_s;  // --read-bw or measured by the caller
  std::string read_source;
  bool residency = true;  // mincore over the shards (cheap: no data is read)
  // HF cache root for a model id (HF_HUB_CACHE, or HF_HOME/hub, or ~/.cache/huggingface/hub),
  // resolved by the CLI from the server's environment.
  std::filesystem::path hf_cache;
};

HostView GatherHostView(const ServerCommand& command, const GatherOptions& options);

// Pieces of gathering, exposed for tests.
void GatherProcesses(const HostRoots& roots, int port, HostView& view);
void GatherPlatform(const HostRoots& roots, HostView& view);
void GatherLimits(const HostRoots& roots, HostView& view);
void GatherGpus(const proc::NvmlGpu& nvml, HostView& view);
void GatherCaches(const std::map<std::string, std::string>& env, HostView& view);
// Resolves the model argument (folder, or org/name in the HF cache) and loads its headers.
void GatherCheckpoint(const std::string& model, const std::filesystem::path& hf_cache,
                      bool hf_offline, HostView& view);

// Pure parsers used by gathering.
std::optional<uint64_t> ShmSizeFromMounts(std::string_view mounts);  // "size=65536k" on /dev/shm
struct Limits {
  std::optional<uint64_t> nofile_soft, nofile_hard, memlock_soft;  // UINT64_MAX = unlimited
};
Limits ParseLimits(std::string_view text);  // /proc/PID/limits
// The ACS control register of a PCI config space dump, when it has the ACS extended capability;
// true when any redirect/validation bit (SV, RR, CR, UF, EC) is on.
std::optional<bool> AcsRedirectEnabled(std::string_view config_space);

}  // namespace spinup::doctor
