#include "logs/gpu_oom_figures.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

TEST(GpuOomFigures, NewWordingGivesWhatOthersHold) {
  // A day-old notebook kernel holds 180 GiB of the MI300X: PyTorch here has only 10.9 GiB.
  const auto f = ParseGpuOomFigures(
      "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total "
      "capacity of 191.98 GiB of which 1.12 GiB is free. Of the allocated memory 10.88 GiB is "
      "allocated by PyTorch, and 7.19 MiB is reserved by PyTorch but unallocated.");
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->total_bytes / kGiB, 191.98, 0.01);
  EXPECT_FALSE(f->this_process_bytes.has_value());
  EXPECT_NEAR(f->HeldElsewhereBytes() / kGiB, 191.98 - 1.12 - 10.88 - 0.007, 0.01);
}

TEST(GpuOomFigures, ThisProcessFigureIsUsedWhenGiven) {
  const auto f = ParseGpuOomFigures(
      "CUDA out of memory. Tried to allocate 1.16 GiB. GPU 0 has a total capacity of 79.15 GiB of "
      "which 738.94 MiB is free. Including non-PyTorch memory, this process has 78.40 GiB memory "
      "in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and 1.20 GiB is "
      "reserved by PyTorch but unallocated.");
  ASSERT_TRUE(f.has_value());
  ASSERT_TRUE(f->this_process_bytes.has_value());
  EXPECT_LT(f->HeldElsewhereBytes() / kGiB, 0.1);  // it is all this process's own
}

TEST(GpuOomFigures, OldWording) {
  const auto f = ParseGpuOomFigures(
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total "
      "capacity; 22.88 GiB already allocated; 5.06 MiB free; 23.20 GiB reserved in total by "
      "PyTorch)");
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->HeldElsewhereBytes() / kGiB, 23.65 - 23.20, 0.01);
}

TEST(GpuOomFigures, OtherLinesAndNonsenseGiveNothing) {
  EXPECT_FALSE(ParseGpuOomFigures("CUDA out of memory. Tried to allocate 2.00 GiB").has_value());
  EXPECT_FALSE(ParseGpuOomFigures("torch.OutOfMemoryError: CUDA error: out of memory").has_value());
  // More free than the device has is no reading.
  EXPECT_FALSE(ParseGpuOomFigures(
                   "out of memory. GPU 0 has a total capacity of 1.00 GiB of which 9.00 GiB is "
                   "free. Of the allocated memory 1 bytes is allocated by PyTorch, and 1 bytes is "
                   "reserved")
                   .has_value());
  EXPECT_FALSE(ParseGpuOomFigures(std::string(10000, 'x') + "out of memory").has_value());
}

}  // namespace
}  // namespace spinup
