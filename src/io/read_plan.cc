#include "spinup/read_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "spinup/checkpoint.h"
#include "spinup/checkpoint_files.h"

namespace spinup {

uint64_t ReadPlan::TotalBytes() const {
  uint64_t total = 0;
  for (const auto& r : ranges) total += r.length;
  return total;
}

uint64_t ReadPlan::DestBytes() const {
  uint64_t end = 0;
  for (const auto& r : ranges) {
    if (r.dest == nullptr) end = std::max(end, r.dest_offset + r.length);
  }
  return end;
}

Result<ReadPlan> PlanWholeFiles(const std::vector<std::string>& paths) {
  ReadPlan plan;
  uint64_t dest = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    auto f = StatRegularFile(paths[i]);
    if (!f.ok()) return f.status();
    plan.files.push_back({paths[i], f->size});
    ReadRange r;
    r.file = static_cast<uint32_t>(i);
    r.offset = 0;
    r.length = f->size;
    r.dest_offset = dest;
    r.tag = i;
    plan.ranges.push_back(r);
    dest += f->size;
  }
  return plan;
}

Result<ReadPlan> PlanFromRanges(const std::vector<FileRange>& ranges) {
  ReadPlan plan;
  std::unordered_map<std::string, uint32_t> index;
  uint64_t dest = 0;
  for (const auto& fr : ranges) {
    auto it = index.find(fr.path);
    if (it == index.end()) {
      auto f = StatRegularFile(fr.path);
      if (!f.ok()) return f.status();
      it = index.emplace(fr.path, static_cast<uint32_t>(plan.files.size())).first;
      plan.files.push_back({fr.path, f->size});
    }
    const PlanFile& file = plan.files[it->second];
    if (fr.offset > file.size || fr.length > file.size - fr.offset) {
      return Status::InvalidArgument(
          fmt::format("{}: range at offset {} of {} bytes ends past the end of the file ({} bytes)",
                      fr.path, fr.offset, fr.length, file.size));
    }
    ReadRange r;
    r.file = it->second;
    r.offset = fr.offset;
    r.length = fr.length;
    r.dest_offset = dest;
    r.tag = fr.tag;
    plan.ranges.push_back(r);
    dest += fr.length;
  }
  return plan;
}

Result<ReadPlan> PlanFromCheckpoint(const Checkpoint& checkpoint) {
  ReadPlan plan;
  uint64_t dest = 0, tag = 0;
  for (const ShardInfo& shard : checkpoint.shards) {
    const std::string path = shard.path.string();
    if (!shard.present) return Status::NotFound(fmt::format("{}: shard is missing", path));
    if (!shard.parsed) {
      return Status::Corrupt(
          fmt::format("{}: header could not be parsed (see spinup verify)", path));
    }
    const auto file = static_cast<uint32_t>(plan.files.size());
    plan.files.push_back({path, shard.file_size});
    std::vector<const TensorInfo*> tensors;
    for (const auto& t : shard.tensors) tensors.push_back(&t);
    std::stable_sort(tensors.begin(), tensors.end(), [](const TensorInfo* a, const TensorInfo* b) {
      return a->file_begin < b->file_begin;
    });
    for (const TensorInfo* t : tensors) {
      if (t->file_end < t->file_begin || t->file_end > shard.file_size) {
        return Status::Corrupt(fmt::format("{}: tensor {} lies outside the file", path, t->name));
      }
      ReadRange r;
      r.file = file;
      r.offset = t->file_begin;
      r.length = t->file_end - t->file_begin;
      r.dest_offset = dest;
      r.tag = tag++;
      plan.ranges.push_back(r);
      dest += r.length;
    }
  }
  return plan;
}

ReadPlan ChunkPlan(const ReadPlan& plan, uint64_t block_bytes) {
  if (block_bytes == 0) block_bytes = 1;
  ReadPlan out;
  out.files = plan.files;
  for (const auto& r : plan.ranges) {
    if (r.length == 0) {
      out.ranges.push_back(r);
      continue;
    }
    for (uint64_t done = 0; done < r.length; done += block_bytes) {
      ReadRange piece = r;
      piece.offset = r.offset + done;
      piece.length = std::min(block_bytes, r.length - done);
      if (r.dest != nullptr) piece.dest = r.dest + done;
      piece.dest_offset = r.dest_offset + done;
      out.ranges.push_back(piece);
    }
  }
  return out;
}

std::vector<std::vector<size_t>> BalanceByBytes(const ReadPlan& plan, int workers) {
  workers = std::max(workers, 1);
  std::vector<std::vector<size_t>> groups(static_cast<size_t>(workers));
  std::vector<size_t> order(plan.ranges.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return plan.ranges[a].length > plan.ranges[b].length;
  });
  std::vector<uint64_t> load(groups.size(), 0);
  for (size_t idx : order) {
    size_t g = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    groups[g].push_back(idx);
    load[g] += plan.ranges[idx].length;
  }
  for (auto& g : groups) {
    std::sort(g.begin(), g.end(), [&](size_t a, size_t b) {
      const auto& ra = plan.ranges[a];
      const auto& rb = plan.ranges[b];
      return ra.file != rb.file ? ra.file < rb.file : ra.offset < rb.offset;
    });
  }
  return groups;
}

}  // namespace spinup
