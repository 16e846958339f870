// One device row of nvidia-smi's table, as users paste it below a log ("| N/A 33C P0 62W / 400W |
// 41230MiB /  81920MiB |      0%      Default |"): the memory it shows in use and how busy the
// device was when it was read.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace spinup {

struct SmiDeviceRow {
  uint64_t used_mib = 0;
  uint64_t total_mib = 0;
  int utilization_percent = 0;
};

// The row's "USED MiB / TOTAL MiB | UTIL%" columns; nullopt where the line has no such columns.
std::optional<SmiDeviceRow> ParseSmiDeviceRow(std::string_view line);

}  // namespace spinup
