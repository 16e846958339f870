#include "live/shard_residency.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace spinup {

namespace {

bool IsShardName(const std::string& name) {
  for (const char* ext : {".safetensors", ".bin", ".pt", ".pth", ".gguf"}) {
    std::string_view e(ext);
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> ListShardFiles(const std::string& model_dir, size_t max_files) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  size_t seen = 0;
  for (fs::recursive_directory_iterator it(model_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++seen > max_files) break;
    if (it.depth() >= 1) it.disable_recursion_pending();
    std::error_code fec;
    if (!it->is_regular_file(fec)) continue;
    if (IsShardName(it->path().filename().string())) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

int64_t ResidentBytes(const std::string& path, uint64_t* size_out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOATIME);
  if (fd < 0) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // O_NOATIME needs ownership
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return -1;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size_out != nullptr) *size_out = size;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  constexpr uint64_t kWindow = 1ull << 30;  // map 1 GiB at a time: a small mincore vector
  std::vector<unsigned char> vec;
  uint64_t resident = 0;
  for (uint64_t off = 0; off < size; off += kWindow) {
    uint64_t len = std::min(kWindow, size - off);
    void* m = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(off));
    if (m == MAP_FAILED) {
      ::close(fd);
      return -1;
    }
    uint64_t pages = (len + page - 1) / page;
    vec.assign(pages, 0);
    if (::mincore(m, len, vec.data()) == 0) {
      for (uint64_t i = 0; i < pages; ++i) {
        if (vec[i] & 1) resident += std::min(page, len - i * page);
      }
    }
    ::munmap(m, len);
  }
  ::close(fd);
  return static_cast<int64_t>(resident);
}

ShardResidency::Totals ShardResidency::Measure() {
  if (files_.empty()) files_ = ListShardFiles(model_dir_);
  Totals t;
  for (const auto& f : files_) {
    auto it = last_.find(f);
    if (it != last_.end() && it->second.first > 0 && it->second.second >= it->second.first) {
      t.total_bytes += it->second.first;  // fully resident already: not measured again
      t.resident_bytes += it->second.second;
      ++t.files;
      continue;
    }
    uint64_t size = 0;
    int64_t r = ResidentBytes(f, &size);
    if (r < 0) continue;
    last_[f] = {size, static_cast<uint64_t>(r)};
    t.total_bytes += size;
    t.resident_bytes += static_cast<uint64_t>(r);
    ++t.files;
  }
  return t;
}

}  // namespace spinup
