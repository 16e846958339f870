// populate: brings blocks into the page cache without copying them to user space. Each block's
// reads are queued (POSIX_FADV_WILLNEED), then it is mapped, faulted in by the kernel
// (MADV_POPULATE_READ, Linux >= 5.14) and unmapped again, so page tables stay bounded by
// threads x block whatever the checkpoint's size. Measured against buffered
// reads on the same disk it was the steadiest way to fill the cache (docs/reader.md): the copy that
// `cat` and io_uring sink reads pay costs CPU that a 2-core machine does not have to spare.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <vector>

#include "io/reader_internal.h"

namespace spinup::io {
namespace {

// From <linux/mman.h>; older C libraries do not define it.
#ifndef MADV_POPULATE_READ
constexpr int MADV_POPULATE_READ = 22;
#endif

// Reads of a block are queued ahead of the faults in steps of this size: the kernel caps one
// WILLNEED at max(io_pages, ra_pages) pages (io_pages is max_sectors_kb: often 512 KiB-4 MiB).
constexpr uint64_t kQueueStep = 1 << 20;

// Queues the reads of [off, off + len) without waiting for them. Faults alone read only
// read_ahead_kb around each miss; with the common 128 KiB that halved populate's speed here,
// while queueing the block first kept it at the storage's rate (docs/reader.md).
void QueueReads(int fd, uint64_t off, uint64_t len) {
  for (uint64_t o = off; o < off + len; o += kQueueStep) {
    // Advice only: an error here shows up as a real one in the populate that follows.
    (void)::posix_fadvise(fd, static_cast<off_t>(o),
                          static_cast<off_t>(std::min(kQueueStep, off + len - o)),
                          POSIX_FADV_WILLNEED);
  }
}

uint64_t PageSize() {
  static const uint64_t page = [] {
    long v = ::sysconf(_SC_PAGESIZE);
    return v > 0 ? static_cast<uint64_t>(v) : 4096;
  }();
  return page;
}

// Why faulting in [off, off + len) of `fd` failed with EFAULT: a file that now ends too early, or
// (the kernel reports both as SIGBUS) an I/O error.
Status FaultError(const Job& job, const Chunk& c, int fd, uint64_t off) {
  const ReadRange& r = job.plan().ranges[c.range];
  const PlanFile& pf = job.plan().files[r.file];
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) < off + c.length) {
    return Status::Io(fmt::format(
        "{}: short read at offset {}: wanted {} bytes but the file is {} bytes now (planned {}); "
        "did it shrink while being read?",
        pf.path, off, c.length, st.st_size, pf.size));
  }
  return Status::Io(
      fmt::format("{}: reading {} bytes at offset {} into the page cache failed "
                  "(I/O error)",
                  pf.path, c.length, off));
}

void Worker(Job& job, int worker) {
  const uint64_t page = PageSize();
  AlignedBuffer fallback;
  Chunk c;
  while (job.NextChunk(worker, &c)) {
    const ReadRange& r = job.plan().ranges[c.range];
    const int fd = job.file(r.file).fd;
    const uint64_t off = r.offset + c.off_in_range;
    const uint64_t map_off = off & ~(page - 1);
    const uint64_t map_len = off + c.length - map_off;
    void* map = ::mmap(nullptr, map_len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(map_off));
    if (map == MAP_FAILED) {
      const int err = errno;
      if (err == ENODEV) {
        // File systems without mmap (some FUSE mounts): read the block through a buffer.
        if (PreadChunk(job, c, worker, fallback)) continue;
        return;
      }
      job.Fail(
          Status::FromErrno(err, fmt::format("{}: mmap of {} bytes at offset {}",
                                             job.plan().files[r.file].path, map_len, map_off)));
      return;
    }
    QueueReads(fd, off, c.length);
    int rc;
    int tries = 0;
    // EINTR/EAGAIN: interrupted or a page was briefly locked; the call resumes where it stopped.
    while ((rc = ::madvise(map, map_len, MADV_POPULATE_READ)) != 0 &&
           (errno == EINTR || errno == EAGAIN) && ++tries < 100 && !job.stopping()) {
    }
    const int err = errno;
    ::munmap(map, map_len);
    if (rc != 0) {
      job.Fail(err == EFAULT ? FaultError(job, c, fd, off)
                             : Status::FromErrno(
                                   err, fmt::format("{}: faulting in {} bytes at offset {}",
                                                    job.plan().files[r.file].path, c.length, off)));
      return;
    }
    job.ChunkDone(c);
  }
}

}  // namespace

Status ProbePopulate() {
  const uint64_t page = PageSize();
  void* p = ::mmap(nullptr, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return Status::FromErrno(errno, "mmap");
  const int rc = ::madvise(p, page, MADV_POPULATE_READ);
  const int err = errno;
  ::munmap(p, page);
  if (rc != 0) return Status::FromErrno(err, "madvise(MADV_POPULATE_READ)");
  return Status::Ok();
}

void RunPopulate(Job& job, int threads) {
  RunWorkers(threads, [&job](int worker) { Worker(job, worker); });
}

}  // namespace spinup::io
