// io_uring: each thread owns a ring and keeps up to queue_depth block reads in flight, so one
// thread can saturate an NVMe array or hide a network file system's latency.
#include <fmt/format.h>
#include <liburing.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "io/reader_internal.h"

namespace spinup::io {

Status ProbeUring(int queue_depth) {
  io_uring ring;
  int rc = io_uring_queue_init(static_cast<unsigned>(queue_depth), &ring, 0);
  if (rc < 0) return Status::FromErrno(-rc, "io_uring_queue_init");
  io_uring_queue_exit(&ring);
  return Status::Ok();
}

namespace {

struct Slot {
  Chunk chunk;
  ChunkIo io;
  AlignedBuffer buffer;
};

void Worker(Job& job, int queue_depth, int worker) {
  io_uring ring;
  int rc = io_uring_queue_init(static_cast<unsigned>(queue_depth), &ring, 0);
  if (rc < 0) {
    job.Fail(Status::FromErrno(-rc, "io_uring_queue_init"));
    return;
  }
  std::vector<Slot> slots(static_cast<size_t>(queue_depth));
  std::vector<unsigned> free_slots;
  for (unsigned i = 0; i < slots.size(); ++i) free_slots.push_back(i);
  unsigned inflight = 0;

  auto queue_read = [&](unsigned i) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    // Never null: at most queue_depth reads are queued or in flight.
    ChunkIo& io = slots[i].io;
    io_uring_prep_read(sqe, io.fd, io.io_ptr + io.got, static_cast<unsigned>(io.io_len - io.got),
                       io.io_off + io.got);
    io_uring_sqe_set_data64(sqe, i);
  };

  while (true) {
    while (!free_slots.empty()) {
      Chunk c;
      if (!job.NextChunk(worker, &c)) break;
      unsigned i = free_slots.back();
      std::byte* buf = nullptr;
      if (job.NeedsBounce(c)) {
        buf = slots[i].buffer.Get(job.BounceBytes());
        if (buf == nullptr) {
          job.Fail(Status::Internal("out of memory for a read buffer"));
          break;
        }
      }
      free_slots.pop_back();
      slots[i].chunk = c;
      slots[i].io = job.Prepare(c, buf, worker);
      queue_read(i);
      ++inflight;
    }
    if (inflight == 0) break;
    rc = io_uring_submit_and_wait(&ring, 1);
    if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
      job.Fail(Status::FromErrno(-rc, "io_uring_submit"));
      // Reads already submitted still target our buffers: wait for each before leaving.
      while (inflight > 0) {
        io_uring_cqe* cqe = nullptr;
        if (io_uring_wait_cqe(&ring, &cqe) < 0) break;
        io_uring_cqe_seen(&ring, cqe);
        --inflight;
      }
      break;
    }
    io_uring_cqe* cqe = nullptr;
    unsigned head = 0, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      unsigned i = static_cast<unsigned>(cqe->user_data);
      Step step = job.OnRead(slots[i].io, slots[i].chunk, cqe->res);
      if (step == Step::kMore && !job.stopping()) {
        queue_read(i);  // the rest of a partial read
      } else {
        --inflight;
        free_slots.push_back(i);
      }
    }
    io_uring_cq_advance(&ring, seen);
  }
  io_uring_queue_exit(&ring);
}

}  // namespace

void RunUring(Job& job, int threads, int queue_depth) {
  RunWorkers(threads, [&](int worker) { Worker(job, queue_depth, worker); });
}

}  // namespace spinup::io
