#include "live/shard_residency.h"

#include "spinup/checkpoint_files.h"
#include "spinup/page_cache.h"

namespace spinup {

ShardResidency::Totals ShardResidency::Measure() {
  if (files_.empty()) {
    auto listed = ListCheckpointFiles(model_dir_);
    if (listed.ok()) {
      for (const auto& f : *listed) files_.push_back(f.path);
    }
  }
  Totals t;
  for (const auto& f : files_) {
    auto it = last_.find(f);
    if (it != last_.end() && it->second.first > 0 && it->second.second >= it->second.first) {
      t.total_bytes += it->second.first;  // fully resident already: not measured again
      t.resident_bytes += it->second.second;
      ++t.files;
      continue;
    }
    auto r = MeasureFileResidency(f);
    if (!r.ok()) continue;  // a shard being replaced or unreadable: skip it this time
    last_[f] = {r->size, r->resident_bytes};
    t.total_bytes += r->size;
    t.resident_bytes += r->resident_bytes;
    ++t.files;
  }
  return t;
}

}  // namespace spinup
