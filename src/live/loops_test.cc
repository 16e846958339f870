#include "live/loops.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "live/process_tree.h"
#include "live_fakes.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::KeywordModel;
using testing::RecordingSink;

std::vector<pid_t> ReadPids(const std::filesystem::path& path) {
  std::vector<pid_t> pids;
  std::ifstream f(path);
  pid_t p;
  while (f >> p) pids.push_back(p);
  return pids;
}

RunOptions Options(std::vector<std::string> argv) {
  RunOptions o;
  o.argv = std::move(argv);
  o.grace = std::chrono::milliseconds(500);
  return o;
}

TEST(RunServerTest, ExitStatusIsTheServersOwnAndLinesReachTheModel) {
  SystemClock clock;
  KeywordModel model;
  RecordingSink sink;
  WatchOptions w;
  w.interval_s = 0.05;
  auto r = RunServer(Options({"/bin/sh", "-c", "echo loading; echo FATAL oom >&2; exit 7"}), w,
                     clock, model, nullptr, {&sink});
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_FALSE(r.ended_by_watch);
  EXPECT_NE(std::find(model.lines.begin(), model.lines.end(), "loading"), model.lines.end());
  EXPECT_NE(std::find(model.lines.begin(), model.lines.end(), "FATAL oom"), model.lines.end());
  EXPECT_TRUE(sink.finished);
  EXPECT_EQ(sink.final_verdict.state, State::kCrashed);
}

TEST(RunServerTest, KilledBySignalIs128PlusN) {
  SystemClock clock;
  KeywordModel model;
  WatchOptions w;
  w.interval_s = 0.05;
  auto r = RunServer(Options({"/bin/sh", "-c", "kill -KILL $$"}), w, clock, model, nullptr, {});
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
}

TEST(RunServerTest, MissingCommandIsAnError) {
  SystemClock clock;
  KeywordModel model;
  auto r = RunServer(Options({"/nonexistent/spinup-server"}), {}, clock, model, nullptr, {});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.error.find("/nonexistent/spinup-server"), std::string::npos);
}

TEST(RunServerTest, RanksThatOutliveTheServerAreEnded) {
  testing::TempDir dir;
  auto pids = dir / "pids";
  // Two "ranks": one in the group, one that left it with setsid; then the server dies.
  std::string script = "sleep 60 & echo $! >> " + pids.string() +
                       "; setsid sleep 60 & echo $! >> " + pids.string() +
                       "; sleep 0.2; echo FATAL; exit 1";
  SystemClock clock;
  KeywordModel model;
  WatchOptions w;
  w.interval_s = 0.05;
  auto r = RunServer(Options({"/bin/sh", "-c", script}), w, clock, model, nullptr, {});
  EXPECT_EQ(r.exit_code, 1);
  auto ranks = ReadPids(pids);
  ASSERT_EQ(ranks.size(), 2u);
  for (pid_t p : ranks) EXPECT_FALSE(ProcessAlive("/proc", p)) << p;
}

TEST(RunServerTest, UntilVerdictEndsAStalledServerAndItsTree) {
  testing::TempDir dir;
  auto pids = dir / "pids";
  std::string script = "trap '' TERM; sleep 60 & echo $! >> " + pids.string() +
                       "; echo begin; while true; do sleep 1; done";
  SystemClock clock;
  KeywordModel model(300);  // stalled after 0.3 s without a line
  WatchOptions w;
  w.interval_s = 0.05;
  w.until = Until::kVerdict;
  RecordingSink sink;
  auto r = RunServer(Options({"/bin/sh", "-c", script}), w, clock, model, nullptr, {&sink});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(r.ended_by_watch);
  EXPECT_EQ(sink.final_verdict.state, State::kStalled);
  // The shell ignored SIGTERM: it needed the SIGKILL after the grace period.
  EXPECT_GE(r.killed_after_grace, 0);
  for (pid_t p : ReadPids(pids)) EXPECT_FALSE(ProcessAlive("/proc", p)) << p;
}

TEST(RunServerTest, LogFileGetsTheOutputToo) {
  testing::TempDir dir;
  RunOptions o = Options({"/bin/sh", "-c", "echo out; echo err >&2"});
  o.log_file = (dir / "server.log").string();
  SystemClock clock;
  KeywordModel model;
  WatchOptions w;
  w.interval_s = 0.05;
  auto r = RunServer(o, w, clock, model, nullptr, {});
  EXPECT_EQ(r.exit_code, 0);
  std::string log = testing::ReadFile(dir / "server.log");
  EXPECT_NE(log.find("out\n"), std::string::npos);
  EXPECT_NE(log.find("err\n"), std::string::npos);
}

// A clock that moves one second every time it is read: the loop's own reads drive it, so the
// test needs no sleeping and asserts no wall time.
class SteppingClock final : public Clock {
 public:
  int64_t NowMs() override { return now_ += 1000; }
  int64_t now_ = 1'700'000'000'000;
};

// Issue 11 item 14: --timeout was checked once per interval (--interval 3s --timeout 500ms ran
// 3.2 s). The loops now wake for the deadline.
TEST(RunWatchLoopTest, TimeoutShorterThanTheIntervalEndsTheWatchAtTheTimeout) {
  SteppingClock clock;
  KeywordModel model;
  WatchOptions w;
  w.interval_s = 3600;
  w.timeout_s = 5;
  Watcher watcher(w, clock, model, nullptr, {});
  watcher.AddSource(std::make_unique<testing::ScriptedSource>());
  const int64_t start = clock.now_;
  WatchEnd end = RunWatchLoop(watcher, clock);
  EXPECT_EQ(end.exit_code, 4);
  EXPECT_EQ(end.reason, "timeout");
  // Ended within a few clock reads of the deadline, not at the next interval's tick.
  EXPECT_LT(clock.now_ - start, 60'000);
}

TEST(RunServerTest, TimeoutShorterThanTheIntervalEndsTheRunAtTheTimeout) {
  SteppingClock clock;
  KeywordModel model;
  WatchOptions w;
  w.interval_s = 3600;
  w.timeout_s = 5;
  const int64_t start = clock.now_;
  auto r = RunServer(Options({"/bin/sh", "-c", "sleep 30"}), w, clock, model, nullptr, {});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_TRUE(r.ended_by_watch);
  EXPECT_LT(clock.now_ - start, 60'000);
}

TEST(FindDescendantsTest, FindsChildrenAndGrandchildren) {
  testing::TempDir dir;
  auto pids = dir / "pids";
  pid_t child = ::fork();
  if (child == 0) {
    ::execl("/bin/sh", "sh", "-c", ("sleep 30 & echo $! > " + pids.string() + "; wait").c_str(),
            nullptr);
    ::_exit(127);
  }
  std::vector<pid_t> grand;
  for (int i = 0; i < 100 && grand.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    grand = ReadPids(pids);
  }
  ASSERT_EQ(grand.size(), 1u);
  auto found = FindDescendants("/proc", ::getpid());
  EXPECT_TRUE(found.count(child));
  EXPECT_TRUE(found.count(grand[0]));
  KillTreeOptions o;
  o.grace = std::chrono::milliseconds(500);
  EndProcessTree(::getpid(), 0, o);
  EXPECT_FALSE(ProcessAlive("/proc", child));
  EXPECT_FALSE(ProcessAlive("/proc", grand[0]));
}

}  // namespace
}  // namespace spinup
