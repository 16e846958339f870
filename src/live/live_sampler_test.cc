#include "live/live_sampler.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "test_util.h"

namespace spinup {
namespace {

TEST(LiveSamplerTest, SamplesATreeAndNoticesWhenItIsGone) {
  pid_t child = ::fork();
  if (child == 0) {
    ::execl("/bin/sleep", "sleep", "30", nullptr);
    ::_exit(127);
  }
  LiveSamplerConfig c;
  c.pids = {child};
  c.gpu = false;
  LiveSampler sampler(c);
  Sample s = sampler.Take(1000);
  EXPECT_EQ(s.time_ms, 1000);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].pid, child);
  EXPECT_FALSE(sampler.Gone());
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  sampler.Take(2000);
  EXPECT_TRUE(sampler.Gone());
}

TEST(LiveSamplerTest, ModelDirGivesCheckpointSizeAndResidency) {
  testing::TempDir dir;
  auto model = dir / "model";
  std::filesystem::create_directories(model);
  testing::WriteFile(model / "model-00001-of-00002.safetensors", std::string(100000, 'a'));
  testing::WriteFile(model / "model-00002-of-00002.safetensors", std::string(50000, 'b'));
  testing::WriteFile(model / "config.json", "{}");
  pid_t child = ::fork();
  if (child == 0) {
    ::execl("/bin/sleep", "sleep", "30", nullptr);
    ::_exit(127);
  }
  LiveSamplerConfig c;
  c.pids = {child};
  c.gpu = false;
  c.model_dir = model.string();
  LiveSampler sampler(c);
  Sample s = sampler.Take(1);
  ASSERT_TRUE(s.checkpoint_bytes.has_value());
  EXPECT_EQ(*s.checkpoint_bytes, 150000u);
  ASSERT_TRUE(s.checkpoint_resident_bytes.has_value());
  EXPECT_LE(*s.checkpoint_resident_bytes, 150000u);
  EXPECT_EQ(sampler.model_dir(), model.string());
  EXPECT_EQ(s.gpu_message, "GPU: not sampled");
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

}  // namespace
}  // namespace spinup
