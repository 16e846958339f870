// mmap+copy: what servers do today (map each shard, copy each tensor out). Kept as the baseline
// the other backends are measured against, and for file systems where it happens to be best.
#include <fmt/format.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "io/reader_internal.h"

namespace spinup::io {
namespace {

// The copy in progress on this thread, if any: where SIGBUS jumps back to. Volatile: the
// compiler sees memcpy cannot read it and would otherwise drop the store before the copy.
thread_local sigjmp_buf* volatile t_copy_jump = nullptr;
struct sigaction g_old_sigbus {};
std::mutex g_catcher_mu;
int g_catchers = 0;

void OnSigbus(int sig, siginfo_t* info, void* context) {
  if (t_copy_jump != nullptr) siglongjmp(*t_copy_jump, 1);
  // Not a copy of ours: what the process would have done without us.
  if (g_old_sigbus.sa_flags & SA_SIGINFO) {
    if (g_old_sigbus.sa_sigaction != nullptr) return g_old_sigbus.sa_sigaction(sig, info, context);
  } else if (g_old_sigbus.sa_handler != SIG_DFL && g_old_sigbus.sa_handler != SIG_IGN) {
    return g_old_sigbus.sa_handler(sig);
  }
  ::signal(SIGBUS, SIG_DFL);
  ::raise(SIGBUS);
}

struct Mapping {
  std::once_flag once;
  void* addr = nullptr;
  uint64_t size = 0;
  int err = 0;
};

class Maps {
 public:
  explicit Maps(size_t n) : maps_(n) {}
  ~Maps() {
    for (auto& m : maps_) {
      if (m.addr != nullptr) ::munmap(m.addr, m.size);
    }
  }
  Mapping& Get(const Job& job, uint32_t file) {
    Mapping& m = maps_[file];
    std::call_once(m.once, [&] {
      struct stat st {};
      if (::fstat(job.file(file).fd, &st) != 0) {
        m.err = errno;
        return;
      }
      m.size = static_cast<uint64_t>(st.st_size);
      if (m.size == 0) return;
      void* p = ::mmap(nullptr, m.size, PROT_READ, MAP_SHARED, job.file(file).fd, 0);
      if (p == MAP_FAILED) {
        m.err = errno;
        return;
      }
      m.addr = p;
    });
    return m;
  }

 private:
  std::vector<Mapping> maps_;
};

void Worker(Job& job, Maps& maps, int worker) {
  AlignedBuffer sink;
  Chunk c;
  while (job.NextChunk(worker, &c)) {
    const ReadRange& r = job.plan().ranges[c.range];
    const std::string& path = job.plan().files[r.file].path;
    const uint64_t off = r.offset + c.off_in_range;
    Mapping& m = maps.Get(job, r.file);
    if (m.err != 0) {
      job.Fail(Status::FromErrno(m.err, fmt::format("{}: mmap", path)));
      return;
    }
    // Touching a mapped page past the end of a file that shrank raises SIGBUS: check the size
    // before each block (a shrink racing this check is the one case this baseline cannot catch).
    struct stat st {};
    if (::fstat(job.file(r.file).fd, &st) != 0) {
      job.Fail(Status::FromErrno(errno, path));
      return;
    }
    const uint64_t limit = std::min<uint64_t>(m.size, static_cast<uint64_t>(st.st_size));
    if (off + c.length > limit) {
      job.Fail(Status::Io(fmt::format(
          "{}: short read at offset {}: wanted {} bytes but the file is {} bytes now (planned "
          "{}); did it shrink while being read?",
          path, off, c.length, st.st_size, job.plan().files[r.file].size)));
      return;
    }
    std::byte* dst = job.sink() ? sink.Get(job.options().block_bytes) : job.Dest(c);
    if (dst == nullptr) {
      job.Fail(Status::Internal("out of memory for a read buffer"));
      return;
    }
    if (!CopyFromMapping(dst, static_cast<const std::byte*>(m.addr) + off, c.length)) {
      job.Fail(Status::Io(fmt::format(
          "{}: short read at offset {}: the file shrank under the mapping while being read "
          "(planned {} bytes)",
          path, off, job.plan().files[r.file].size)));
      return;
    }
    job.ChunkDone(c);
  }
}

}  // namespace

SigbusCatcher::SigbusCatcher() {
  std::lock_guard lock(g_catcher_mu);
  if (g_catchers++ > 0) return;
  struct sigaction sa {};
  sa.sa_sigaction = OnSigbus;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGBUS, &sa, &g_old_sigbus);
}

SigbusCatcher::~SigbusCatcher() {
  std::lock_guard lock(g_catcher_mu);
  if (--g_catchers == 0) ::sigaction(SIGBUS, &g_old_sigbus, nullptr);
}

// Kept out of line and small: nothing here lives across the jump but its arguments.
__attribute__((noinline)) bool CopyFromMapping(void* dst, const void* src, size_t n) {
  sigjmp_buf jump;
  if (sigsetjmp(jump, 1) != 0) {
    t_copy_jump = nullptr;
    return false;
  }
  t_copy_jump = &jump;
  std::memcpy(dst, src, n);
  t_copy_jump = nullptr;
  return true;
}

void RunMmap(Job& job, int threads) {
  SigbusCatcher catcher;
  Maps maps(job.plan().files.size());
  RunWorkers(threads, [&](int worker) { Worker(job, maps, worker); });
}

}  // namespace spinup::io
