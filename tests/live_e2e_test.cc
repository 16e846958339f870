// End-to-end: `spinup run` and `spinup watch --pid` on the stand-in server (tools/
// spinup_test_server, a test fixture) in every scenario, with real processes: the verdict, its
// evidence, the exit code, and that no process of the server's tree is left alive afterwards.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "json_events.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path TestServer() { return testing::BinaryDir() / "spinup_test_server"; }

using testing::FinalVerdict;

std::vector<json> Events(const std::string& text) { return testing::JsonEvents(text); }

std::set<int> SeenPids(const std::vector<json>& events) {
  std::set<int> pids;
  for (const auto& e : events) {
    if (e["type"] != "signal") continue;
    for (const auto& p : e["processes"]) pids.insert(p["pid"].get<int>());
  }
  return pids;
}

bool Alive(int pid) {
  // A process that exits between the open and the read fails the read (ESRCH), which libstdc++'s
  // stream reports by throwing: that process is gone.
  std::string text;
  try {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    return false;
  }
  auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

void ExpectNoneAlive(const std::set<int>& pids) {
  for (int pid : pids) EXPECT_FALSE(Alive(pid)) << "process " << pid << " of the tree survived";
}

bool HasState(const std::vector<json>& events, const std::string& state) {
  for (const auto& e : events) {
    if (e["type"] == "verdict" && e["state"] == state) return true;
  }
  return false;
}

class LiveE2ETest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(TestServer())) GTEST_SKIP() << "spinup_test_server not built";
    model_ = dir_ / "model";
    auto r = testing::RunProgram(
        {TestServer().string(), "--generate-model", model_.string(), "--model-bytes", "8000000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    port_ = testing::FreePort();
  }
  std::vector<std::string> Server(const std::string& scenario) const {
    return {TestServer().string(),
            "--scenario",
            scenario,
            "--model",
            model_.string(),
            "--port",
            std::to_string(port_),
            "--tp",
            "2",
            "--max-lifetime",
            "60"};
  }
  // spinup run --json with small intervals; the rest of the flags from the test.
  testing::ProcessResult Run(const std::string& scenario, std::vector<std::string> flags) const {
    std::vector<std::string> args = {"run", "--json",   "--interval", "0.2s", "--kill-grace",
                                     "1s",  "--no-gpu", "--timeout",  "20s"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("--");
    for (auto& a : Server(scenario)) args.push_back(a);
    return testing::RunSpinup(args, "", 40);
  }
  testing::TempDir dir_;
  fs::path model_;
  int port_ = 0;
};

TEST_F(LiveE2ETest, RunHealthyReachesReadyAndEndsTheTree) {
  auto r = Run("healthy", {"--until", "ready", "--port", std::to_string(port_)});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FinalVerdict(ev)["state"], "ready");
  // The server's own output passed through (SGLang lines on stderr).
  EXPECT_NE(r.err.find("The server is fired up and ready to roll!"), std::string::npos);
  bool weight_load_phase = false, measured = false;
  for (const auto& e : ev) {
    weight_load_phase |= e["type"] == "phase" && e["phase"] == "weight_load";
    measured |= e["type"] == "progress" && e["source"] == "measured" &&
                e["bytes_total"].is_number() && e["bytes_total"].get<uint64_t>() >= 8000000;
  }
  EXPECT_TRUE(weight_load_phase);
  EXPECT_TRUE(measured);
  auto pids = SeenPids(ev);
  EXPECT_GE(pids.size(), 3u);  // the launcher and two ranks
  ExpectNoneAlive(pids);
}

TEST_F(LiveE2ETest, RunSlowButProgressingIsNeverStalled) {
  auto r =
      Run("slow", {"--until", "verdict", "--stall-after", "3s", "--port", std::to_string(port_)});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FinalVerdict(ev)["state"], "ready");
  EXPECT_FALSE(HasState(ev, "stalled"));
  int bars = 0;
  for (const auto& e : ev) bars += e["type"] == "progress" ? 1 : 0;
  EXPECT_GE(bars, 2);  // it showed its progress along the way
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(LiveE2ETest, RunHungInDistributedInitIsStalledWithEvidence) {
  auto r = Run("hang-distributed-init", {"--until", "verdict", "--stall-after", "2s"});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "stalled");
  EXPECT_EQ(v["phase"], "distributed_init");
  EXPECT_FALSE(v["evidence"].empty());
  EXPECT_FALSE(v["findings"].empty());
  // The hang's signature: threads blocked in futex waits, CPU idle.
  EXPECT_NE(v.dump().find("futex"), std::string::npos) << v.dump(2);
  bool futex_threads = false;
  for (const auto& e : ev) {
    if (e["type"] == "signal" && e["totals"]["threads_futex_wait"].get<int>() > 0) {
      futex_threads = true;
    }
  }
  EXPECT_TRUE(futex_threads);
  // The evidence a person would otherwise gather by hand, measured on the real process tree.
  const std::string evidence = v["evidence"].dump();
  EXPECT_NE(evidence.find("no new log line for"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("threads in futex or poll wait"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("CPU "), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("Init torch distributed begin."), std::string::npos) << evidence;
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(LiveE2ETest, RunHungInCudaGraphCaptureIsStalled) {
  auto r = Run("hang-cuda-graph", {"--until", "verdict", "--stall-after", "2s"});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "stalled");
  EXPECT_EQ(v["phase"], "cuda_graph");
  EXPECT_FALSE(v["evidence"].empty());
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(LiveE2ETest, RunCrashAtKvAllocationExitsWithTheServersStatus) {
  auto r = Run("crash-kv-cache", {});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "crashed");
  EXPECT_EQ(v["phase"], "kv_cache");
  ASSERT_FALSE(v["errors"].empty());
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(LiveE2ETest, RunOfARestartLoopIsACrashLoop) {
  // A supervisor that restarts the crashing server, as systemd's Restart=always would.
  std::string cmd;
  for (int i = 0; i < 3; ++i) {
    for (const auto& a : Server("crash-kv-cache")) cmd += "'" + a + "' ";
    cmd += "; ";
  }
  cmd += "exit 1";
  auto r = testing::RunSpinup({"run", "--json", "--interval", "0.2s", "--kill-grace", "1s",
                               "--no-gpu", "--timeout", "20s", "--", "/bin/sh", "-c", cmd},
                              "", 40);
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "crash_loop") << v.dump(2);
  EXPECT_GE(v["attempts"].get<int>(), 2);
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(LiveE2ETest, RunEndsRanksThatSurviveTheKilledServer) {
  auto r = Run("killed-ranks-survive", {});
  auto ev = Events(r.err);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  auto pids = SeenPids(ev);
  EXPECT_GE(pids.size(), 3u);
  ExpectNoneAlive(pids);
}

// Starts `spinup run` on a hanging server in the background (its events to a file) and returns
// its PID once the sampler has seen the server and both ranks.
pid_t StartRunInBackground(const std::vector<std::string>& server, const fs::path& events,
                           std::set<int>* pids) {
  pid_t spinup = ::fork();
  if (spinup == 0) {
    std::vector<std::string> args = {testing::SpinupExe().string(),
                                     "run",
                                     "--interval",
                                     "0.2s",
                                     "--kill-grace",
                                     "1s",
                                     "--no-gpu",
                                     "--events",
                                     events.string(),
                                     "--"};
    for (auto& a : server) args.push_back(a);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  for (int i = 0; i < 100 && pids->size() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    *pids = SeenPids(Events(testing::ReadFile(events)));
  }
  return spinup;
}

// Waits (bounded) for every process to be gone; a survivor after 15 s is a failure.
void ExpectAllGoneSoon(const std::set<int>& pids) {
  for (int i = 0; i < 300; ++i) {
    bool any = false;
    for (int p : pids) any |= Alive(p);
    if (!any) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ExpectNoneAlive(pids);
  for (int p : pids) ::kill(p, SIGKILL);  // do not leak them into the next test
}

TEST_F(LiveE2ETest, RunForwardsSigtermAndEndsTheTree) {
  // spinup itself is told to stop while the server hangs: it forwards the signal and cleans up.
  fs::path out = dir_ / "events.jsonl";
  std::set<int> pids;
  pid_t spinup = StartRunInBackground(Server("hang-distributed-init"), out, &pids);
  ASSERT_GE(pids.size(), 3u);
  ::kill(spinup, SIGTERM);
  int status = 0;
  ::waitpid(spinup, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  // The server exits on SIGTERM the way a server does: status 128+15 or its own code.
  EXPECT_NE(WEXITSTATUS(status), 127);
  ExpectNoneAlive(pids);
}

// Issue 11 item 9: a SIGKILLed `spinup run` (kill -9 on the PID the operator started, or the OOM
// killer on the process doing the work) left the server and its ranks running.
TEST_F(LiveE2ETest, RunKilledBySigkillTakesTheServerTreeWithIt) {
  fs::path out = dir_ / "events.jsonl";
  std::set<int> pids;
  pid_t spinup = StartRunInBackground(Server("hang-distributed-init"), out, &pids);
  ASSERT_GE(pids.size(), 3u);
  ::kill(spinup, SIGKILL);
  int status = 0;
  ::waitpid(spinup, &status, 0);
  ExpectAllGoneSoon(pids);
}

TEST_F(LiveE2ETest, RunWhoseWorkingProcessIsOomKilledTakesTheServerTreeWithIt) {
  fs::path out = dir_ / "events.jsonl";
  std::set<int> pids;
  pid_t spinup = StartRunInBackground(Server("hang-distributed-init"), out, &pids);
  ASSERT_GE(pids.size(), 3u);
  // The process that watches (the keeper's child, the server's parent): what the OOM killer picks.
  std::ifstream children("/proc/" + std::to_string(spinup) + "/task/" + std::to_string(spinup) +
                         "/children");
  int monitor = 0;
  children >> monitor;
  ASSERT_GT(monitor, 0) << "spinup run has no child";
  pids.erase(monitor);
  ::kill(monitor, SIGKILL);
  int status = 0;
  ::waitpid(spinup, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the keeper exits like the process it kept";
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  ExpectAllGoneSoon(pids);
}

// `spinup watch --pid` on a server started elsewhere (here: by the test, its log to a file).
class WatchPidTest : public LiveE2ETest {
 protected:
  pid_t Start(const std::string& scenario, const std::vector<std::string>& extra = {}) {
    log_ = dir_ / (scenario + ".log");
    // Created before the watch starts: a missing --log is a usage error.
    ::close(::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<std::string> args = Server(scenario);
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::setpgid(pid, pid);
    return pid;
  }
  // Ends what is left of the server (watch never kills what it watches) and reaps it.
  void Stop(pid_t pid, const std::set<int>& seen) {
    ::kill(-pid, SIGKILL);
    for (int p : seen) ::kill(p, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    // SIGKILL is delivered asynchronously: wait (briefly) until the test's own cleanup is done.
    for (int i = 0; i < 100; ++i) {
      bool any = false;
      for (int p : seen) any |= Alive(p);
      if (!any) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  testing::ProcessResult Watch(pid_t pid, std::vector<std::string> flags) {
    std::vector<std::string> args = {"watch",    "--pid",      std::to_string(pid),
                                     "--json",   "--interval", "0.2s",
                                     "--no-gpu", "--timeout",  "20s"};
    args.insert(args.end(), flags.begin(), flags.end());
    return testing::RunSpinup(args, "", 40);
  }
  fs::path log_;
};

TEST_F(WatchPidTest, HealthyIsReadyByLog) {
  pid_t pid = Start("healthy");
  auto r =
      Watch(pid, {"--log", log_.string(), "--port", std::to_string(port_), "--until", "ready"});
  auto ev = Events(r.out);
  EXPECT_TRUE(Alive(pid));  // watch never ends what it watches
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(FinalVerdict(ev)["state"], "ready");
}

TEST_F(WatchPidTest, HealthyWithoutALogIsReadyByPortAndHealthProbe) {
  pid_t pid = Start("healthy");
  auto r = Watch(pid, {"--port", std::to_string(port_), "--until", "ready"});
  auto ev = Events(r.out);
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(FinalVerdict(ev)["state"], "ready");
  bool answered = false;
  for (const auto& e : ev) {
    answered |=
        e["type"] == "signal" && e["port_listening"] == true && e["health_http_status"] == 200;
  }
  EXPECT_TRUE(answered);
}

TEST_F(WatchPidTest, HangIsStalledWithExitThree) {
  pid_t pid = Start("hang-distributed-init");
  auto r = Watch(pid, {"--log", log_.string(), "--until", "verdict", "--stall-after", "2s"});
  auto ev = Events(r.out);
  EXPECT_TRUE(Alive(pid));  // watch leaves the server alone
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "stalled");
  EXPECT_EQ(v["phase"], "distributed_init");
  EXPECT_FALSE(v["evidence"].empty());
  ExpectNoneAlive(SeenPids(ev));
}

TEST_F(WatchPidTest, HangInCudaGraphIsStalled) {
  pid_t pid = Start("hang-cuda-graph");
  auto r = Watch(pid, {"--log", log_.string(), "--until", "verdict", "--stall-after", "2s"});
  auto ev = Events(r.out);
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(FinalVerdict(ev)["state"], "stalled");
  EXPECT_EQ(FinalVerdict(ev)["phase"], "cuda_graph");
}

TEST_F(WatchPidTest, CrashIsCrashedWithItsErrorLines) {
  // Slowed down: the watch must find the server still running (a loaded machine takes a while to
  // start spinup), or --pid is a usage error.
  pid_t pid = Start("crash-kv-cache", {"--time-scale", "5"});
  auto r = Watch(pid, {"--log", log_.string()});
  auto ev = Events(r.out);
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json v = FinalVerdict(ev);
  EXPECT_EQ(v["state"], "crashed");
  EXPECT_FALSE(v["errors"].empty());
}

TEST_F(WatchPidTest, SlowIsNeverStalled) {
  pid_t pid = Start("slow");
  auto r = Watch(pid, {"--log", log_.string(), "--port", std::to_string(port_), "--until",
                       "verdict", "--stall-after", "3s"});
  auto ev = Events(r.out);
  Stop(pid, SeenPids(ev));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(HasState(ev, "stalled"));
}

TEST_F(WatchPidTest, KilledServerWithSurvivingRanksIsNotReady) {
  pid_t pid = Start("killed-ranks-survive");
  auto r = Watch(pid, {"--log", log_.string(), "--until", "verdict", "--stall-after", "2s"});
  auto ev = Events(r.out);
  Stop(pid, SeenPids(ev));
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(FinalVerdict(ev)["state"], "ready");
}

TEST_F(LiveE2ETest, WatchLogOfRepeatedCrashesIsACrashLoop) {
  fs::path log = dir_ / "restarts.log";
  for (int i = 0; i < 3; ++i) {
    auto args = Server("crash-kv-cache");
    args.push_back("--log-file");
    args.push_back(log.string());
    testing::RunProgram(args, "", 30);
  }
  auto r = testing::RunSpinup({"watch", "--log", log.string(), "--once"}, "", 30);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("crash_loop"), std::string::npos) << r.out;
}

// sd_notify with a real AF_UNIX datagram socket and NOTIFY_SOCKET pointing at it.
class NotifyE2ETest : public LiveE2ETest {
 protected:
  std::vector<std::string> RunNotified(const std::string& scenario, std::vector<std::string> flags,
                                       int* exit_code) {
    std::string path = (dir_ / "notify.sock").string();
    int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    std::atomic<bool> stop{false};
    std::vector<std::string> got;
    // Read while spinup runs: a datagram socket's queue is short and sd_notify blocks when full.
    std::thread reader([&] {
      char buf[4096];
      while (!stop) {
        timeval tv{0, 100000};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n > 0) got.emplace_back(buf, static_cast<size_t>(n));
      }
    });
    std::vector<std::string> args = {"/usr/bin/env",
                                     "NOTIFY_SOCKET=" + path,
                                     testing::SpinupExe().string(),
                                     "run",
                                     "--interval",
                                     "0.2s",
                                     "--kill-grace",
                                     "1s",
                                     "--no-gpu",
                                     "--timeout",
                                     "20s"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("--");
    for (auto& a : Server(scenario)) args.push_back(a);
    auto r = testing::RunProgram(args, "", 40);
    *exit_code = r.exit_code;
    stop = true;
    reader.join();
    ::close(fd);
    return got;
  }
};

TEST_F(NotifyE2ETest, HealthyStartSendsStatusReadyAndWatchdog) {
  int code = -1;
  auto got = RunNotified("healthy", {"--until", "ready", "--port", std::to_string(port_)}, &code);
  EXPECT_EQ(code, 0);
  bool status_phase = false, ready = false;
  int watchdogs = 0;
  for (const auto& m : got) {
    status_phase |= m.rfind("STATUS=", 0) == 0 && m.find("launch") == std::string::npos &&
                    m.find("STALLED") == std::string::npos;
    ready |= m == "READY=1";
    watchdogs += m == "WATCHDOG=1";
  }
  EXPECT_TRUE(status_phase);
  EXPECT_TRUE(ready);
  EXPECT_GE(watchdogs, 2);
}

TEST_F(NotifyE2ETest, StalledStartStopsTheWatchdog) {
  int code = -1;
  auto got =
      RunNotified("hang-distributed-init", {"--until", "verdict", "--stall-after", "2s"}, &code);
  EXPECT_EQ(code, 3);
  size_t stalled_at = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].rfind("STATUS=STALLED", 0) == 0) {
      stalled_at = i;
      break;
    }
  }
  ASSERT_LT(stalled_at, got.size()) << "no STATUS=STALLED";
  int before = 0;
  for (size_t i = 0; i < stalled_at; ++i) before += got[i] == "WATCHDOG=1";
  EXPECT_GE(before, 1);  // it pinged while the start progressed
  for (size_t i = stalled_at; i < got.size(); ++i) EXPECT_NE(got[i], "WATCHDOG=1");
  EXPECT_EQ(std::count(got.begin(), got.end(), "READY=1"), 0);
}

}  // namespace
}  // namespace spinup
