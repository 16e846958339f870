// The reader: reads a ReadPlan as fast as the storage allows, into caller-owned memory or into a
// bounded set of reusable buffers that are discarded ("sink", for bench and warm).
//
// Backends (one interface): io_uring with a deep queue (default), a pread thread pool, and
// mmap+copy (the baseline servers use today); for sink reads only, "populate", which maps each
// block and has the kernel fault it into the page cache (MADV_POPULATE_READ) without copying a
// byte to user space: what `warm` uses. O_DIRECT is used when asked and the file system
// allows it; when io_uring or O_DIRECT is refused the reader falls back (uring -> pread,
// direct -> buffered) and records a one-line note instead of failing. Files are opened read-only.
// Memory the reader allocates is bounded by threads x queue_depth x block_bytes whatever the
// plan's size.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/read_plan.h"
#include "spinup/status.h"

namespace spinup {

enum class ReadBackend { kAuto, kUring, kPread, kMmap, kPopulate };

// "auto", "uring", "pread", "mmap", "populate"
std::string_view ReadBackendName(ReadBackend backend);
Result<ReadBackend> ParseReadBackend(std::string_view name);

inline constexpr uint64_t kDefaultBlockBytes = 4ull << 20;
// populate's block: one mmap + madvise + munmap each; larger blocks cost fewer calls, smaller
// ones keep progress and cancellation responsive (~15 ms a block at 2 GB/s).
inline constexpr uint64_t kDefaultPopulateBlockBytes = 32ull << 20;
// O_DIRECT offsets, lengths and buffers are aligned to this (covers 512 B and 4 KiB sectors).
inline constexpr uint64_t kDirectAlignment = 4096;

struct ReaderOptions {
  ReadBackend backend = ReadBackend::kAuto;  // auto = uring where the kernel allows it
  bool direct = false;                       // O_DIRECT (bypass the page cache) where allowed
  int threads = 0;                           // 0 = DefaultThreads(backend, direct)
  int queue_depth = 0;       // reads in flight per uring thread; 0 = DefaultQueueDepth(...)
  uint64_t block_bytes = 0;  // largest single read; 0 = DefaultBlockBytes(backend)
};

// What runs when ReaderOptions leaves threads / queue_depth at 0 (docs/reader.md says why):
// uring O_DIRECT 2 rings x 32 in flight (depth is what direct I/O needs; two streams for striped
// and network storage); uring buffered 4 rings x 2 (several sequential streams, each with kernel
// readahead; deep buffered queues defeat readahead); pread 8 threads; mmap 1 thread (servers).
// populate 4 threads x 32 MiB blocks.
int DefaultThreads(ReadBackend backend, bool direct);
int DefaultQueueDepth(ReadBackend backend, bool direct);
uint64_t DefaultBlockBytes(ReadBackend backend);

// Shared with the caller while a read runs: progress readable from any thread, and cancellation.
class ReadControl {
 public:
  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const { return bytes_done_.load(std::memory_order_relaxed); }
  uint64_t ranges_done() const { return ranges_done_.load(std::memory_order_relaxed); }
  // Set when the read starts, so a progress display can show a fraction before any byte lands.
  uint64_t bytes_total() const { return bytes_total_.load(std::memory_order_relaxed); }

  // For the reader's own use.
  void AddBytes(uint64_t n) { bytes_done_.fetch_add(n, std::memory_order_relaxed); }
  void AddRange() { ranges_done_.fetch_add(1, std::memory_order_relaxed); }
  void Reset(uint64_t total) {
    bytes_done_.store(0);
    ranges_done_.store(0);
    bytes_total_.store(total);
  }

 private:
  std::atomic<bool> cancelled_{false};
  std::atomic<uint64_t> bytes_done_{0};
  std::atomic<uint64_t> ranges_done_{0};
  std::atomic<uint64_t> bytes_total_{0};
};

// Called once per plan range when all its bytes have landed (index into plan.ranges). May be
// called from several reader threads at once: it must be thread-safe, and quick.
using RangeCallback = std::function<void(size_t index, const ReadRange& range)>;

struct ReadReport {
  uint64_t bytes = 0;
  double seconds = 0;
  ReadBackend backend = ReadBackend::kAuto;  // what actually ran (after any fallback)
  bool direct = false;                       // every file was read with O_DIRECT
  int threads = 0;
  int queue_depth = 0;
  uint64_t block_bytes = 0;
  std::vector<std::string> notes;  // one line per fallback taken (io_uring refused, O_DIRECT off)
};

// Reads every range into its destination: range.dest, or dest.data() + range.dest_offset (which
// must lie inside `dest`). On failure the first error names the file, the offset and the errno
// (or the short read); cancellation returns ErrorKind::kCancelled. kPopulate has no destination:
// it is an InvalidArgument here.
Result<ReadReport> ReadInto(const ReadPlan& plan, std::span<std::byte> dest,
                            const ReaderOptions& options, ReadControl* control = nullptr,
                            const RangeCallback& on_range = {});

// Reads every range into reusable buffers and discards the bytes: measures bandwidth (bench) or
// fills the page cache (warm, buffered). Range destinations are ignored. With kPopulate the bytes
// only land in the page cache; where the kernel refuses MADV_POPULATE_READ (before Linux 5.14) it
// falls back to buffered io_uring (or pread) with a note.
Result<ReadReport> ReadToSink(const ReadPlan& plan, const ReaderOptions& options,
                              ReadControl* control = nullptr, const RangeCallback& on_range = {});

}  // namespace spinup
