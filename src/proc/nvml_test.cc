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

namespace spinup::proc {
namespace {

TEST(NvmlGpu, FakeLibraryReportsDevicesAndProcesses) {
  NvmlGpu gpu(SPINUP_FAKE_NVML);
  ASSERT_TRUE(gpu.available()) << gpu.message();
  Sample s;
  gpu.SampleInto(s);
  EXPECT_TRUE(s.gpu_available);
  EXPECT_EQ(s.gpu_message, "");
  ASSERT_EQ(s.gpus.size(), 2u);
  const GpuSample& g0 = s.gpus[0];
  EXPECT_EQ(g0.index, 0);
  EXPECT_EQ(g0.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g0.total_bytes, 80ull << 30);
  EXPECT_EQ(g0.used_bytes, 17ull << 30);
  EXPECT_EQ(g0.utilization_percent, 97);
  ASSERT_EQ(g0.processes.size(), 2u);
  EXPECT_EQ(g0.processes[0].pid, 4242);
  EXPECT_EQ(g0.processes[0].used_bytes, 16ull << 30);
  EXPECT_EQ(g0.processes[1].pid, 4243);
  EXPECT_EQ(g0.processes[1].used_bytes, 0u);  // "not available" is not 16 EiB
  const GpuSample& g1 = s.gpus[1];
  EXPECT_EQ(g1.index, 1);
  EXPECT_EQ(g1.used_bytes, 1ull << 30);
  EXPECT_EQ(g1.utilization_percent, 0);
  EXPECT_TRUE(g1.processes.empty());  // the process query is not supported there
}

}  // namespace
}  // namespace spinup::proc
