// The baseline loader servers use today, for bench/read-throughput: one thread maps each
// safetensors shard and copies each tensor out (into a reused buffer the size of the largest
// tensor, so destination page faults do not count against it). Prints one JSON line.
//   spinup_mmap_loader MODEL_DIR_OR_FILE
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "spinup/checkpoint.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: spinup_mmap_loader MODEL_DIR_OR_FILE\n");
    return 2;
  }
  auto ck = spinup::LoadCheckpoint(argv[1]);
  if (!ck.ok()) {
    std::fprintf(stderr, "spinup_mmap_loader: %s\n", ck.status().message().c_str());
    return 2;
  }
  uint64_t largest = 0;
  for (const auto& s : ck->shards) {
    for (const auto& t : s.tensors) largest = std::max(largest, t.file_end - t.file_begin);
  }
  std::vector<char> dest(largest);
  uint64_t bytes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& s : ck->shards) {
    if (!s.parsed || s.file_size == 0) continue;
    int fd = ::open(s.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::perror(s.path.c_str());
      return 1;
    }
    void* map = ::mmap(nullptr, s.file_size, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) {
      std::perror("mmap");
      return 1;
    }
    for (const auto& t : s.tensors) {
      if (t.file_end > s.file_size || t.file_end < t.file_begin) continue;
      std::memcpy(dest.data(), static_cast<const char*>(map) + t.file_begin,
                  t.file_end - t.file_begin);
      bytes += t.file_end - t.file_begin;
    }
    ::munmap(map, s.file_size);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s\n", fmt::format(R"({{"bytes":{},"seconds":{},"bytes_per_s":{}}})", bytes, seconds,
                                  seconds > 0 ? double(bytes) / seconds : 0.0)
                          .c_str());
  return 0;
}
