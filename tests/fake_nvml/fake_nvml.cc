// A fake libnvidia-ml for tests: the NVML entry points spinup uses, with fixed answers, so the
// "NVML present" path of src/proc/nvml.cc runs on hosts without a GPU. Two devices: device 0 has
// two compute processes; device 1 does not support the process query.
//
// Knobs read at call time, for the doctor tests (unset: the defaults above):
//   SPINUP_FAKE_NVML_GPUS=N    N devices (1..16)
//   SPINUP_FAKE_NVML_NVLINK=1  every pair joined by NVLink (else PCIe through the host bridge)
//   SPINUP_FAKE_NVML_IDLE=1    no compute processes, 512 MiB used on every device
#include <cstdlib>
#include <cstring>

extern "C" {

struct FakeMemory {
  unsigned long long total, free, used;
};
struct FakeUtil {
  unsigned int gpu, memory;
};
struct FakeProcess {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};

static int g_devices[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static unsigned int DeviceCount() {
  const char* v = std::getenv("SPINUP_FAKE_NVML_GPUS");
  if (v == nullptr) return 2;
  int n = std::atoi(v);
  return n < 1 ? 1 : (n > 16 ? 16 : static_cast<unsigned int>(n));
}
static bool Knob(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] == '1';
}

__attribute__((visibility("default"))) int nvmlInit_v2() { return 0; }
__attribute__((visibility("default"))) int nvmlShutdown() { return 0; }
__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned int* n) {
  *n = DeviceCount();
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned int i,
                                                                         void** dev) {
  if (i >= DeviceCount()) return 2;  // NVML_ERROR_INVALID_ARGUMENT
  *dev = &g_devices[i];
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(void* dev, FakeMemory* m) {
  int i = *static_cast<int*>(dev);
  m->total = 80ULL << 30;
  m->used = Knob("SPINUP_FAKE_NVML_IDLE") ? 512ULL << 20 : (i == 0 ? 17ULL << 30 : 1ULL << 30);
  m->free = m->total - m->used;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetName(void* dev, char* name,
                                                             unsigned int len) {
  const char* n = *static_cast<int*>(dev) == 0 ? "NVIDIA H100 80GB HBM3" : "NVIDIA H100 (1)";
  if (len <= std::strlen(n)) return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  std::strcpy(name, n);
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetUtilizationRates(void* dev, FakeUtil* u) {
  u->gpu = *static_cast<int*>(dev) == 0 ? 97 : 0;
  u->memory = 10;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetComputeRunningProcesses_v3(
    void* dev, unsigned int* count, FakeProcess* infos) {
  if (Knob("SPINUP_FAKE_NVML_IDLE")) {
    *count = 0;
    return 0;
  }
  if (*static_cast<int*>(dev) != 0) return 3;  // NVML_ERROR_NOT_SUPPORTED
  if (*count < 2) {
    *count = 2;
    return 7;
  }
  infos[0] = {4242, 16ULL << 30, 0, 0};
  infos[1] = {4243, ~0ULL, 0, 0};  // NVML_VALUE_NOT_AVAILABLE
  *count = 2;
  return 0;
}

// Topology: NVLink between every pair with SPINUP_FAKE_NVML_NVLINK=1, else PCIe through the
// host bridge (NVML_TOPOLOGY_HOSTBRIDGE = 30) with P2P reads reported as not supported (5).
__attribute__((visibility("default"))) int nvmlDeviceGetTopologyCommonAncestor(void*, void*,
                                                                               int* level) {
  *level = Knob("SPINUP_FAKE_NVML_NVLINK") ? 10 : 30;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetP2PStatus(void*, void*, int caps,
                                                                  int* status) {
  bool nvlink = Knob("SPINUP_FAKE_NVML_NVLINK");
  if (caps == 2)
    *status = nvlink ? 0 : 5;  // NVML_P2P_CAPS_INDEX_NVLINK
  else if (caps == 0)
    *status = nvlink ? 0 : 5;  // NVML_P2P_CAPS_INDEX_READ
  else
    *status = 5;
  return 0;
}

}  // extern "C"
