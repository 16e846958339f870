// `watch --pid` follows one process, not a PID: a PID reused by an unrelated process after the
// watched one died counts as gone (issue 11, item 12).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "live/live_sampler.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;

TEST(PidPinning, ReusedPidCountsAsGone) {
  testing::TempDir proc;
  fs::create_directories(proc / "4242");
  // Field 22 (starttime) is 222: the process now holding PID 4242 started at tick 222.
  testing::WriteFile(proc / "4242" / "stat",
                     "4242 (unrelated) S 1 4242 4242 0 -1 4194304 100 0 0 0 10 5 0 0 20 0 1 0 222 "
                     "1000000 100\n");
  LiveSamplerConfig c;
  c.proc_root = proc.path().string();
  c.sys_root = (proc / "sys").string();
  c.gpu = false;
  c.pids = {4242};
  c.pid_start_ticks = {111};  // the watched process started at tick 111
  LiveSampler reused(c);
  Sample s = reused.Take(1000);
  EXPECT_TRUE(s.processes.empty());
  EXPECT_TRUE(reused.Gone());

  c.pid_start_ticks = {222};  // same process: followed
  LiveSampler same(c);
  Sample t = same.Take(1000);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes[0].pid, 4242);
  EXPECT_FALSE(same.Gone());
}

TEST(PidPinning, StartTicksIdentifyARealProcess) {
  pid_t child = ::fork();
  if (child == 0) {
    ::execl("/bin/sleep", "sleep", "30", nullptr);
    ::_exit(127);
  }
  uint64_t ticks = ProcessStartTicks("/proc", child);
  EXPECT_GT(ticks, 0u);
  EXPECT_EQ(ProcessStartTicks("/proc", child), ticks);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(ProcessStartTicks("/proc", child), 0u);
}

}  // namespace
}  // namespace spinup
