// Page-cache residency of a checkpoint's shards (mincore over windowed read-only mappings): how
// much of the model is in memory, which measures loading progress even for mmap loaders that
// never move a file offset. Files already fully resident are not measured again.
// NOTE for de-duplication: branch `reader` has the general helper (include/spinup/page_cache.h,
// MeasureFileResidency); this one adds the shard listing and the per-watch caching.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace spinup {

// Weight files of a model directory (top level and one level down): *.safetensors, *.bin, *.pt,
// *.pth, *.gguf, sorted. Never follows more than `max_files` entries.
std::vector<std::string> ListShardFiles(const std::string& model_dir, size_t max_files = 10000);

// Resident bytes of one file (pages in the page cache, the last clipped to the size), or -1 when
// it cannot be opened or mapped. Opened O_RDONLY and mapped PROT_READ/MAP_SHARED: never written.
int64_t ResidentBytes(const std::string& path, uint64_t* size_out = nullptr);

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
