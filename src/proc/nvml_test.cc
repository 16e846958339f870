#include "proc/nvml.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup::proc {
namespace {

TEST(NvmlGpu, AbsentLibraryDegradesWithMessage) {
  NvmlGpu gpu("libnvidia-ml-does-not-exist.so.1");
  EXPECT_FALSE(gpu.available());
  EXPECT_EQ(gpu.message(), "GPU: no NVML (libnvidia-ml-does-not-exist.so.1 not found)");
  Sample s;
  s.gpu_available = true;
  s.gpus.push_back(GpuSample{});
  gpu.SampleInto(s);
  EXPECT_FALSE(s.gpu_available);
  EXPECT_TRUE(s.gpus.empty());
  EXPECT_EQ(s.gpu_message, gpu.message());
  EXPECT_TRUE(gpu.SampleDevices().empty());
}

TEST(NvmlGpu, DefaultSonameMessage) {
  NvmlGpu gpu;
  if (gpu.available()) GTEST_SKIP() << "this host has NVML; the absent path is tested above";
  EXPECT_EQ(gpu.message(), "GPU: no NVML (libnvidia-ml.so.1 not found)");
}

TEST(NvmlGpu, LibraryWithoutNvmlSymbols) {
  // A real shared library that is not NVML: loads, but lacks the entry points.
  NvmlGpu gpu("libz.so.1");
  EXPECT_FALSE(gpu.available());
  EXPECT_NE(gpu.message().find("GPU: no NVML"), std::string::npos);
}

}  // namespace
}  // namespace spinup::proc
