// GPU memory and utilisation through NVML, loaded at run time with dlopen so spinup has no link
// or header dependency on the NVIDIA driver. Without the library (a CPU host, a container without
// the driver mounted) every call degrades to "not available" with a one-line reason; the rest of
// spinup works unchanged. See docs/signals.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spinup/startup.h"

namespace spinup::proc {

class NvmlGpu {
 public:
  // `library` is what dlopen is asked for: the soname normally, a path in tests.
  explicit NvmlGpu(std::string library = "libnvidia-ml.so.1");
  ~NvmlGpu();
  NvmlGpu(const NvmlGpu&) = delete;
  NvmlGpu& operator=(const NvmlGpu&) = delete;

  // True when the library loaded and nvmlInit_v2 succeeded.
  bool available() const;
  // "" when available; otherwise e.g. "GPU: no NVML (libnvidia-ml.so.1 not found)".
  const std::string& message() const { return message_; }

  // Per device: name, memory used/total, utilisation, and per-process memory (compute
  // processes). Sets sample.gpu_available, sample.gpu_message and sample.gpus. A device whose
  // query fails is left out; if every query fails the sample says so in gpu_message.
  void SampleInto(Sample& sample) const;
  std::vector<GpuSample> SampleDevices() const;

  // How each pair of devices reaches the other (for `doctor`'s P2P check): NVLink or not, the
  // closest common PCIe ancestor (NVML topology level: 0 same board, 10 one switch, 20 several
  // switches, 30 host bridge, 40 same NUMA node, 50 across sockets; -1 unknown) and NVML's P2P
  // read capability. Empty without NVML or without the topology entry points.
  struct PairLink {
    int a = 0, b = 0;
    bool nvlink = false;
    int common_ancestor = -1;
    std::optional<bool> p2p_read;
  };
  std::vector<PairLink> SampleLinks() const;

 private:
  struct Api;
  std::unique_ptr<Api> api_;
  std::string message_;
};

}  // namespace spinup::proc
