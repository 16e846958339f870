// The /proc sampler against real processes: the spinup_test_server fixture in its hang, ready,
// slow-load and killed scenarios. Every test starts the server in its own process group and kills
// the whole group at the end, so nothing is left behind even when an assertion fails.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <numeric>
#include <thread>

#include <gtest/gtest.h>

#include "proc/health.h"
#include "proc/sampler.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using spinup::testing::BinaryDir;
using spinup::testing::ReadFile;
using spinup::testing::TempDir;

fs::path TestServer() { return BinaryDir() / "spinup_test_server"; }

// Runs the test server in a new process group; kills the group on destruction.
class ServerGroup {
 public:
  ServerGroup(std::vector<std::string> args, const fs::path& output) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      FILE* f = std::fopen(output.c_str(), "w");
      if (f != nullptr) {
        ::dup2(fileno(f), 1);
        ::dup2(fileno(f), 2);
      }
      // Nothing else of this test binary's: an earlier test's listening socket (cpp-httplib's
      // have no close-on-exec) would become one of the server's listening ports, the thing these
      // tests sample, and answer nothing (the cause of a rare "nothing answered /health" here).
      for (int fd = 3; fd < 4096; ++fd) ::close(fd);
      std::vector<std::string> argv = {TestServer().string()};
      argv.insert(argv.end(), args.begin(), args.end());
      argv.push_back("--max-lifetime");
      argv.push_back("60");
      std::vector<char*> c;
      for (auto& a : argv) c.push_back(a.data());
      c.push_back(nullptr);
      ::execv(c[0], c.data());
      ::_exit(127);
    }
    ::setpgid(pid_, pid_);  // also from here, so the group exists before we might kill it
  }
  ~ServerGroup() {
    ::kill(-pid_, SIGKILL);
    if (!status_) ::waitpid(pid_, nullptr, 0);
    // Survivors of the group (orphaned ranks) are no children of ours; wait until gone.
    for (int i = 0; i < 200 && ::kill(-pid_, 0) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  int pid() const { return pid_; }
  // The exit status once the main process ended (-N for signal N), or nullopt while it runs.
  std::optional<int> Reap() {
    if (status_) return status_;
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    }
    return status_;
  }
  bool GroupAlive() const { return ::kill(-pid_, 0) == 0; }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// Polls `cond` every 50 ms for up to `seconds`.
bool WaitFor(const std::function<bool()>& cond, double seconds = 15) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return cond();
}

std::vector<const ProcessSample*> Ranks(const Sample& s) {
  std::vector<const ProcessSample*> out;
  for (const auto& p : s.processes) {
    if (p.cmdline.starts_with("sglang::scheduler_TP")) out.push_back(&p);
  }
  return out;
}

proc::SamplerOptions LiveOptions() {
  proc::SamplerOptions o;
  o.ticks_per_second = ::sysconf(_SC_CLK_TCK);
  o.page_size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  return o;
}

TEST(ProcLive, HangInDistributedInitShowsFutexWaitsAndIdleCpu) {
  TempDir tmp;
  ServerGroup server({"--scenario", "hang-distributed-init", "--tp", "2", "--port", "0"},
                     tmp / "out.log");
  proc::ProcessTreeSampler sampler(LiveOptions());
  Sample s;
  // Hung = both ranks exist and every thread of theirs waits on a futex.
  bool hung = WaitFor([&] {
    sampler.SampleTree({server.pid()}, s);
    auto ranks = Ranks(s);
    if (ranks.size() != 2) return false;
    for (auto* r : ranks) {
      if (r->threads < 4 || r->threads_futex_wait != r->threads) return false;
    }
    return true;
  });
  ASSERT_TRUE(hung) << "ranks never blocked; output:\n" << ReadFile(tmp / "out.log");
  EXPECT_EQ(s.processes.size(), 3u);
  for (auto* r : Ranks(s)) {
    EXPECT_EQ(r->ppid, server.pid());
    EXPECT_EQ(r->comm, "sglang::schedul");  // comm is cut at 15 bytes, as for real schedulers
  }
  // The launcher waits in poll() on its rank pipes, like SGLang's.
  EXPECT_GT(s.processes[0].threads_poll_wait, 0);
  int futex = 0;
  for (const auto& p : s.processes) futex += p.threads_futex_wait;
  EXPECT_GE(futex, 8);

  auto cpu = [](const Sample& x) {
    return std::accumulate(x.processes.begin(), x.processes.end(), 0.0,
                           [](double a, const ProcessSample& p) { return a + p.cpu_seconds; });
  };
  double before = cpu(s);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  Sample later;
  sampler.SampleTree({server.pid()}, later);
  ASSERT_EQ(later.processes.size(), 3u);
  EXPECT_LT(cpu(later) - before, 0.1) << "a hung tree should be idle";
  EXPECT_NE(ReadFile(tmp / "out.log").find("TP1] Init torch distributed begin."),
            std::string::npos);
  EXPECT_EQ(ReadFile(tmp / "out.log").find("Init torch distributed ends"), std::string::npos);
}

TEST(ProcLive, HangInCudaGraphCaptureAfterLoad) {
  TempDir tmp;
  ServerGroup server(
      {"--scenario", "hang-cuda-graph", "--tp", "2", "--port", "0", "--threads", "30"},
      tmp / "out.log");
  proc::ProcessTreeSampler sampler(LiveOptions());
  Sample s;
  bool hung = WaitFor([&] {
    sampler.SampleTree({server.pid()}, s);
    auto ranks = Ranks(s);
    if (ranks.size() != 2) return false;
    for (auto* r : ranks) {
      if (r->threads != 10 || r->threads_futex_wait != r->threads) return false;
    }
    return ReadFile(tmp / "out.log").find("Capturing batches (bs=8") != std::string::npos;
  });
  ASSERT_TRUE(hung) << ReadFile(tmp / "out.log");
  std::string out = ReadFile(tmp / "out.log");
  EXPECT_NE(out.find("TP1] Load weight end."), std::string::npos);
  EXPECT_NE(out.find("TP0] Capture cuda graph begin."), std::string::npos);
  EXPECT_EQ(out.find("Capture cuda graph end"), std::string::npos);
  EXPECT_FALSE(s.processes.empty());
  EXPECT_TRUE(s.processes[0].listening_ports.empty());  // never got to bind the port
  int threads = 0;
  for (const auto& p : s.processes) threads += p.threads;
  EXPECT_EQ(threads, 30);  // --threads is the whole tree
  // SIGTERM before ready: ranks killed, the main process dies of the signal.
  ::kill(server.pid(), SIGTERM);
  EXPECT_TRUE(WaitFor([&] { return server.Reap().has_value(); }, 10));
  EXPECT_EQ(server.Reap(), std::optional<int>(-SIGTERM));
  EXPECT_TRUE(WaitFor([&] { return !server.GroupAlive(); }, 10));
}

TEST(ProcLive, CompilerChildrenAreCounted) {
  // A JIT-compile phase as spinup sees it: compiler processes below the server.
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/bash", "bash", "-c",
            "(exec -a ptxas sleep 30) & (exec -a /usr/bin/ninja sleep 30) & sleep 30 & wait",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  proc::ProcessTreeSampler sampler(LiveOptions());
  Sample s;
  bool found = WaitFor([&] {
    sampler.SampleTree({pid}, s);
    return s.compiler_processes == 2 && s.processes.size() == 4;
  });
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ASSERT_TRUE(found) << "compilers seen: " << s.compiler_processes << " of " << s.processes.size()
                     << " processes";
  int flagged = 0;
  for (const auto& p : s.processes) flagged += p.compiler ? 1 : 0;
  EXPECT_EQ(flagged, 2);
}

TEST(ProcLive, ReplayPrintsACorpusLog) {
  auto shared = spinup::testing::SharedDir();
  if (!shared) GTEST_SKIP() << "../shared (the corpus) is absent";
  fs::path log = *shared / "corpus" / "008-sglang-ready-none.log";
  if (!fs::exists(log)) GTEST_SKIP() << log << " is absent";
  auto r = spinup::testing::RunProgram(
      {TestServer().string(), "--replay", log.string(), "--time-scale", "0"}, "", 30);
  EXPECT_EQ(r.exit_code, 0);
  std::string want = ReadFile(log);
  if (!want.empty() && want.back() != '\n') want += '\n';
  EXPECT_EQ(r.err, want);
}

TEST(ProcLive, ReadyListensAndAnswersHealth) {
  TempDir tmp;
  ServerGroup server({"--scenario", "healthy", "--tp", "2", "--port", "0"}, tmp / "out.log");
  proc::ProcessTreeSampler sampler(LiveOptions());
  Sample s;
  uint16_t port = 0;
  ASSERT_TRUE(WaitFor([&] {
    sampler.SampleTree({server.pid()}, s);
    if (s.processes.empty() || s.processes[0].listening_ports.empty()) return false;
    port = s.processes[0].listening_ports[0];
    return true;
  })) << ReadFile(tmp / "out.log");
  EXPECT_TRUE(sampler.PortListening(port, server.pid()));
  proc::HealthProbeOptions probe;
  probe.port = port;
  // Generous: this once failed with nothing answering for 15 s while two other builds loaded
  // the 2-core machine (not reproduced alone).
  probe.connect_timeout = std::chrono::milliseconds(2000);
  probe.read_timeout = std::chrono::milliseconds(3000);
  std::optional<int> status;
  ASSERT_TRUE(WaitFor(
      [&] {
        status = proc::ProbeHealth(probe);
        return status == 200;
      },
      40))
      << "last status " << status.value_or(-1);
  EXPECT_NE(ReadFile(tmp / "out.log").find("The server is fired up and ready to roll!"),
            std::string::npos);
  EXPECT_EQ(Ranks(s).size(), 2u);
  // SIGTERM stops the server and its ranks.
  ::kill(server.pid(), SIGTERM);
  EXPECT_TRUE(WaitFor([&] { return server.Reap().has_value(); }, 10));
  EXPECT_EQ(server.Reap(), std::optional<int>(0));
  EXPECT_TRUE(WaitFor([&] { return !server.GroupAlive(); }, 10));
}

TEST(ProcLive, SlowLoadShowsOpenShardsWithOffsets) {
  TempDir tmp;
  fs::path model = tmp / "model";
  auto gen = spinup::testing::RunProgram({TestServer().string(), "--generate-model", model.string(),
                                          "--model-bytes", "4000000", "--shards", "2"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  ServerGroup server({"--scenario", "slow", "--tp", "1", "--port", "0", "--model", model.string(),
                      "--read-bw", "1M"},
                     tmp / "out.log");
  proc::SamplerOptions o = LiveOptions();
  o.model_dir = model;
  proc::ProcessTreeSampler sampler(o);
  Sample s;
  const ProcessSample* rank = nullptr;
  ASSERT_TRUE(WaitFor([&] {
    sampler.SampleTree({server.pid()}, s);
    auto ranks = Ranks(s);
    rank = ranks.empty() ? nullptr : ranks[0];
    return rank != nullptr && !rank->model_files.empty() && rank->model_files[0].offset > 0;
  })) << ReadFile(tmp / "out.log");
  const auto& f = rank->model_files[0];
  EXPECT_TRUE(f.path.starts_with(fs::canonical(model).string())) << f.path;
  EXPECT_TRUE(f.path.ends_with(".safetensors")) << f.path;
  EXPECT_EQ(f.size, fs::file_size(f.path));
  EXPECT_LE(f.offset, f.size);
  EXPECT_GT(rank->rchar, 0u);
  EXPECT_EQ(sampler.ModelPathOf({server.pid()}), model.string());
}

TEST(ProcLive, KilledMainLeavesRanksAlive) {
  TempDir tmp;
  ServerGroup server({"--scenario", "killed-ranks-survive", "--tp", "2", "--port", "0"},
                     tmp / "out.log");
  ASSERT_TRUE(WaitFor([&] { return server.Reap().has_value(); }, 15));
  EXPECT_EQ(server.Reap(), std::optional<int>(-SIGKILL));
  // The ranks are orphans now: still in the group, no longer children of the main process.
  EXPECT_TRUE(server.GroupAlive());
}

TEST(ProcLive, CrashAtKvCacheExitsOne) {
  TempDir tmp;
  auto r = spinup::testing::RunProgram({TestServer().string(), "--scenario", "crash-kv-cache",
                                        "--tp", "2", "--port", "0", "--max-lifetime", "60"},
                                       "", 30);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("Not enough memory. Please try to increase --mem-fraction-static"),
            std::string::npos);
  EXPECT_NE(r.err.find("scheduler died during initialization (exit code: 1)"), std::string::npos);
  // crash-loop with a state file crashes the first N runs and counts them.
  fs::path state = tmp / "runs";
  for (int i = 0; i < 2; ++i) {
    auto c = spinup::testing::RunProgram(
        {TestServer().string(), "--scenario", "crash-loop", "--state-file", state.string(),
         "--fail-first", "2", "--port", "0", "--max-lifetime", "60"},
        "", 30);
    EXPECT_EQ(c.exit_code, 1);
  }
  EXPECT_EQ(ReadFile(state), "2\n");
}

}  // namespace
}  // namespace spinup
