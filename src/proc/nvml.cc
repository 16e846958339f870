#include "proc/nvml.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>

namespace spinup::proc {
namespace {

// The few NVML declarations we need, written out here (from the public NVML API reference) so no
// CUDA header is required. ABI: every function returns nvmlReturn_t (an int enum, 0 = success).
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr nvmlReturn_t kNvmlErrorInsufficientSize = 7;
constexpr unsigned long long kNvmlValueNotAvailable = ~0ULL;

struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
// nvmlProcessInfo_t as taken by nvmlDeviceGetComputeRunningProcesses_v3 (and _v2): pid,
// usedGpuMemory, gpuInstanceId, computeInstanceId (24 bytes with padding).
struct nvmlProcessInfo_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
static_assert(sizeof(nvmlProcessInfo_t) == 24);

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using GetCountFn = nvmlReturn_t (*)(unsigned int*);
using GetHandleFn = nvmlReturn_t (*)(unsigned int, nvmlDevice_t*);
using GetMemoryFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*);
using GetNameFn = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned int);
using GetUtilFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t*);
using GetProcsFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*);
// nvmlDeviceGetTopologyCommonAncestor(dev1, dev2, nvmlGpuTopologyLevel_t*) and
// nvmlDeviceGetP2PStatus(dev1, dev2, nvmlGpuP2PCapsIndex_t, nvmlGpuP2PStatus_t*); enums are ints.
using GetAncestorFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlDevice_t, int*);
using GetP2PFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlDevice_t, int, int*);
constexpr int kP2PCapsRead = 0;    // NVML_P2P_CAPS_INDEX_READ
constexpr int kP2PCapsNvlink = 2;  // NVML_P2P_CAPS_INDEX_NVLINK
constexpr int kP2PStatusOk = 0;    // NVML_P2P_STATUS_OK

constexpr unsigned int kMaxDevices = 64;
constexpr unsigned int kMaxProcesses = 256;

}  // namespace

struct NvmlGpu::Api {
  void* handle = nullptr;
  bool initialized = false;
  InitFn init = nullptr;
  ShutdownFn shutdown = nullptr;
  GetCountFn get_count = nullptr;
  GetHandleFn get_handle = nullptr;
  GetMemoryFn get_memory = nullptr;
  GetNameFn get_name = nullptr;
  GetUtilFn get_util = nullptr;
  GetProcsFn get_procs = nullptr;
  GetAncestorFn get_ancestor = nullptr;
  GetP2PFn get_p2p = nullptr;
};

NvmlGpu::NvmlGpu(std::string library) : api_(std::make_unique<Api>()) {
  api_->handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (api_->handle == nullptr) {
    message_ = "GPU: no NVML (" + library + " not found)";
    return;
  }
  auto sym = [&](const char* name) { return ::dlsym(api_->handle, name); };
  api_->init = reinterpret_cast<InitFn>(sym("nvmlInit_v2"));
  api_->shutdown = reinterpret_cast<ShutdownFn>(sym("nvmlShutdown"));
  api_->get_count = reinterpret_cast<GetCountFn>(sym("nvmlDeviceGetCount_v2"));
  api_->get_handle = reinterpret_cast<GetHandleFn>(sym("nvmlDeviceGetHandleByIndex_v2"));
  api_->get_memory = reinterpret_cast<GetMemoryFn>(sym("nvmlDeviceGetMemoryInfo"));
  api_->get_name = reinterpret_cast<GetNameFn>(sym("nvmlDeviceGetName"));
  api_->get_util = reinterpret_cast<GetUtilFn>(sym("nvmlDeviceGetUtilizationRates"));
  api_->get_procs = reinterpret_cast<GetProcsFn>(sym("nvmlDeviceGetComputeRunningProcesses_v3"));
  api_->get_ancestor = reinterpret_cast<GetAncestorFn>(sym("nvmlDeviceGetTopologyCommonAncestor"));
  api_->get_p2p = reinterpret_cast<GetP2PFn>(sym("nvmlDeviceGetP2PStatus"));
  if (api_->get_procs == nullptr) {
    // Drivers before the _v3 symbol export _v2 with the same struct layout.
    api_->get_procs = reinterpret_cast<GetProcsFn>(sym("nvmlDeviceGetComputeRunningProcesses_v2"));
  }
  if (api_->init == nullptr || api_->get_count == nullptr || api_->get_handle == nullptr ||
      api_->get_memory == nullptr) {
    message_ = "GPU: no NVML (" + library + " lacks nvmlInit_v2/nvmlDeviceGetCount_v2)";
    return;
  }
  nvmlReturn_t rc = api_->init();
  if (rc != kNvmlSuccess) {
    message_ =
        "GPU: NVML init failed (error " + std::to_string(rc) + "; is the NVIDIA driver loaded?)";
    return;
  }
  api_->initialized = true;
}

NvmlGpu::~NvmlGpu() {
  if (api_->initialized && api_->shutdown != nullptr) api_->shutdown();
  if (api_->handle != nullptr) ::dlclose(api_->handle);
}

bool NvmlGpu::available() const { return api_->initialized; }

std::vector<GpuSample> NvmlGpu::SampleDevices() const {
  std::vector<GpuSample> out;
  if (!api_->initialized) return out;
  unsigned int count = 0;
  if (api_->get_count(&count) != kNvmlSuccess) return out;
  count = std::min(count, kMaxDevices);
  for (unsigned int i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (api_->get_handle(i, &dev) != kNvmlSuccess) continue;
    GpuSample g;
    g.index = static_cast<int>(i);
    nvmlMemory_t mem{};
    if (api_->get_memory(dev, &mem) != kNvmlSuccess) continue;
    g.used_bytes = mem.used;
    g.total_bytes = mem.total;
    if (api_->get_name != nullptr) {
      char name[96] = {};
      if (api_->get_name(dev, name, sizeof(name) - 1) == kNvmlSuccess) {
        g.name.assign(name, ::strnlen(name, sizeof(name)));
      }
    }
    if (api_->get_util != nullptr) {
      nvmlUtilization_t util{};
      if (api_->get_util(dev, &util) == kNvmlSuccess && util.gpu <= 100) {
        g.utilization_percent = static_cast<int>(util.gpu);
      }
    }
    if (api_->get_procs != nullptr) {
      std::vector<nvmlProcessInfo_t> infos(kMaxProcesses);
      unsigned int n = kMaxProcesses;
      nvmlReturn_t rc = api_->get_procs(dev, &n, infos.data());
      // INSUFFICIENT_SIZE: more than kMaxProcesses; the first kMaxProcesses are not returned
      // then, so the per-process list is simply left empty (device totals still count).
      if (rc == kNvmlSuccess) {
        n = std::min(n, kMaxProcesses);
        for (unsigned int k = 0; k < n; ++k) {
          GpuSample::ProcessUse use;
          use.pid = static_cast<int>(infos[k].pid);
          use.used_bytes =
              infos[k].usedGpuMemory == kNvmlValueNotAvailable ? 0 : infos[k].usedGpuMemory;
          g.processes.push_back(use);
        }
      } else if (rc != kNvmlErrorInsufficientSize) {
        // Not supported on this device/driver: leave the list empty.
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<NvmlGpu::PairLink> NvmlGpu::SampleLinks() const {
  std::vector<PairLink> out;
  if (!api_->initialized || api_->get_p2p == nullptr) return out;
  unsigned int count = 0;
  if (api_->get_count(&count) != kNvmlSuccess) return out;
  count = std::min(count, kMaxDevices);
  std::vector<nvmlDevice_t> devs(count, nullptr);
  for (unsigned int i = 0; i < count; ++i) {
    if (api_->get_handle(i, &devs[i]) != kNvmlSuccess) devs[i] = nullptr;
  }
  for (unsigned int i = 0; i < count; ++i) {
    for (unsigned int j = i + 1; j < count; ++j) {
      if (devs[i] == nullptr || devs[j] == nullptr) continue;
      PairLink link;
      link.a = static_cast<int>(i);
      link.b = static_cast<int>(j);
      int status = -1;
      if (api_->get_p2p(devs[i], devs[j], kP2PCapsNvlink, &status) == kNvmlSuccess) {
        link.nvlink = status == kP2PStatusOk;
      }
      if (api_->get_p2p(devs[i], devs[j], kP2PCapsRead, &status) == kNvmlSuccess) {
        link.p2p_read = status == kP2PStatusOk;
      }
      int level = -1;
      if (api_->get_ancestor != nullptr &&
          api_->get_ancestor(devs[i], devs[j], &level) == kNvmlSuccess) {
        link.common_ancestor = level;
      }
      out.push_back(link);
    }
  }
  return out;
}

void NvmlGpu::SampleInto(Sample& sample) const {
  sample.gpus.clear();
  if (!api_->initialized) {
    sample.gpu_available = false;
    sample.gpu_message = message_;
    return;
  }
  sample.gpus = SampleDevices();
  sample.gpu_available = true;
  sample.gpu_message = sample.gpus.empty() ? "GPU: NVML loaded, no device answered" : "";
}

}  // namespace spinup::proc
