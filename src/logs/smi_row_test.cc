#include "logs/smi_row.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(SmiDeviceRow, MemoryAndUtilizationColumns) {
  auto row = ParseSmiDeviceRow(
      "| N/A   33C    P0             62W /  400W |   41230MiB /  81920MiB |      0%      "
      "Default |");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->used_mib, 41230u);
  EXPECT_EQ(row->total_mib, 81920u);
  EXPECT_EQ(row->utilization_percent, 0);
  row = ParseSmiDeviceRow(
      "|  0%   41C    P0   201W /  300W |   22190MiB /  23028MiB |    100%      "
      "Default |");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->utilization_percent, 100);
}

TEST(SmiDeviceRow, OtherLinesHaveNoRow) {
  EXPECT_FALSE(ParseSmiDeviceRow("Loading weights took 30.71 GiB"));
  EXPECT_FALSE(ParseSmiDeviceRow("| 41230MiB / |"));
  EXPECT_FALSE(ParseSmiDeviceRow("| 41230MiB / 81920MiB |  N/A  Default |"));
  EXPECT_FALSE(ParseSmiDeviceRow("MiB /"));
  EXPECT_FALSE(ParseSmiDeviceRow("| 99999999999999999999999MiB / 1MiB | 0% |"));
  EXPECT_FALSE(ParseSmiDeviceRow("| 1MiB / 2MiB | -5% |"));
}

}  // namespace
}  // namespace spinup
