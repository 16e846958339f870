#include "spinup/reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "base/threads.h"
#include "io/reader_internal.h"

namespace spinup {

std::string_view ReadBackendName(ReadBackend backend) {
  switch (backend) {
    case ReadBackend::kAuto:
      return "auto";
    case ReadBackend::kUring:
      return "uring";
    case ReadBackend::kPread:
      return "pread";
    case ReadBackend::kMmap:
      return "mmap";
    case ReadBackend::kPopulate:
      return "populate";
  }
  return "unknown";
}

Result<ReadBackend> ParseReadBackend(std::string_view name) {
  for (ReadBackend b : {ReadBackend::kAuto, ReadBackend::kUring, ReadBackend::kPread,
                        ReadBackend::kMmap, ReadBackend::kPopulate}) {
    if (ReadBackendName(b) == name) return b;
  }
  return Status::InvalidArgument(
      fmt::format("backend '{}': expected one of uring, pread, mmap, populate, auto", name));
}

int DefaultThreads(ReadBackend backend, bool direct) {
  switch (backend) {
    case ReadBackend::kAuto:
    case ReadBackend::kUring:
      return direct ? 2 : 4;
    case ReadBackend::kPread:
      return 8;
    case ReadBackend::kMmap:
      return 1;
    case ReadBackend::kPopulate:
      return 4;
  }
  return 1;
}

int DefaultQueueDepth(ReadBackend backend, bool direct) {
  if (backend != ReadBackend::kUring && backend != ReadBackend::kAuto) return 1;
  return direct ? 32 : 2;
}

uint64_t DefaultBlockBytes(ReadBackend backend) {
  return backend == ReadBackend::kPopulate ? kDefaultPopulateBlockBytes : kDefaultBlockBytes;
}

namespace io {

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

std::byte* AlignedBuffer::Get(size_t n) {
  if (n <= size_ && data_ != nullptr) return data_;
  std::free(data_);
  data_ = nullptr;
  size_ = 0;
  void* p = nullptr;
  if (posix_memalign(&p, kDirectAlignment, std::max<size_t>(n, kDirectAlignment)) != 0) {
    return nullptr;
  }
  data_ = static_cast<std::byte*>(p);
  size_ = n;
  return data_;
}

void RunWorkers(int threads, const std::function<void(int)>& worker) {
  // Workers steal chunks from every segment (Job::NextChunk), so fewer threads than asked for
  // (a pids limit) still read everything.
  RunOnThreads(std::max(threads, 1), worker);
}

namespace {

constexpr uint64_t kA = kDirectAlignment;
bool Aligned(uint64_t v) { return v % kA == 0; }

}  // namespace

Job::Job(const ReadPlan& plan, std::byte* base, bool sink, const ReaderOptions& options,
         ReadControl* control, const RangeCallback& on_range)
    : plan_(plan),
      base_(base),
      sink_(sink),
      options_(options),
      control_(control),
      on_range_(on_range),
      files_(plan.files.size()),
      remaining_(new std::atomic<uint64_t>[plan.ranges.size()]) {
  uint64_t total = 0;
  for (size_t i = 0; i < plan.ranges.size(); ++i) {
    const ReadRange& r = plan.ranges[i];
    remaining_[i].store(r.length, std::memory_order_relaxed);
    total += r.length;
    for (uint64_t done = 0; done < r.length; done += options_.block_bytes) {
      chunks_.push_back(
          {static_cast<uint32_t>(i), done, std::min(options_.block_bytes, r.length - done)});
    }
  }
  // Cut the chunk list into one stretch per worker with near-equal bytes.
  const auto workers = static_cast<size_t>(std::max(options_.threads, 1));
  std::vector<size_t> begin(workers + 1, chunks_.size());
  begin[0] = 0;
  size_t w = 1;
  uint64_t before = 0;  // bytes of chunks_[0, i)
  for (size_t i = 0; i < chunks_.size() && w < workers; ++i) {
    while (w < workers && before >= total / workers * w) begin[w++] = i;
    before += chunks_[i].length;
  }
  seg_next_.reset(new std::atomic<size_t>[workers]);
  seg_end_.resize(workers);
  for (size_t k = 0; k < workers; ++k) {
    seg_next_[k].store(begin[k], std::memory_order_relaxed);
    seg_end_[k] = begin[k + 1];
  }
  worker_fds_.assign(workers, std::vector<int>(plan.files.size(), -1));
}

Job::~Job() {
  for (size_t w = 1; w < worker_fds_.size(); ++w) {
    for (int fd : worker_fds_[w]) {
      if (fd >= 0) ::close(fd);
    }
  }
  for (auto& f : files_) {
    if (f.fd >= 0) ::close(f.fd);
  }
}

int Job::WorkerFd(int worker, uint32_t file) {
  if (worker <= 0 || static_cast<size_t>(worker) >= worker_fds_.size()) return files_[file].fd;
  int& fd = worker_fds_[static_cast<size_t>(worker)][file];
  if (fd < 0) {
    // Reopen the same open file (not the path, which may have been replaced) so this worker gets
    // its own readahead state; dup (shared state, still correct) when /proc is not there.
    const OpenFile& f = files_[file];
    fd = ::open(fmt::format("/proc/self/fd/{}", f.fd).c_str(),
                O_RDONLY | O_CLOEXEC | (f.direct ? O_DIRECT : 0));
    if (fd < 0) fd = ::fcntl(f.fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return f.fd;
  }
  return fd;
}

Status Job::Open(bool direct, std::vector<std::string>* notes) {
  std::vector<bool> used(plan_.files.size(), false);
  for (const auto& r : plan_.ranges) {
    if (r.length > 0) used[r.file] = true;
  }
  size_t direct_refused = 0, direct_tried = 0;
  std::string refusal;
  AlignedBuffer probe;
  for (size_t i = 0; i < plan_.files.size(); ++i) {
    if (!used[i]) continue;
    const std::string& path = plan_.files[i].path;
    // stat before open: opening a FIFO for reading would block until a writer appears.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, path);
    if (!S_ISREG(st.st_mode)) {
      return Status::InvalidArgument(fmt::format("{}: not a regular file", path));
    }
    const int base_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
    int fd = -1;
    bool is_direct = false;
    if (direct) {
      ++direct_tried;
      fd = ::open(path.c_str(), base_flags | O_DIRECT);
      if (fd >= 0) {
        is_direct = true;
        // Some file systems accept O_DIRECT at open and refuse the reads: probe one block.
        if (st.st_size >= static_cast<off_t>(kA)) {
          std::byte* buf = probe.Get(kA);
          if (buf != nullptr && ::pread(fd, buf, kA, 0) < 0 && errno == EINVAL) {
            refusal = "reads refused";
            ::close(fd);
            fd = -1;
            is_direct = false;
          }
        }
      } else if (errno == EINVAL || errno == EOPNOTSUPP) {
        refusal = std::strerror(errno);
      } else {
        return Status::FromErrno(errno, path);
      }
      if (!is_direct) ++direct_refused;
    }
    if (fd < 0) fd = ::open(path.c_str(), base_flags);
    if (fd < 0) return Status::FromErrno(errno, path);
    struct stat fst {};
    if (::fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
      ::close(fd);
      return Status::InvalidArgument(fmt::format("{}: not a regular file", path));
    }
    // O_NONBLOCK only guarded the open; left on, io_uring would answer -EAGAIN instead of
    // waiting for reads that miss the page cache.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    files_[i] = {fd, is_direct};
  }
  if (direct_refused > 0 && notes != nullptr) {
    notes->push_back(fmt::format(
        "O_DIRECT refused by the file system for {} of {} files ({}); read them buffered",
        direct_refused, direct_tried, refusal));
  }
  // Empty ranges (empty tensors) are complete before any I/O.
  for (size_t i = 0; i < plan_.ranges.size(); ++i) {
    if (plan_.ranges[i].length == 0) {
      control_->AddRange();
      if (on_range_) on_range_(i, plan_.ranges[i]);
    }
  }
  return Status::Ok();
}

bool Job::all_direct() const {
  bool any = false;
  for (const auto& f : files_) {
    if (f.fd < 0) continue;
    if (!f.direct) return false;
    any = true;
  }
  return any;
}

bool Job::NextChunk(int worker, Chunk* out) {
  if (stopping()) return false;
  const size_t n = seg_end_.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t s = (static_cast<size_t>(std::max(worker, 0)) + k) % n;
    if (seg_next_[s].load(std::memory_order_relaxed) >= seg_end_[s]) continue;
    size_t i = seg_next_[s].fetch_add(1, std::memory_order_relaxed);
    if (i < seg_end_[s]) {
      *out = chunks_[i];
      return true;
    }
  }
  return false;
}

std::byte* Job::Dest(const Chunk& c) const {
  if (sink_) return nullptr;
  const ReadRange& r = plan_.ranges[c.range];
  std::byte* start = r.dest != nullptr ? r.dest : base_ + r.dest_offset;
  return start + c.off_in_range;
}

bool Job::NeedsBounce(const Chunk& c) const {
  if (sink_) return true;
  const ReadRange& r = plan_.ranges[c.range];
  if (!files_[r.file].direct) return false;
  uint64_t off = r.offset + c.off_in_range;
  return !(Aligned(reinterpret_cast<uintptr_t>(Dest(c))) && Aligned(off) && Aligned(c.length));
}

ChunkIo Job::Prepare(const Chunk& c, std::byte* bounce, int worker) {
  const ReadRange& r = plan_.ranges[c.range];
  const OpenFile& f = files_[r.file];
  const uint64_t off = r.offset + c.off_in_range;
  ChunkIo io;
  io.fd = WorkerFd(worker, r.file);
  io.direct = f.direct;
  if (!NeedsBounce(c)) {
    io.io_off = off;
    io.io_len = c.length;
    io.io_ptr = Dest(c);
    io.need = c.length;
    return io;
  }
  if (!f.direct) {  // buffered sink: read straight into the reusable buffer
    io.io_off = off;
    io.io_len = c.length;
    io.io_ptr = bounce;
    io.need = c.length;
    return io;
  }
  // O_DIRECT through a bounce buffer: read the aligned superset, copy out the wanted part.
  const uint64_t start = off & ~(kA - 1);
  const uint64_t end = (off + c.length + kA - 1) & ~(kA - 1);
  io.io_off = start;
  io.io_len = end - start;
  io.io_ptr = bounce;
  io.need = off + c.length - start;  // the file may end before `end`: that is not short
  io.copy_dst = Dest(c);
  io.copy_from = off - start;
  io.copy_len = c.length;
  return io;
}

Status Job::ShortRead(const ChunkIo& io, const Chunk& c) const {
  const ReadRange& r = plan_.ranges[c.range];
  const PlanFile& pf = plan_.files[r.file];
  struct stat st {};
  std::string now = ::fstat(io.fd, &st) == 0 ? fmt::format("{} bytes now", st.st_size) : "unknown";
  return Status::Io(fmt::format(
      "{}: short read at offset {}: wanted {} more bytes but the file ended (planned size {}, {}); "
      "did it shrink while being read?",
      pf.path, io.io_off + io.got, io.need - io.got, pf.size, now));
}

Step Job::OnRead(ChunkIo& io, const Chunk& c, ssize_t result) {
  if (result < 0) {
    int err = static_cast<int>(-result);
    if (err == EINTR || err == EAGAIN) return stopping() ? Step::kFailed : Step::kMore;
    const PlanFile& pf = plan_.files[plan_.ranges[c.range].file];
    Fail(Status::FromErrno(
        err, fmt::format("{}: read of {} bytes at offset {}{}", pf.path, io.io_len - io.got,
                         io.io_off + io.got, io.direct ? " (O_DIRECT)" : "")));
    return Step::kFailed;
  }
  if (result == 0) {
    Fail(ShortRead(io, c));
    return Step::kFailed;
  }
  io.got += static_cast<uint64_t>(result);
  if (io.got >= io.need) {
    if (io.copy_dst != nullptr) std::memcpy(io.copy_dst, io.io_ptr + io.copy_from, io.copy_len);
    ChunkDone(c);
    return Step::kDone;
  }
  // O_DIRECT returns a partial, unaligned count only at the end of the file.
  if (io.direct && !Aligned(io.io_off + io.got)) {
    Fail(ShortRead(io, c));
    return Step::kFailed;
  }
  return Step::kMore;
}

void Job::ChunkDone(const Chunk& c) {
  control_->AddBytes(c.length);
  if (remaining_[c.range].fetch_sub(c.length, std::memory_order_acq_rel) == c.length) {
    control_->AddRange();
    if (on_range_) on_range_(c.range, plan_.ranges[c.range]);
  }
}

void Job::Fail(Status status) {
  std::lock_guard<std::mutex> lock(error_mu_);
  if (error_.ok()) error_ = std::move(status);
  failed_.store(true, std::memory_order_relaxed);
}

Status Job::TakeError() {
  std::lock_guard<std::mutex> lock(error_mu_);
  return std::move(error_);
}

}  // namespace io

namespace {

Status ValidatePlan(const ReadPlan& plan, std::span<std::byte> dest, bool sink) {
  for (size_t i = 0; i < plan.ranges.size(); ++i) {
    const ReadRange& r = plan.ranges[i];
    if (r.file >= plan.files.size()) {
      return Status::InvalidArgument(
          fmt::format("read plan range {} names file #{} of {}", i, r.file, plan.files.size()));
    }
    if (sink || r.dest != nullptr || r.length == 0) continue;
    if (dest.data() == nullptr || r.dest_offset > dest.size() ||
        r.length > dest.size() - r.dest_offset) {
      return Status::InvalidArgument(fmt::format(
          "{}: range at offset {} ({} bytes) goes to buffer offset {}, past the {}-byte buffer",
          plan.files[r.file].path, r.offset, r.length, r.dest_offset, dest.size()));
    }
  }
  return Status::Ok();
}

Result<ReadReport> Run(const ReadPlan& plan, std::span<std::byte> dest, bool sink,
                       const ReaderOptions& options, ReadControl* control,
                       const RangeCallback& on_range) {
  if (Status s = ValidatePlan(plan, dest, sink); !s.ok()) return s;
  ReaderOptions opt = options;
  ReadReport report;
  ReadBackend backend = opt.backend == ReadBackend::kAuto ? ReadBackend::kUring : opt.backend;
  if (backend == ReadBackend::kPopulate) {
    if (!sink) {
      return Status::InvalidArgument(
          "the populate backend only fills the page cache; it cannot read into memory");
    }
    if (Status s = io::ProbePopulate(); !s.ok()) {
      report.notes.push_back(
          fmt::format("MADV_POPULATE_READ unavailable ({}); reading through the page cache instead",
                      s.message()));
      backend = ReadBackend::kUring;
    }
  }
  if (opt.block_bytes == 0) opt.block_bytes = DefaultBlockBytes(backend);
  // Blocks are whole O_DIRECT units, at most 1 GiB (one io_uring read carries 32-bit lengths).
  opt.block_bytes = std::clamp<uint64_t>(opt.block_bytes, kDirectAlignment, 1ull << 30);
  opt.block_bytes = (opt.block_bytes + kDirectAlignment - 1) & ~(kDirectAlignment - 1);
  if (opt.queue_depth <= 0) opt.queue_depth = DefaultQueueDepth(backend, opt.direct);
  opt.queue_depth = std::clamp(opt.queue_depth, 1, 4096);
  if (backend == ReadBackend::kUring) {
    if (Status s = io::ProbeUring(opt.queue_depth); !s.ok()) {
      report.notes.push_back(
          fmt::format("io_uring unavailable ({}); using the pread thread pool", s.message()));
      backend = ReadBackend::kPread;
      if (opt.threads <= 0) opt.threads = DefaultThreads(ReadBackend::kPread, opt.direct);
    }
  }
  if (opt.threads <= 0) opt.threads = DefaultThreads(backend, opt.direct);
  opt.threads = std::clamp(opt.threads, 1, 256);
  bool direct = opt.direct;
  if (direct && (backend == ReadBackend::kMmap || backend == ReadBackend::kPopulate)) {
    report.notes.push_back(fmt::format("{} reads go through the page cache; O_DIRECT not used",
                                       ReadBackendName(backend)));
    direct = false;
  }

  ReadControl local;
  if (control == nullptr) control = &local;
  control->Reset(plan.TotalBytes());
  const auto t0 = std::chrono::steady_clock::now();
  io::Job job(plan, dest.data(), sink, opt, control, on_range);
  if (Status s = job.Open(direct, &report.notes); !s.ok()) return s;
  switch (backend) {
    case ReadBackend::kUring:
      io::RunUring(job, opt.threads, opt.queue_depth);
      break;
    case ReadBackend::kMmap:
      io::RunMmap(job, opt.threads);
      break;
    case ReadBackend::kPopulate:
      io::RunPopulate(job, opt.threads);
      break;
    default:
      io::RunPread(job, opt.threads);
      break;
  }
  if (Status s = job.TakeError(); !s.ok()) return s;
  if (control->bytes_done() < plan.TotalBytes()) {
    return Status::Cancelled(fmt::format("read cancelled after {} of {} bytes",
                                         control->bytes_done(), plan.TotalBytes()));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.bytes = control->bytes_done();
  report.backend = backend;
  report.direct = job.all_direct();
  report.threads = opt.threads;
  report.queue_depth = backend == ReadBackend::kUring ? opt.queue_depth : 1;
  report.block_bytes = opt.block_bytes;
  return report;
}

}  // namespace

Result<ReadReport> ReadInto(const ReadPlan& plan, std::span<std::byte> dest,
                            const ReaderOptions& options, ReadControl* control,
                            const RangeCallback& on_range) {
  return Run(plan, dest, /*sink=*/false, options, control, on_range);
}

Result<ReadReport> ReadToSink(const ReadPlan& plan, const ReaderOptions& options,
                              ReadControl* control, const RangeCallback& on_range) {
  return Run(plan, {}, /*sink=*/true, options, control, on_range);
}

}  // namespace spinup
