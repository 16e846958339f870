#include "spinup/page_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <vector>

namespace spinup {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

uint64_t PageSize() {
  static const uint64_t size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

Result<int> OpenRegular(const std::string& path, uint64_t* size) {
  struct stat st {};
  // stat first: opening a FIFO would block, and a device is not a checkpoint.
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, path);
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(fmt::format("{}: not a regular file", path));
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::FromErrno(errno, path);
  struct stat fst {};
  if (::fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(fmt::format("{}: not a regular file", path));
  }
  *size = static_cast<uint64_t>(fst.st_size);
  return fd;
}

// cachestat(2) (Linux 6.5+) counts a file's cached pages in one call, much cheaper than mapping it
// and asking mincore page by page; the struct layouts are the kernel's (uapi/linux/mman.h), spelled
// out because older headers lack them. Returns the count, or -1 when the kernel lacks it.
constexpr long kSysCachestat = 451;  // the same number on every architecture (asm-generic)
struct CachestatRange {
  uint64_t off;
  uint64_t len;
};
struct Cachestat {
  uint64_t nr_cache;
  uint64_t nr_dirty;
  uint64_t nr_writeback;
  uint64_t nr_evicted;
  uint64_t nr_recently_evicted;
};

// len 0: to the end of the file.
int64_t CachedPages(int fd, uint64_t off = 0, uint64_t len = 0) {
  CachestatRange range{off, len};
  Cachestat cs{};
  if (::syscall(kSysCachestat, fd, &range, &cs, 0) != 0) return -1;
  return static_cast<int64_t>(cs.nr_cache);
}

// A file with a few holes (pages dropped here and there) is asked window by window with cachestat
// first, so mincore only walks the windows that have holes. mincore is asked about one window at a
// time: bounded address space and vector size (64 MiB = 16384 pages of flags).
constexpr uint64_t kProbeBytes = 64ull << 20;

// Calls visit(page_index, resident) for every page of the file, window by window.
Status ScanPages(const std::string& path, int fd, uint64_t size,
                 const std::function<void(uint64_t, bool)>& visit) {
  const uint64_t page = PageSize();
  std::vector<unsigned char> vec;
  for (uint64_t start = 0; start < size; start += kProbeBytes) {
    const uint64_t len = std::min(kProbeBytes, size - start);
    const uint64_t pages = (len + page - 1) / page;
    const int64_t cached = CachedPages(fd, start, len);
    if (cached == 0 || (cached > 0 && static_cast<uint64_t>(cached) >= pages)) {
      for (uint64_t p = 0; p < pages; ++p) visit(start / page + p, cached > 0);
      continue;
    }
    void* addr = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(start));
    if (addr == MAP_FAILED) return Status::FromErrno(errno, fmt::format("{}: mmap", path));
    vec.assign(pages, 0);
    int rc = ::mincore(addr, len, vec.data());
    int err = errno;
    ::munmap(addr, len);
    // ENOMEM here means the file shrank under the mapping: count the rest as not resident.
    if (rc != 0 && err != ENOMEM) return Status::FromErrno(err, fmt::format("{}: mincore", path));
    for (uint64_t p = 0; p < pages; ++p) visit(start / page + p, rc == 0 && (vec[p] & 1) != 0);
  }
  return Status::Ok();
}

}  // namespace

Result<FileResidency> MeasureFileResidency(const std::string& path) {
  uint64_t size = 0;
  auto fd = OpenRegular(path, &size);
  if (!fd.ok()) return fd.status();
  Fd guard(*fd);
  FileResidency out;
  out.path = path;
  out.size = size;
  const uint64_t page = PageSize();
  // All or nothing cached is exact from the count alone; anything between needs mincore to clip
  // the last page right.
  const int64_t cached = CachedPages(*fd);
  const uint64_t pages = (size + page - 1) / page;
  if (cached == 0 || (cached > 0 && static_cast<uint64_t>(cached) >= pages)) {
    out.resident_bytes = cached == 0 ? 0 : size;
    return out;
  }
  Status s = ScanPages(path, *fd, size, [&](uint64_t p, bool resident) {
    if (resident) out.resident_bytes += std::min(page, size - p * page);
  });
  if (!s.ok()) return s;
  return out;
}

Result<Residency> MeasureResidency(const std::vector<std::string>& paths) {
  Residency out;
  for (const auto& path : paths) {
    auto f = MeasureFileResidency(path);
    if (!f.ok()) return f.status();
    out.total_bytes += f->size;
    out.resident_bytes += f->resident_bytes;
    out.files.push_back(std::move(*f));
  }
  return out;
}

Result<std::vector<ByteRange>> NonResidentRanges(const std::string& path, uint64_t merge_gap) {
  uint64_t size = 0;
  auto fd = OpenRegular(path, &size);
  if (!fd.ok()) return fd.status();
  Fd guard(*fd);
  const uint64_t page = PageSize();
  std::vector<ByteRange> out;
  const int64_t cached = CachedPages(*fd);
  if (cached > 0 && static_cast<uint64_t>(cached) >= (size + page - 1) / page) return out;
  if (cached == 0) {
    if (size > 0) out.push_back({0, size});
    return out;
  }
  Status s = ScanPages(path, *fd, size, [&](uint64_t p, bool resident) {
    if (resident) return;
    const uint64_t off = p * page;
    const uint64_t len = std::min(page, size - off);
    if (!out.empty() && out.back().offset + out.back().length + merge_gap >= off) {
      out.back().length = off + len - out.back().offset;
    } else {
      out.push_back({off, len});
    }
  });
  if (!s.ok()) return s;
  return out;
}

Status EvictFile(const std::string& path) {
  uint64_t size = 0;
  auto fd = OpenRegular(path, &size);
  if (!fd.ok()) return fd.status();
  Fd guard(*fd);
  int rc = ::posix_fadvise(*fd, 0, 0, POSIX_FADV_DONTNEED);
  if (rc != 0) return Status::FromErrno(rc, fmt::format("{}: posix_fadvise(DONTNEED)", path));
  return Status::Ok();
}

Status EvictFiles(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    if (Status s = EvictFile(p); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace spinup
