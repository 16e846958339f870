// A fake libnvidia-ml for tests: the NVML entry points spinup uses, with fixed answers, so the
// "NVML present" path of src/proc/nvml.cc runs on hosts without a GPU. Two devices: device 0 has
// two compute processes; device 1 does not support the process query.
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

static int g_devices[2] = {0, 1};

__attribute__((visibility("default"))) int nvmlInit_v2() { return 0; }
__attribute__((visibility("default"))) int nvmlShutdown() { return 0; }
__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned int* n) {
  *n = 2;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned int i,
                                                                         void** dev) {
  if (i >= 2) return 2;  // NVML_ERROR_INVALID_ARGUMENT
  *dev = &g_devices[i];
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(void* dev, FakeMemory* m) {
  int i = *static_cast<int*>(dev);
  m->total = 80ULL << 30;
  m->used = i == 0 ? 17ULL << 30 : 1ULL << 30;
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

}  // extern "C"
