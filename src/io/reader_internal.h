// Internals shared by the reader's backends (src/io/backend_*.cc): the job every backend works on,
// one block ("chunk") at a time, and the bookkeeping for O_DIRECT bounce buffers.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "spinup/reader.h"

namespace spinup::io {

// A heap buffer aligned for O_DIRECT, allocated on first use.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  // Returns a buffer of at least n bytes (nullptr when memory is exhausted).
  std::byte* Get(size_t n);

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

struct OpenFile {
  int fd = -1;
  bool direct = false;
};

// One block of one plan range.
struct Chunk {
  uint32_t range = 0;
  uint64_t off_in_range = 0;
  uint64_t length = 0;
};

// How one chunk is carried out: read io_len bytes at file offset io_off into io_ptr until at least
// `need` bytes have arrived, then copy copy_len bytes from io_ptr + copy_from to copy_dst (only
// when reading through a bounce buffer into caller memory).
struct ChunkIo {
  int fd = -1;
  bool direct = false;
  uint64_t io_off = 0;
  uint64_t io_len = 0;
  std::byte* io_ptr = nullptr;
  uint64_t need = 0;
  uint64_t got = 0;
  std::byte* copy_dst = nullptr;
  uint64_t copy_from = 0;
  uint64_t copy_len = 0;
};

enum class Step { kMore, kDone, kFailed };

class Job {
 public:
  Job(const ReadPlan& plan, std::byte* base, bool sink, const ReaderOptions& options,
      ReadControl* control, const RangeCallback& on_range);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  // Opens every file the plan reads (read-only; O_DIRECT when asked and allowed) and reports
  // ranges of zero length as done. Fallbacks are appended to notes.
  Status Open(bool direct, std::vector<std::string>* notes);
  bool all_direct() const;

  // The next block for `worker` (0 <= worker < options().threads): each worker owns a contiguous
  // stretch of the plan, so it reads sequentially (kernel readahead keeps working for buffered
  // reads), and steals from the others' stretches when its own is done. False when none are
  // left, or on error or cancellation.
  bool NextChunk(int worker, Chunk* out);
  bool stopping() const { return failed_.load(std::memory_order_relaxed) || control_->cancelled(); }
  bool NeedsBounce(const Chunk& c) const;
  uint64_t BounceBytes() const { return options_.block_bytes + 2 * kDirectAlignment; }
  // bounce may be null when !NeedsBounce(c). The worker reads through its own descriptor.
  ChunkIo Prepare(const Chunk& c, std::byte* bounce, int worker);
  // Accounts one read result (bytes, or -errno) against io; on kDone the chunk is complete.
  Step OnRead(ChunkIo& io, const Chunk& c, ssize_t result);
  // For backends that move bytes themselves (mmap): marks the chunk's bytes as landed.
  void ChunkDone(const Chunk& c);
  void Fail(Status status);
  Status TakeError();

  const ReadPlan& plan() const { return plan_; }
  const OpenFile& file(uint32_t index) const { return files_[index]; }
  // Destination of a chunk in caller memory (nullptr in sink mode).
  std::byte* Dest(const Chunk& c) const;
  bool sink() const { return sink_; }
  const ReaderOptions& options() const { return options_; }
  size_t chunk_count() const { return chunks_.size(); }
  ReadControl* control() const { return control_; }

 private:
  Status ShortRead(const ChunkIo& io, const Chunk& c) const;

  const ReadPlan& plan_;
  std::byte* base_;
  bool sink_;
  ReaderOptions options_;
  ReadControl* control_;
  const RangeCallback& on_range_;
  std::vector<OpenFile> files_;
  std::vector<Chunk> chunks_;
  std::unique_ptr<std::atomic<uint64_t>[]> remaining_;
  // Per worker: [begin, end) of its stretch of chunks_, and the next index to take.
  std::vector<size_t> seg_end_;
  std::unique_ptr<std::atomic<size_t>[]> seg_next_;
  // worker_fds_[w][file]: worker w's own open file description (own readahead state); -1 until
  // first use. Row 0 is files_. Each row is touched only by its worker.
  std::vector<std::vector<int>> worker_fds_;
  int WorkerFd(int worker, uint32_t file);
  std::atomic<bool> failed_{false};
  std::mutex error_mu_;
  Status error_;
};

// Runs worker(0) .. worker(threads - 1), worker 0 on the caller's thread, and returns when all
// have returned. When the system refuses threads (a pids limit) fewer workers run
// (base/threads.h); workers steal chunks, so they still read everything.
void RunWorkers(int threads, const std::function<void(int)>& worker);

// mmap backend: copies n bytes out of a file mapping; false instead of death by SIGBUS when a
// page lies past the end of a file that shrank under the mapping. Only valid while a
// SigbusCatcher is alive.
bool CopyFromMapping(void* dst, const void* src, size_t n);

// Turns SIGBUS on the threads inside CopyFromMapping into its false return; any other SIGBUS
// keeps its old handling. Installed for the lifetime of the object (one mmap read).
class SigbusCatcher {
 public:
  SigbusCatcher();
  ~SigbusCatcher();
  SigbusCatcher(const SigbusCatcher&) = delete;
  SigbusCatcher& operator=(const SigbusCatcher&) = delete;
};
// Reads one chunk with blocking preads, through `bounce` when it needs one. False when the read
// failed (the error is recorded in the job).
bool PreadChunk(Job& job, const Chunk& c, int worker, AlignedBuffer& bounce);

// Backends: each runs the whole job on `threads` threads and returns when it is done, failed or
// cancelled (errors are recorded in the job).
void RunPread(Job& job, int threads);
void RunMmap(Job& job, int threads);
// Returns an error without touching the job when io_uring cannot be set up (the caller falls back).
Status ProbeUring(int queue_depth);
void RunUring(Job& job, int threads, int queue_depth);
// Returns an error when the kernel has no MADV_POPULATE_READ (before 5.14).
Status ProbePopulate();
// Sink jobs only: each block is mapped, faulted into the page cache and unmapped.
void RunPopulate(Job& job, int threads);

}  // namespace spinup::io
