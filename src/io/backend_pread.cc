// The pread thread pool: each thread takes the next block and reads it with blocking preads.
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "io/reader_internal.h"

namespace spinup::io {
namespace {

void Worker(Job& job, int worker) {
  AlignedBuffer bounce;
  Chunk c;
  while (job.NextChunk(worker, &c)) {
    std::byte* buf = nullptr;
    if (job.NeedsBounce(c)) {
      buf = bounce.Get(job.BounceBytes());
      if (buf == nullptr) {
        job.Fail(Status::Internal("out of memory for a read buffer"));
        return;
      }
    }
    ChunkIo io = job.Prepare(c, buf, worker);
    Step step;
    do {
      ssize_t n = ::pread(io.fd, io.io_ptr + io.got, io.io_len - io.got,
                          static_cast<off_t>(io.io_off + io.got));
      step = job.OnRead(io, c, n < 0 ? -static_cast<ssize_t>(errno) : n);
    } while (step == Step::kMore);
    if (step == Step::kFailed) return;
  }
}

}  // namespace

void RunPread(Job& job, int threads) {
  if (threads <= 1) {
    Worker(job, 0);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) pool.emplace_back([&job, i] { Worker(job, i); });
  for (auto& t : pool) t.join();
}

}  // namespace spinup::io
