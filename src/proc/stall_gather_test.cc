#include "proc/stall_gather.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "test_util.h"

namespace spinup::proc {
namespace {

namespace fs = std::filesystem;

// A fixture /proc: PID 100 (TP0) with two futex threads whose stacks are readable, PID 101 (TP1)
// whose stack files cannot be read (a directory where the file should be).
class StallGatherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int tid : {100, 102}) {
      fs::path t = dir_ / "100" / "task" / std::to_string(tid);
      fs::create_directories(t);
      testing::WriteFile(t / "wchan", "futex_wait_queue");
      testing::WriteFile(t / "stack",
                         "[<0>] futex_wait_queue+0x60/0x90\n[<0>] futex_wait+0x1/0x2\n");
    }
    fs::path t = dir_ / "101" / "task" / "101";
    fs::create_directories(t / "stack");
    testing::WriteFile(t / "wchan", "do_epoll_wait");
    options_.proc_root = dir_.path().string();
    options_.per_pid_limit = std::chrono::milliseconds(2000);
  }
  std::vector<GatherTarget> targets_{{100, "TP0"}, {101, "TP1"}};
  std::vector<RankPhase> ranks_{{"TP0", Phase::kWeightLoad, std::nullopt},
                                {"TP1", Phase::kDistributedInit, std::nullopt}};
  testing::TempDir dir_;
  GatherOptions options_;
};

TEST_F(StallGatherTest, WithoutPySpyKernelStacksAndWaitChannels) {
  StallEvidence e = GatherStallEvidence(targets_, ranks_, options_);
  ASSERT_EQ(e.ranks.size(), 2u);
  EXPECT_EQ(e.behind, "TP1 has not left distributed_init; TP0 is in weight_load");
  EXPECT_EQ(e.ranks[0].source, "kernel");
  EXPECT_NE(e.ranks[0].stack.find("2 threads:\n    futex_wait_queue\n    futex_wait\n"),
            std::string::npos)
      << e.ranks[0].stack;
  ASSERT_FALSE(e.ranks[0].wait_channels.empty());
  EXPECT_EQ(e.ranks[0].wait_channels[0], (std::pair<std::string, int>{"futex_wait_queue", 2}));
  // The unreadable stack: said so, and the wait channels are still there.
  EXPECT_EQ(e.ranks[1].source, "none");
  ASSERT_FALSE(e.ranks[1].notes.empty());
  EXPECT_NE(e.ranks[1].notes[0].find("kernel stacks unreadable"), std::string::npos);
  EXPECT_EQ(e.ranks[1].wait_channels[0].first, "do_epoll_wait");
  ASSERT_FALSE(e.notes.empty());
  EXPECT_NE(e.notes[0].find("py-spy is not on PATH"), std::string::npos);
}

TEST_F(StallGatherTest, PySpyOutputIsParsedAndAttached) {
  options_.py_spy = "/opt/py-spy";
  std::vector<std::vector<std::string>> calls;
  options_.runner = [&](const std::vector<std::string>& argv, std::chrono::milliseconds, size_t) {
    CommandOutput out;
    out.started = true;
    out.exit_code = 0;
    if (argv.back() == "100") {
      out.output = "Thread 100 (idle): \"MainThread\"\n    all_reduce (torch/distributed.py:1)\n";
    } else {
      out.timed_out = true;
    }
    return out;
  };
  options_.parallel = 1;  // the fake runner is not thread-safe
  StallEvidence e = GatherStallEvidence(targets_, ranks_, options_);
  EXPECT_EQ(e.ranks[0].source, "py-spy");
  EXPECT_EQ(e.ranks[0].waiting_in, "all-reduce");
  EXPECT_EQ(e.behind, "TP1 has not left distributed_init; TP0 is waiting in all-reduce");
  // The rank py-spy could not dump falls back (here to nothing readable) and says why.
  EXPECT_EQ(e.ranks[1].source, "none");
  EXPECT_NE(e.ranks[1].notes[0].find("py-spy: no answer within"), std::string::npos);
}

TEST_F(StallGatherTest, RealCommandsAreTimeLimitedAndCapped) {
  fs::path script = dir_ / "py-spy";
  testing::WriteFile(script,
                     "#!/bin/sh\n[ \"$3\" = 100 ] && { printf 'Thread 100 (idle): \"Main\"\\n    "
                     "barrier (x.py:1)\\n'; exit 0; }\nexec sleep 30\n");
  ::chmod(script.c_str(), 0755);
  options_.py_spy = script.string();
  options_.per_pid_limit = std::chrono::milliseconds(500);
  StallEvidence e = GatherStallEvidence(targets_, ranks_, options_);
  EXPECT_EQ(e.ranks[0].source, "py-spy");
  EXPECT_EQ(e.ranks[0].waiting_in, "barrier");
  EXPECT_NE(e.ranks[1].notes[0].find("no answer within"), std::string::npos);
  EXPECT_LT(e.gather_seconds, 20.0);  // a bound, not a timing: the sleeping py-spy was killed

  // A command that writes past the cap is cut there and ended (the limit is only a bound: a loaded
  // machine may take seconds to start it).
  CommandOutput big = RunBoundedCommand({"/bin/sh", "-c", "yes"}, std::chrono::seconds(60), 1000);
  EXPECT_TRUE(big.started);
  EXPECT_EQ(big.output.size(), 1000u);
  EXPECT_TRUE(big.truncated);
  EXPECT_FALSE(big.timed_out);
  CommandOutput missing = RunBoundedCommand({"/nonexistent/py-spy"}, std::chrono::seconds(2), 100);
  EXPECT_FALSE(missing.started);
}

TEST(StallTargets, RanksFirstCompilersLeftOut) {
  Sample s;
  s.processes.push_back({});
  s.processes.back().pid = 10;
  s.processes.back().cmdline = "python3 -m sglang.launch_server";
  s.processes.back().threads = 3;
  for (int r : {1, 0}) {
    ProcessSample p;
    p.pid = 20 + r;
    p.cmdline = "sglang::scheduler_TP" + std::to_string(r);
    s.processes.push_back(p);
  }
  ProcessSample cc;
  cc.pid = 30;
  cc.compiler = true;
  s.processes.push_back(cc);
  auto t = StallTargets(s);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].rank, "TP0");
  EXPECT_EQ(t[1].rank, "TP1");
  EXPECT_EQ(t[2].pid, 10);
  EXPECT_EQ(StallTargets(s, 1).size(), 1u);
}

}  // namespace
}  // namespace spinup::proc
