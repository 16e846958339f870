// Page-cache residency of a checkpoint's shards over a watch: how much of the model is in memory,
// which measures loading progress even for mmap loaders that never move a file offset. Built on
// the io layer (ListCheckpointFiles, MeasureFileResidency); adds per-watch caching: files already
// fully resident are not measured again, so a 200 GB checkpoint costs little per interval.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace spinup {

class ShardResidency {
 public:
  explicit ShardResidency(std::string model_dir) : model_dir_(std::move(model_dir)) {}
  struct Totals {
    uint64_t total_bytes = 0;
    uint64_t resident_bytes = 0;
    size_t files = 0;
  };
  // Lists the shards on first use (and again while none were found), then measures those not yet
  // fully resident.
  Totals Measure();

 private:
  std::string model_dir_;
  std::vector<std::string> files_;
  std::map<std::string, std::pair<uint64_t, uint64_t>> last_;  // path -> (size, resident)
};

}  // namespace spinup
