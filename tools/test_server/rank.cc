// ---- rank process ----------------------------------------------------------------------------
// One scheduler, "sglang::scheduler_TPn": distributed_init, weight_load (real reads of every
// shard), kv_cache, cuda_graph; then it tells the launcher "ready" on --status-fd and idles.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "test_server/modes.h"
#include "test_server/options.h"
#include "test_server/output.h"
#include "test_server/work.h"

namespace fs = std::filesystem;

namespace test_server {

namespace {

using Clock = std::chrono::steady_clock;

std::optional<uint64_t> ParseRate(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || v <= 0) return std::nullopt;
  std::string unit(end);
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
  if (unit.ends_with("/s")) unit.resize(unit.size() - 2);
  double mult = 1;
  if (unit == "K" || unit == "k" || unit == "Ki")
    mult = 1024.0;
  else if (unit == "M" || unit == "m" || unit == "Mi")
    mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "g" || unit == "Gi")
    mult = 1024.0 * 1024 * 1024;
  else if (!unit.empty())
    return std::nullopt;
  return static_cast<uint64_t>(v * mult);
}

std::vector<fs::path> Shards() {
  std::vector<fs::path> out;
  if (g_opt.model.empty()) return out;
  std::error_code ec;
  for (fs::directory_iterator it(g_opt.model, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".safetensors") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Bar(const std::string& desc, size_t n, size_t total, double elapsed) {
  int pct = total == 0 ? 100 : static_cast<int>(100 * n / total);
  double rate = elapsed > 0 ? static_cast<double>(n) / elapsed : 0;
  return fmt::format("{}: {:3d}% Completed | {}/{} [00:{:02d}<00:00, {:.2f}it/s]", desc, pct, n,
                     total, static_cast<int>(elapsed), rate);
}

// Throttle: sleeps until `total_read` bytes are due at `bw` bytes/s since `start`.
void WaitForRate(Clock::time_point start, uint64_t total_read, uint64_t bw) {
  auto due = start + std::chrono::duration<double>(static_cast<double>(total_read) /
                                                   static_cast<double>(bw));
  std::this_thread::sleep_until(due);
}

// As safetensors' safe_open: map the file, touch every page (major faults when the page cache is
// cold), no fd offset to see. Closes `fd`.
void MapAndTouch(int fd, Clock::time_point start, std::optional<uint64_t> bw,
                 uint64_t& total_read) {
  struct stat sb {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &sb) == 0 && sb.st_size > 0) {
    map = ::mmap(nullptr, static_cast<size_t>(sb.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (map == MAP_FAILED) return;
  const volatile char* p = static_cast<const char*>(map);
  size_t size = static_cast<size_t>(sb.st_size);
  volatile char sink = 0;
  for (size_t off = 0; off < size; off += 4096) {
    sink = static_cast<char>(sink + p[off]);
    total_read += std::min<size_t>(4096, size - off);
    if (bw && off % (256 << 10) == 0) WaitForRate(start, total_read, *bw);
  }
  ::munmap(map, size);
}

// read()s the whole file (so fdinfo pos advances). Closes `fd`.
void ReadThrough(int fd, std::vector<char>& buf, Clock::time_point start,
                 std::optional<uint64_t> bw, uint64_t& total_read) {
  for (;;) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    total_read += static_cast<uint64_t>(n);
    if (bw) WaitForRate(start, total_read, *bw);
  }
  ::close(fd);
}

// Reads every shard (read() or mmap per --loader), throttled per rank.
void LoadWeights() {
  auto shards = Shards();
  auto bw = ParseRate(g_opt.read_bw);
  if (!bw && g_opt.scenario == "slow") bw = 2u << 20;  // the slow case: 2 MiB/s per rank
  auto start = Clock::now();
  if (shards.empty()) {
    Sleep(0.3);
    return;
  }
  std::vector<char> buf(256 << 10);
  uint64_t total_read = 0;
  size_t done = 0;
  const std::string desc = "Loading safetensors checkpoint shards";
  if (g_opt.rank == 0) Raw(Bar(desc, 0, shards.size(), 0));
  for (const auto& shard : shards) {
    int fd = ::open(shard.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (g_opt.loader == "mmap") {
      MapAndTouch(fd, start, bw, total_read);
    } else {
      ReadThrough(fd, buf, start, bw, total_read);
    }
    ++done;
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (g_opt.rank == 0) Raw(Bar(desc, done, shards.size(), elapsed));
  }
}

void CrashKvCache() {
  Log("Scheduler hit an exception: Traceback (most recent call last):");
  Raw("  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py\", "
      "line 2412, in run_scheduler_process");
  Raw("    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, "
      "dp_rank)");
  Raw("  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/"
      "model_runner.py\", line 1702, in init_memory_pool");
  Raw("    raise RuntimeError(");
  Raw("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.");
  Raw("");
  ::_exit(1);
}

// Title, parent-death signal, idle threads and fds of a scheduler process.
void BecomeScheduler() {
  std::string title = fmt::format("sglang::scheduler_TP{}", g_opt.rank);
  ::prctl(PR_SET_NAME, title.c_str(), 0, 0, 0);
  if (g_opt.scenario != "killed-ranks-survive") {
    // Die with the launcher (as SGLang's schedulers notice a dead parent) except in the scenario
    // that tests orphan cleanup.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::getppid() == 1) ::_exit(1);
  }
  ::signal(SIGPIPE, SIG_IGN);
  StartIdleThreads(ThreadsPerProcess() - 1);
  OpenExtraFds(g_opt.fds);
}

// imports, distributed_init and weight_load (with the scenarios that hang there).
void InitAndLoad() {
  const std::string& sc = g_opt.scenario;
  Spin(0.2 * J(0));  // "imports"
  Log("Init torch distributed begin.");
  if (sc == "hang-distributed-init") BlockForever();
  if (sc == "hang-rank1-distributed-init" && g_opt.rank == 1) BlockForever();
  Sleep(0.2 * J(1));
  // --pre-load: a realistic wait before the first byte is read (imports, NCCL rendezvous).
  if (g_opt.pre_load > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(g_opt.pre_load));
  }
  Log("Init torch distributed ends. elapsed=0.20 s, mem usage=0.32 GB");
  Log("Load weight begin. avail mem=78.68 GB");
  auto t0 = Clock::now();
  LoadWeights();
  // The ranks that finished wait for the one that hangs in a collective (futex) as NCCL's would.
  if (sc == "hang-rank1-distributed-init") BlockForever();
  // Even a cached checkpoint takes a moment to copy to the GPU.
  std::this_thread::sleep_until(t0 + std::chrono::duration<double>(0.3 * J(2) * g_opt.time_scale));
  double el = std::chrono::duration<double>(Clock::now() - t0).count();
  Log(
      fmt::format("Load weight end. elapsed={:.2f} s, type=LlamaForCausalLM, "
                  "dtype=torch.bfloat16, avail mem=62.10 GB, mem usage=16.58 GB.",
                  el));
}

// cuda_graph: four captures with rank 0's progress bar (hang-cuda-graph blocks in the first).
void CaptureCudaGraphs() {
  Log("Capture cuda graph begin. This can take up to several minutes. avail mem=14.10 GB");
  Log("Capture cuda graph bs [1, 2, 4, 8]");
  const int bs[] = {8, 4, 2, 1};
  auto c0 = Clock::now();
  for (int i = 0; i < 4; ++i) {
    if (g_opt.rank == 0) {
      Raw(
          fmt::format("Capturing batches (bs={} avail_mem=14.05 GB): {:3d}%|          | {}/4 "
                      "[00:00<00:00,  9.85it/s]",
                      bs[i], i * 25, i));
    }
    if (g_opt.scenario == "hang-cuda-graph") BlockForever();
    Sleep(0.1 * J(4));
  }
  if (g_opt.rank == 0) {
    Raw("Capturing batches (bs=1 avail_mem=13.60 GB): 100%|##########| 4/4 [00:00<00:00,  "
        "9.85it/s]");
  }
  double cel = std::chrono::duration<double>(Clock::now() - c0).count();
  Log(
      fmt::format("Capture cuda graph end. Time elapsed: {:.2f} s. mem usage=0.52 GB. avail "
                  "mem=13.58 GB.",
                  cel));
}

}  // namespace

void RankMain() {
  BecomeScheduler();
  InitAndLoad();
  if (g_opt.scenario == "crash-kv-cache") CrashKvCache();
  Sleep(0.1 * J(3));
  Log("KV Cache is allocated. #tokens: 412345, K size: 23.60 GB, V size: 23.60 GB");
  Log("Memory pool end. avail mem=14.20 GB");
  CaptureCudaGraphs();
  if (g_opt.rank == 0) {
    Log("max_total_num_tokens=412345, chunked_prefill_size=8192, max_prefill_tokens=16384, "
        "max_running_requests=4096, context_len=131072, available_gpu_mem=13.58 GB");
  }
  WriteAll(g_opt.status_fd, "ready\n");
  BlockForever();  // a ready scheduler idles until the launcher stops it
}

}  // namespace test_server
