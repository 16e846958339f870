// spinup_test_server — a TEST FIXTURE, not an inference server.
//
// It stands in for an SGLang server in spinup's tests, benchmarks and `make demo`: it prints
// SGLang-style startup log lines (real current timestamps, rank tags `[YYYY-MM-DD HH:MM:SS TPn]`)
// and does the real work each phase stands for, so that spinup's /proc, port and health signals
// see what they would see on a real start:
//   - spawns --tp rank processes titled "sglang::scheduler_TPn" (argv[0] and comm, via exec and
//     prctl(PR_SET_NAME)), each with --threads worth of idle worker threads;
//   - weight_load: every rank read()s every *.safetensors file of --model (throttled to
//     --read-bw bytes/s per rank), so /proc/PID/io, fdinfo offsets and page cache move;
//   - hangs block every thread of every rank in real futex waits (condition variables) and print
//     nothing more, while the main process waits in poll() like SGLang's launcher;
//   - crashes print SGLang's traceback and exit 1; the main process then exits 1 as well;
//   - ready binds --port on 127.0.0.1 (cpp-httplib) and answers /health 200 after the warm-up;
//   - killed-ranks-survive SIGKILLs the main process while its ranks live on (orphans).
// Scenarios: healthy, slow, hang-distributed-init, hang-cuda-graph, crash-kv-cache, crash-loop,
// killed-ranks-survive. Timings are scaled by --time-scale; at 1.0 each scenario reaches its end
// state within a few seconds. Every process exits after --max-lifetime seconds (default 600) so
// a test that forgets to kill it leaves nothing behind for long. See docs/test-server.md.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <httplib.h>
#include <re2/re2.h>
#include <CLI/CLI.hpp>

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string scenario = "healthy";
  std::string model;
  int port = 30000;
  std::string host = "127.0.0.1";
  int tp = 1;
  double time_scale = 1.0;
  std::string loader = "read";  // "read" (read() calls) or "mmap" (map and touch pages)
  std::string read_bw;          // "" = unthrottled; e.g. "4M", "512K", "1G", "1000000"
  int threads = 0;              // total threads in the tree; 0 = 4 per process
  int fds = 0;  // extra open fds per process (/dev/null), like a CUDA process's device fds
  std::string log_file;
  std::string replay;
  double replay_max_gap = 2.0;
  std::string state_file;
  int fail_first = 0;
  std::string first_request = "ok";
  double pre_load = 0;
  std::string generate_model;
  uint64_t model_bytes = 8 << 20;
  int shards = 4;
  double max_lifetime = 600;
  // Each phase's duration is multiplied by a factor drawn around 1 (normal, sd = jitter, clamped
  // to [0.3, 3]) from the seed and the phase: every rank draws the same factors.
  double jitter = 0;
  uint64_t seed = 1;
  // Internal: set when this process is a rank child.
  int rank = -1;
  int status_fd = -1;
};

Options g_opt;
int g_log_fd = -1;
std::mutex g_log_mu;

std::string Timestamp() {
  time_t now = time(nullptr);
  tm t{};
  localtime_r(&now, &t);
  char buf[32];
  strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &t);
  return buf;
}

void WriteAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

// One write per line so lines of concurrent ranks never interleave mid-line.
void Raw(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  std::string s = line + "\n";
  WriteAll(2, s);
  if (g_log_fd >= 0) WriteAll(g_log_fd, s);
}

std::string RankTag() {
  if (g_opt.rank < 0 || g_opt.tp <= 1) return "";
  return fmt::format(" TP{}", g_opt.rank);
}

// "[2026-11-29 14:30:12 TP0] message" (rank tag only with tp > 1, as in SGLang).
void Log(const std::string& msg) { Raw(fmt::format("[{}{}] {}", Timestamp(), RankTag(), msg)); }

void Sleep(double seconds) {
  if (seconds <= 0) return;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds * g_opt.time_scale));
}

// The --jitter factor of one phase (0 imports, 1 distributed_init, 2 weight_load, 3 kv_cache,
// 4 cuda_graph, 5 http_start).
double J(int phase) {
  if (g_opt.jitter <= 0) return 1.0;
  std::mt19937_64 rng(g_opt.seed * 1000003u + static_cast<uint64_t>(phase));
  std::normal_distribution<double> d(1.0, g_opt.jitter);
  return std::clamp(d(rng), 0.3, 3.0);
}

// Busy CPU for a while (imports are CPU-bound).
void Spin(double seconds) {
  auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds * g_opt.time_scale);
  volatile uint64_t x = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 10000; ++i) x = x + static_cast<uint64_t>(i);
  }
}

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

// Threads that sit in futex waits forever, like a torch/NCCL thread pool with nothing to do.
std::mutex g_idle_mu;
std::condition_variable g_idle_cv;
bool g_never = false;

void IdleThread() {
  std::unique_lock<std::mutex> lock(g_idle_mu);
  g_idle_cv.wait(lock, [] { return g_never; });
}

void StartIdleThreads(int n) {
  for (int i = 0; i < n; ++i) std::thread(IdleThread).detach();
}

// Extra open fds (never closed), so fd scans cost what they cost on a real server.
void OpenExtraFds(int n) {
  for (int i = 0; i < n; ++i) ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

// The hang: the calling thread joins the others in a futex wait that nothing ends.
[[noreturn]] void BlockForever() {
  std::unique_lock<std::mutex> lock(g_idle_mu);
  for (;;) g_idle_cv.wait(lock);
}

int ThreadsPerProcess() {
  int procs = g_opt.tp + 1;
  if (g_opt.threads <= 0) return 4;
  return std::max(1, g_opt.threads / procs);
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

// Reads every shard with read() (so fdinfo pos advances), throttled per rank.
void LoadWeights() {
  auto shards = Shards();
  auto bw = ParseRate(g_opt.read_bw);
  if (!bw && g_opt.scenario == "slow") bw = 2u << 20;  // the slow case: 2 MiB/s per rank
  auto start = std::chrono::steady_clock::now();
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
      // As safetensors' safe_open: map the file, touch every page (major faults when the page
      // cache is cold), keep the mapping, no fd offset to see.
      struct stat sb {};
      void* map = MAP_FAILED;
      if (::fstat(fd, &sb) == 0 && sb.st_size > 0) {
        map = ::mmap(nullptr, static_cast<size_t>(sb.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      }
      ::close(fd);
      if (map != MAP_FAILED) {
        const volatile char* p = static_cast<const char*>(map);
        size_t size = static_cast<size_t>(sb.st_size);
        volatile char sink = 0;
        for (size_t off = 0; off < size; off += 4096) {
          sink = static_cast<char>(sink + p[off]);
          total_read += std::min<size_t>(4096, size - off);
          if (bw && off % (256 << 10) == 0) {
            auto due = start + std::chrono::duration<double>(static_cast<double>(total_read) /
                                                             static_cast<double>(*bw));
            std::this_thread::sleep_until(due);
          }
        }
        ::munmap(map, size);
      }
    }
    for (;;) {
      if (g_opt.loader == "mmap") break;
      ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      total_read += static_cast<uint64_t>(n);
      if (bw) {
        auto due = start + std::chrono::duration<double>(static_cast<double>(total_read) /
                                                         static_cast<double>(*bw));
        std::this_thread::sleep_until(due);
      }
    }
    if (g_opt.loader != "mmap") ::close(fd);
    ++done;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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

// ---- rank process ----------------------------------------------------------------------------

[[noreturn]] void RankMain() {
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
  auto t0 = std::chrono::steady_clock::now();
  LoadWeights();
  // The ranks that finished wait for the one that hangs in a collective (futex) as NCCL's would.
  if (sc == "hang-rank1-distributed-init") BlockForever();
  // Even a cached checkpoint takes a moment to copy to the GPU.
  std::this_thread::sleep_until(t0 + std::chrono::duration<double>(0.3 * J(2) * g_opt.time_scale));
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Log(
      fmt::format("Load weight end. elapsed={:.2f} s, type=LlamaForCausalLM, "
                  "dtype=torch.bfloat16, avail mem=62.10 GB, mem usage=16.58 GB.",
                  el));
  if (sc == "crash-kv-cache") CrashKvCache();
  Sleep(0.1 * J(3));
  Log("KV Cache is allocated. #tokens: 412345, K size: 23.60 GB, V size: 23.60 GB");
  Log("Memory pool end. avail mem=14.20 GB");
  Log("Capture cuda graph begin. This can take up to several minutes. avail mem=14.10 GB");
  Log("Capture cuda graph bs [1, 2, 4, 8]");
  const int bs[] = {8, 4, 2, 1};
  auto c0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i) {
    if (g_opt.rank == 0) {
      Raw(
          fmt::format("Capturing batches (bs={} avail_mem=14.05 GB): {:3d}%|          | {}/4 "
                      "[00:00<00:00,  9.85it/s]",
                      bs[i], i * 25, i));
    }
    if (sc == "hang-cuda-graph") BlockForever();
    Sleep(0.1 * J(4));
  }
  if (g_opt.rank == 0) {
    Raw("Capturing batches (bs=1 avail_mem=13.60 GB): 100%|##########| 4/4 [00:00<00:00,  "
        "9.85it/s]");
  }
  double cel = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
  Log(
      fmt::format("Capture cuda graph end. Time elapsed: {:.2f} s. mem usage=0.52 GB. avail "
                  "mem=13.58 GB.",
                  cel));
  if (g_opt.rank == 0) {
    Log("max_total_num_tokens=412345, chunked_prefill_size=8192, max_prefill_tokens=16384, "
        "max_running_requests=4096, context_len=131072, available_gpu_mem=13.58 GB");
  }
  WriteAll(g_opt.status_fd, "ready\n");
  BlockForever();  // a ready scheduler idles until the launcher stops it
}

// ---- main process ----------------------------------------------------------------------------

std::vector<std::string> g_argv;  // our own arguments, passed on to the ranks

pid_t SpawnRank(int rank, int* read_fd) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int fd = p[1];
    if (fd == 3) {
      ::fcntl(3, F_SETFD, 0);
    } else {
      ::dup2(fd, 3);
    }
    std::vector<std::string> args;
    args.push_back(fmt::format("sglang::scheduler_TP{}", rank));
    for (size_t i = 1; i < g_argv.size(); ++i) args.push_back(g_argv[i]);
    args.push_back("--rank-child");
    args.push_back(std::to_string(rank));
    args.push_back("--status-fd");
    args.push_back("3");
    std::vector<char*> cargs;
    for (auto& a : args) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    ::execv("/proc/self/exe", cargs.data());
    ::_exit(127);
  }
  ::close(p[1]);
  *read_fd = p[0];
  return pid;
}

// Counts runs in --state-file; true when this run should crash (crash-loop scenario).
bool CrashThisRun() {
  if (g_opt.state_file.empty()) return true;
  int count = 0;
  {
    std::ifstream in(g_opt.state_file);
    in >> count;
  }
  ++count;
  {
    std::ofstream out(g_opt.state_file, std::ios::trunc);
    out << count << "\n";
  }
  return g_opt.fail_first <= 0 || count <= g_opt.fail_first;
}

struct Http {
  httplib::Server server;
  std::thread thread;
  std::atomic<bool> healthy{false};
  int port = 0;
};

int RunMain() {
  std::string& sc = g_opt.scenario;
  if (sc == "crash-loop") sc = CrashThisRun() ? "crash-kv-cache" : "healthy";
  // Ranks must inherit the resolved scenario.
  for (size_t i = 0; i + 1 < g_argv.size(); ++i) {
    if (g_argv[i] == "--scenario") g_argv[i + 1] = sc;
  }
  for (auto& a : g_argv) {
    if (a.starts_with("--scenario=")) a = "--scenario=" + sc;
  }

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  int sfd = ::signalfd(-1, &mask, SFD_CLOEXEC);
  ::signal(SIGPIPE, SIG_IGN);

  Log(
      fmt::format("server_args=ServerArgs(model_path='{}', tokenizer_path='{}', tp_size={}, "
                  "host='{}', port={}, mem_fraction_static=0.88, dist_init_addr=None, "
                  "load_format='auto')",
                  g_opt.model, g_opt.model, g_opt.tp, g_opt.host, g_opt.port));
  // The launcher takes the remainder so the tree has exactly --threads threads.
  int per_proc = ThreadsPerProcess();
  if (g_opt.threads > 0) per_proc += std::max(0, g_opt.threads - per_proc * (g_opt.tp + 1));
  StartIdleThreads(per_proc - 1);
  OpenExtraFds(g_opt.fds);

  std::vector<pid_t> ranks(static_cast<size_t>(g_opt.tp));
  std::vector<int> fds(ranks.size(), -1);
  for (int r = 0; r < g_opt.tp; ++r) {
    ranks[static_cast<size_t>(r)] = SpawnRank(r, &fds[static_cast<size_t>(r)]);
  }
  auto kill_ranks = [&](int sig) {
    for (pid_t p : ranks) {
      if (p > 0) ::kill(p, sig);
    }
    for (pid_t p : ranks) {
      if (p > 0) ::waitpid(p, nullptr, 0);
    }
  };

  if (sc == "killed-ranks-survive") {
    Sleep(0.8);
    Log("Received sigquit from a child process. It usually means the child failed.");
    ::raise(SIGKILL);
  }

  Http http;
  int ready_ranks = 0;
  bool ready = false;
  std::vector<std::string> partial(ranks.size());
  for (;;) {
    std::vector<pollfd> pfds;
    pfds.push_back({sfd, POLLIN, 0});
    for (int fd : fds) pfds.push_back({fd, POLLIN, 0});
    // SGLang's launcher polls its scheduler pipes every 5 s.
    int rc = ::poll(pfds.data(), pfds.size(), 5000);
    if (rc < 0 && errno != EINTR) break;
    if (rc <= 0) continue;
    if (pfds[0].revents & POLLIN) {
      signalfd_siginfo si{};
      if (::read(sfd, &si, sizeof(si)) > 0) {
        kill_ranks(SIGKILL);
        if (!ready) {
          // Before uvicorn runs, Python has no handler: the process dies of the signal.
          ::signal(static_cast<int>(si.ssi_signo), SIG_DFL);
          ::sigprocmask(SIG_UNBLOCK, &mask, nullptr);
          ::raise(static_cast<int>(si.ssi_signo));
        }
        // A running uvicorn shuts down gracefully and exits 0.
        Log("INFO:     Shutting down");
        Log("INFO:     Finished server process [" + std::to_string(::getpid()) + "]");
        if (http.port > 0) {
          http.server.stop();
          if (http.thread.joinable()) http.thread.join();
        }
        return 0;
      }
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i] < 0 || !(pfds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[256];
      ssize_t n = ::read(fds[i], buf, sizeof(buf));
      if (n > 0) {
        partial[i].append(buf, static_cast<size_t>(n));
        if (partial[i].find("ready\n") != std::string::npos) {
          partial[i].clear();
          ++ready_ranks;
        }
        continue;
      }
      // EOF: the rank died.
      ::close(fds[i]);
      fds[i] = -1;
      int status = 0;
      ::waitpid(ranks[i], &status, 0);
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      ranks[i] = -1;
      Log(
          fmt::format("Rank {} scheduler died during initialization (exit code: {}). If exit code "
                      "is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg` to check "
                      "for OOM errors.",
                      i, code));
      Log("Received sigquit from a child process. It usually means the child failed.");
      kill_ranks(SIGKILL);
      if (http.port > 0) {
        http.server.stop();
        if (http.thread.joinable()) http.thread.join();
      }
      return 1;
    }
    if (!ready && ready_ranks == g_opt.tp) {
      ready = true;
      http.server.Get("/health", [&](const httplib::Request&, httplib::Response& res) {
        res.status = http.healthy ? 200 : 503;
        res.set_content(http.healthy ? "" : "starting", "text/plain");
      });
      http.server.Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(
            R"({"object":"list","data":[{"id":"test-model","object":"model","owned_by":"sglang"}]})",
            "application/json");
      });
      // The first request: a one-token generation on SGLang's native endpoint and the OpenAI one.
      // --first-request fail answers 500, as a server whose first real forward pass fails.
      auto generate = [](bool openai) {
        return [openai](const httplib::Request& req, httplib::Response& res) {
          if (g_opt.first_request == "fail") {
            res.status = 500;
            res.set_content(
                R"({"error":{"message":"CUDA error: an illegal memory access was encountered","code":500}})",
                "application/json");
            Log("ERROR:    Exception in ASGI application: RuntimeError: CUDA error: an illegal "
                "memory access was encountered");
            return;
          }
          if (req.body.find("max_") == std::string::npos) {
            res.status = 400;
            res.set_content(R"({"error":"no max tokens"})", "application/json");
            return;
          }
          res.set_content(
              openai
                  ? R"({"id":"cmpl-1","object":"text_completion","model":"test-model","choices":[{"index":0,"text":"!","finish_reason":"length"}]})"
                  : R"({"text":"!","meta_info":{"prompt_tokens":1,"completion_tokens":1}})",
              "application/json");
        };
      };
      http.server.Post("/generate", generate(false));
      http.server.Post("/v1/completions", generate(true));
      http.server.Get("/get_model_info", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(R"({"model_path":"test-model","is_generation":true})", "application/json");
      });
      http.port = g_opt.port > 0
                      ? (http.server.bind_to_port(g_opt.host, g_opt.port) ? g_opt.port : -1)
                      : http.server.bind_to_any_port(g_opt.host);
      if (http.port <= 0) {
        Log(
            fmt::format("ERROR:    [Errno 98] error while attempting to bind on address ('{}', "
                        "{}): address already in use",
                        g_opt.host, g_opt.port));
        kill_ranks(SIGKILL);
        return 1;
      }
      http.thread = std::thread([&] { http.server.listen_after_bind(); });
      // stop() before the loop runs would be lost; wait until it runs.
      while (!http.server.is_running()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      Log(fmt::format("INFO:     Started server process [{}]", ::getpid()));
      Log("INFO:     Waiting for application startup.");
      Log("INFO:     Application startup complete.");
      Log(fmt::format("INFO:     Uvicorn running on http://{}:{} (Press CTRL+C to quit)",
                      g_opt.host, http.port));
      Sleep(0.1 * J(5));
      Log("INFO:     127.0.0.1:40312 - \"GET /get_model_info HTTP/1.1\" 200 OK");
      Log("Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, "
          "#running-req: 0, #queue-req: 0");
      Sleep(0.1);
      Log("INFO:     127.0.0.1:40326 - \"POST /generate HTTP/1.1\" 200 OK");
      http.healthy = true;
      Log("The server is fired up and ready to roll!");
    }
  }
  if (http.port > 0) {
    http.server.stop();
    if (http.thread.joinable()) http.thread.join();
  }
  kill_ranks(SIGKILL);
  return 1;
}

// --replay LOG: the log's lines, with the gaps between their timestamps scaled.
int Replay() {
  std::ifstream in(g_opt.replay);
  if (!in) {
    std::fprintf(stderr, "spinup_test_server: %s: cannot open\n", g_opt.replay.c_str());
    return 2;
  }
  // SGLang "[2026-01-02 03:04:05" or vLLM "INFO 01-02 03:04:05".
  RE2 sg(R"(^\[(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))");
  RE2 vl(R"(^(?:\([^)]*\) )?[A-Z]+ (\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))");
  std::optional<int64_t> last;
  std::string line;
  while (std::getline(in, line)) {
    int y = 2000, mo = 1, d = 1, h = 0, mi = 0, s = 0;
    bool has = RE2::PartialMatch(line, sg, &y, &mo, &d, &h, &mi, &s) ||
               RE2::PartialMatch(line, vl, &mo, &d, &h, &mi, &s);
    if (has) {
      int64_t t = ((((static_cast<int64_t>(y) * 12 + mo) * 31 + d) * 24 + h) * 60 + mi) * 60 + s;
      if (last && t > *last) {
        Sleep(std::min<double>(static_cast<double>(t - *last), g_opt.replay_max_gap));
      }
      last = t;
    }
    Raw(line);
  }
  return 0;
}

// --generate-model DIR: a small valid safetensors checkpoint (U8 tensors) plus config.json.
int GenerateModel() {
  fs::path dir = g_opt.generate_model;
  std::error_code ec;
  fs::create_directories(dir, ec);
  int shards = std::max(1, g_opt.shards);
  uint64_t per = std::max<uint64_t>(1, g_opt.model_bytes / static_cast<uint64_t>(shards));
  std::string index =
      "{\"metadata\":{\"total_size\":" + std::to_string(per * static_cast<uint64_t>(shards)) +
      "},\"weight_map\":{";
  for (int i = 0; i < shards; ++i) {
    std::string name = fmt::format("model-{:05d}-of-{:05d}.safetensors", i + 1, shards);
    std::string tensor = fmt::format("model.layers.{}.weight", i);
    std::string header = fmt::format(
        R"({{"{}":{{"dtype":"U8","shape":[{}],"data_offsets":[0,{}]}}}})", tensor, per, per);
    while (header.size() % 8 != 0) header += ' ';
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    uint64_t hlen = header.size();
    char len[8];
    for (int b = 0; b < 8; ++b) len[b] = static_cast<char>((hlen >> (8 * b)) & 0xFF);
    out.write(len, 8);
    out << header;
    std::vector<char> chunk(1 << 20);
    for (size_t k = 0; k < chunk.size(); ++k) chunk[k] = static_cast<char>((k * 131 + i) & 0xFF);
    for (uint64_t left = per; left > 0;) {
      uint64_t n = std::min<uint64_t>(left, chunk.size());
      out.write(chunk.data(), static_cast<std::streamsize>(n));
      left -= n;
    }
    index += fmt::format("{}\"{}\":\"{}\"", i ? "," : "", tensor, name);
  }
  index += "}}\n";
  std::ofstream(dir / "model.safetensors.index.json") << index;
  std::ofstream(dir / "config.json")
      << R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","torch_dtype":"bfloat16"})"
      << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  g_argv.assign(argv, argv + argc);
  CLI::App app{
      "spinup_test_server: a TEST FIXTURE that imitates an SGLang server's startup "
      "(see docs/test-server.md)"};
  Options& o = g_opt;
  app.add_option("--scenario", o.scenario, "scenario")
      ->check(CLI::IsMember({"healthy", "slow", "hang-distributed-init",
                             "hang-rank1-distributed-init", "hang-cuda-graph", "crash-kv-cache",
                             "crash-loop", "killed-ranks-survive"}));
  app.add_option("--model,--model-path", o.model,
                 "checkpoint directory whose *.safetensors "
                 "every rank reads");
  app.add_option("--port", o.port, "HTTP port on 127.0.0.1 (0: any free port)");
  app.add_option("--host", o.host, "HTTP address");
  app.add_option("--tp", o.tp, "rank processes")->check(CLI::Range(1, 64));
  app.add_option("--time-scale", o.time_scale, "multiply every phase duration")
      ->check(CLI::Range(0.0, 1000.0));
  app.add_option("--loader", o.loader, "weight_load: read (read() calls) or mmap")
      ->check(CLI::IsMember({"read", "mmap"}));
  app.add_option("--read-bw", o.read_bw,
                 "per-rank read rate, e.g. 4M (default: unthrottled; "
                 "2M for --scenario slow)");
  app.add_option("--threads", o.threads, "threads in the whole tree (0: 4 per process)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--fds", o.fds, "extra open fds per process (/dev/null)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--log-file", o.log_file, "also append every line to this file");
  app.add_option("--replay", o.replay, "print this log's lines with their timing scaled, exit");
  app.add_option("--replay-max-gap", o.replay_max_gap, "longest pause in --replay (s)");
  app.add_option("--state-file", o.state_file, "crash-loop: run counter file");
  app.add_option("--fail-first", o.fail_first, "crash-loop: crash the first N runs (0: all)");
  app.add_option("--generate-model", o.generate_model, "write a small checkpoint here and exit");
  app.add_option("--model-bytes", o.model_bytes, "--generate-model: total tensor bytes");
  app.add_option("--shards", o.shards, "--generate-model: shard count")->check(CLI::Range(1, 999));
  app.add_option("--first-request", o.first_request,
                 "ok: POST /generate and /v1/completions serve one token; fail: they answer 500")
      ->check(CLI::IsMember({"ok", "fail"}));
  app.add_option("--pre-load", o.pre_load,
                 "seconds every rank waits in distributed_init before reading (imports, NCCL)")
      ->check(CLI::Range(0.0, 600.0));
  app.add_option("--max-lifetime", o.max_lifetime, "every process exits after this many s");
  app.add_option("--jitter", o.jitter,
                 "vary each phase's duration around its mean (normal, this relative sd)")
      ->check(CLI::Range(0.0, 2.0));
  app.add_option("--seed", o.seed, "--jitter: the seed of this run's draws");
  app.add_option("--rank-child", o.rank)->group("");  // internal
  app.add_option("--status-fd", o.status_fd)->group("");
  CLI11_PARSE(app, argc, argv);

  if (o.max_lifetime > 0) ::alarm(static_cast<unsigned>(std::max(1.0, o.max_lifetime)));
  if (!o.log_file.empty()) {
    g_log_fd = ::open(o.log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }
  if (!o.generate_model.empty()) return GenerateModel();
  if (!o.replay.empty()) return Replay();
  if (o.rank >= 0) RankMain();
  // _exit: idle threads still wait on the global condition variable, whose destructor (run by
  // exit()) would block on them.
  ::_exit(RunMain());
}
