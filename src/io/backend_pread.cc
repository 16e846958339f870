// The pread thread pool: each thread takes the next block and reads it with blocking preads.
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "io/reader_internal.h"

namespace spinup::io {

bool PreadChunk(Job& job, const Chunk& c, int worker, AlignedBuffer& bounce) {
  std::byte* buf = nullptr;
  if (job.NeedsBounce(c)) {
    buf = bounce.Get(job.BounceBytes());
    if (buf == nullptr) {
      job.Fail(Status::Internal("out of memory for a read buffer"));
      return false;
    }
  }
  ChunkIo io = job.Prepare(c, buf, worker);
  Step step;
  do {
    ssize_t n = ::pread(io.fd, io.io_ptr + io.got, io.io_len - io.got,
                        static_cast<off_t>(io.io_off + io.got));
    step = job.OnRead(io, c, n < 0 ? -static_cast<ssize_t>(errno) : n);
  } while (step == Step::kMore);
  return step == Step::kDone;
}

void RunPread(Job& job, int threads) {
  RunWorkers(threads, [&job](int worker) {
    AlignedBuffer bounce;
    Chunk c;
    while (job.NextChunk(worker, &c)) {
      if (!PreadChunk(job, c, worker, bounce)) return;
    }
  });
}

}  // namespace spinup::io
