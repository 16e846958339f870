// End-to-end for issue 15 on the stand-in server (tools/spinup_test_server, a test fixture), with
// real processes and real HTTP: ready means serving (--probe generate), /livez and /readyz in each
// state, and the evidence gathered at a stall (a fake py-spy on PATH, and none).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
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

class ReadyE2ETest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(TestServer())) GTEST_SKIP() << "spinup_test_server not built";
    model_ = dir_ / "model";
    auto r = testing::RunProgram(
        {TestServer().string(), "--generate-model", model_.string(), "--model-bytes", "8000000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    port_ = testing::FreePort();
  }
  // spinup run --json ... -- spinup_test_server --scenario S ...; `path`: PATH for spinup.
  std::vector<std::string> RunArgs(const std::string& scenario, std::vector<std::string> flags,
                                   std::vector<std::string> server_flags,
                                   const std::string& path = "/usr/bin:/bin") const {
    std::vector<std::string> args = {"/usr/bin/env", "PATH=" + path, testing::SpinupExe().string(),
                                     "run",          "--json",       "--interval",
                                     "0.2s",         "--kill-grace", "1s",
                                     "--no-gpu",     "--timeout",    "30s"};
    args.insert(args.end(), flags.begin(), flags.end());
    for (const std::string& a :
         {std::string("--"), TestServer().string(), std::string("--scenario"), scenario,
          std::string("--model"), model_.string(), std::string("--port"), std::to_string(port_),
          std::string("--max-lifetime"), std::string("60")}) {
      args.push_back(a);
    }
    args.insert(args.end(), server_flags.begin(), server_flags.end());
    return args;
  }
  testing::TempDir dir_;
  fs::path model_;
  int port_ = 0;
};

TEST_F(ReadyE2ETest, ReadyOnlyOnceTheFirstRequestIsServed) {
  auto r = testing::RunProgram(
      RunArgs("healthy", {"--until", "ready", "--port", std::to_string(port_)}, {}), "", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json v = FinalVerdict(r.err);
  EXPECT_EQ(v["state"], "ready") << v.dump(2);
  ASSERT_TRUE(v["first_request_seconds"].is_number()) << v.dump(2);
  EXPECT_NE(v["evidence"].dump().find("POST /generate"), std::string::npos) << v.dump(2);
}

TEST_F(ReadyE2ETest, AFailingFirstRequestIsACrashInWarmup) {
  auto r = testing::RunProgram(
      RunArgs("healthy", {"--until", "verdict", "--port", std::to_string(port_)},
              {"--first-request", "fail"}),
      "", 60);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json v = FinalVerdict(r.err);
  EXPECT_EQ(v["state"], "crashed") << v.dump(2);
  EXPECT_EQ(v["phase"], "warmup");
  EXPECT_NE(v["errors"].dump().find("illegal memory access"), std::string::npos) << v.dump(2);
  // --probe health keeps the old meaning: the health check alone.
  port_ = testing::FreePort();
  r = testing::RunProgram(
      RunArgs("healthy", {"--until", "ready", "--port", std::to_string(port_), "--probe", "health"},
              {"--first-request", "fail"}),
      "", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// spinup run in the background with --metrics; the test asks its endpoint over HTTP.
class Background {
 public:
  explicit Background(const std::vector<std::string>& argv) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
      std::vector<char*> a;
      for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
      a.push_back(nullptr);
      ::execv(a[0], a.data());
      ::_exit(127);
    }
  }
  ~Background() {
    ::kill(pid_, SIGTERM);
    int st = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &st, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, &st, 0);
  }

 private:
  pid_t pid_ = -1;
};

// Polls GET path until it answers `status` (true) or 30 s pass (false).
bool Answers(int port, const std::string& path, int status, std::string* body = nullptr) {
  for (int i = 0; i < 300; ++i) {
    httplib::Client c("127.0.0.1", port);
    c.set_connection_timeout(1);
    c.set_read_timeout(2);
    if (auto res = c.Get(path.c_str()); res && res->status == status) {
      if (body) *body = res->body;
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST_F(ReadyE2ETest, LivezAndReadyzInEachState) {
  // Progressing (a 4 s pre-load), then ready.
  {
    int metrics = testing::FreePort();
    Background run(RunArgs("healthy",
                           {"--metrics", std::to_string(metrics), "--port", std::to_string(port_)},
                           {"--pre-load", "4"}));
    std::string body;
    EXPECT_TRUE(Answers(metrics, "/livez", 200, &body));
    EXPECT_TRUE(Answers(metrics, "/readyz", 503, &body)) << body;
    EXPECT_TRUE(Answers(metrics, "/readyz", 200, &body)) << body;
    EXPECT_EQ(body.rfind("ready", 0), 0u) << body;
    EXPECT_TRUE(Answers(metrics, "/livez", 200));
  }
  // Stalled: alive no more.
  {
    port_ = testing::FreePort();
    int metrics = testing::FreePort();
    Background run(RunArgs("hang-distributed-init",
                           {"--metrics", std::to_string(metrics), "--stall-after", "1s"}, {}));
    std::string body;
    EXPECT_TRUE(Answers(metrics, "/livez", 503, &body));
    EXPECT_EQ(body.rfind("stalled", 0), 0u) << body;
    EXPECT_TRUE(Answers(metrics, "/readyz", 503));
  }
  // Crashed (in warmup: the first request failed while the server still runs).
  {
    port_ = testing::FreePort();
    int metrics = testing::FreePort();
    Background run(RunArgs("healthy",
                           {"--metrics", std::to_string(metrics), "--port", std::to_string(port_)},
                           {"--first-request", "fail"}));
    std::string body;
    EXPECT_TRUE(Answers(metrics, "/livez", 503, &body));
    EXPECT_EQ(body.rfind("crashed", 0), 0u) << body;
    EXPECT_TRUE(Answers(metrics, "/readyz", 503));
  }
}

// Issue 11, item 2: a client trickling a request to the metrics endpoint kept `spinup run --
// sleep 3` from exiting for 28 s. Now the server's exit is never held up by a client.
TEST(MetricsEndpointE2E, ASlowClientDoesNotDelayExit) {
  int metrics = testing::FreePort();
  pid_t pid = ::fork();
  if (pid == 0) {
    int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::string exe = testing::SpinupExe().string(), port = std::to_string(metrics);
    ::execl(exe.c_str(), exe.c_str(), "run", "--no-gpu", "--metrics", port.c_str(), "--",
            "/bin/sleep", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_TRUE(Answers(metrics, "/livez", 200));
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(metrics));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ::send(fd, "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL);
  // Trickle a byte every 100 ms until spinup exits; 15 s is far above its ~1 s and far below 28.
  int st = 0;
  pid_t done = 0;
  for (int i = 0; i < 150 && done == 0; ++i) {
    ::send(fd, "X", 1, MSG_NOSIGNAL);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    done = ::waitpid(pid, &st, WNOHANG);
  }
  ::close(fd);
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &st, 0);
  }
  EXPECT_EQ(done, pid) << "spinup run was still running 15 s after its server exited";
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

// A fake py-spy: all-reduce for every rank but TP1, which it finds in distributed init.
void WriteFakePySpy(const fs::path& dir) {
  fs::create_directories(dir);
  testing::WriteFile(dir / "py-spy", R"SH(#!/bin/sh
pid="$3"
title=$(tr '\0' ' ' < /proc/$pid/cmdline)
echo "Process $pid: $title"
echo "Python v3.10.12 (/usr/bin/python3.10)"
echo
echo "Thread $pid (idle): \"MainThread\""
case "$title" in
  *TP1*) echo "    init_torch_distributed (sglang/srt/model_executor/model_runner.py:300)" ;;
  *TP*) echo "    all_reduce (torch/distributed/distributed_c10d.py:2050)"
        echo "    load_model (sglang/srt/model_executor/model_runner.py:410)" ;;
  *) echo "    wait (multiprocessing/connection.py:930)" ;;
esac
)SH");
  ::chmod((dir / "py-spy").c_str(), 0755);
}

TEST_F(ReadyE2ETest, StallEvidenceWithPySpyNamesTheRankBehind) {
  fs::path bin = dir_ / "bin";
  WriteFakePySpy(bin);
  auto r = testing::RunProgram(
      RunArgs("hang-rank1-distributed-init", {"--until", "verdict", "--stall-after", "2s"},
              {"--tp", "3"}, bin.string() + ":/usr/bin:/bin"),
      "", 90);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  json v = FinalVerdict(r.err);
  ASSERT_TRUE(v["stall_evidence"].is_object()) << v.dump(2);
  const json& e = v["stall_evidence"];
  EXPECT_EQ(e["behind"], "TP1 has not left distributed_init; TP0, TP2 are waiting in all-reduce")
      << e.dump(2);
  int dumped = 0;
  for (const auto& rank : e["ranks"]) {
    if (rank["source"] == "py-spy") ++dumped;
  }
  EXPECT_GE(dumped, 3) << e.dump(2);
  EXPECT_EQ(v["evidence"][0], e["behind"]);
}

TEST_F(ReadyE2ETest, StallEvidenceWithoutPySpyCountsFutexWaits) {
  auto r =
      testing::RunProgram(RunArgs("hang-distributed-init",
                                  {"--until", "verdict", "--stall-after", "2s"}, {"--tp", "2"}),
                          "", 90);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  json v = FinalVerdict(r.err);
  ASSERT_TRUE(v["stall_evidence"].is_object()) << v.dump(2);
  const json& e = v["stall_evidence"];
  EXPECT_NE(e["notes"].dump().find("py-spy is not on PATH"), std::string::npos);
  bool futex = false;
  for (const auto& rank : e["ranks"]) {
    EXPECT_NE(rank["source"], "py-spy");
    for (const auto& w : rank["wait_channels"]) {
      futex |= w["wchan"].get<std::string>().find("futex") != std::string::npos;
    }
  }
  EXPECT_TRUE(futex) << e.dump(2);
}

}  // namespace
}  // namespace spinup
