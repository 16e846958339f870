// `spinup explain` on a log exported newest first reads it the other way round.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;
using testing::TempDir;
using testing::WriteFile;

// Two restarts of a vLLM start that dies in its profile run, oldest line first.
std::string Attempt(int minute) {
  auto at = [&](int s) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "10:%02d:%02d", minute + s / 60, s % 60);
    return std::string(buf);
  };
  return "INFO 09-18 " + at(5) + " [api_server.py:1896] vLLM API server version 0.10.2\n" +
         "INFO 09-18 " + at(21) +
         " [gpu_model_runner.py:2338] Starting to load model Qwen/Qwen2.5-72B-Instruct...\n" +
         "INFO 09-18 " + at(40) +
         " [gpu_model_runner.py:2392] Model loading took 67.7 GiB and 19.1 seconds\n" +
         "INFO 09-18 " + at(50) + " [monitor.py:34] torch.compile takes 9.10 s in total\n" +
         "ERROR 09-18 " + at(51) + " [core.py:718] EngineCore failed to start.\n" + "ERROR 09-18 " +
         at(52) + " [core.py:718]   File \"/x/vllm/v1/worker/gpu_worker.py\", " +
         "line 263, in determine_available_memory\n" + "ERROR 09-18 " + at(52) +
         " [core.py:718] torch.OutOfMemoryError: CUDA out of memory.\n";
}

nlohmann::json Explain(const std::string& path) {
  auto r = RunSpinup({"explain", path, "--json"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  return j;
}

TEST(CliExplain, ReadsALogExportedNewestFirstTheOtherWayRound) {
  const std::string forward = Attempt(0) + Attempt(2) + Attempt(4);
  std::string reversed;
  size_t end = forward.size();
  while (end > 0) {
    size_t start = forward.rfind('\n', end - 2);
    start = start == std::string::npos ? 0 : start + 1;
    reversed += forward.substr(start, end - start);
    end = start;
  }
  TempDir dir;
  WriteFile(dir / "forward.log", forward);
  WriteFile(dir / "newest_first.log", reversed);
  const auto a = Explain((dir / "forward.log").string());
  const auto b = Explain((dir / "newest_first.log").string());
  ASSERT_TRUE(a.contains("outcome") && b.contains("outcome"));
  EXPECT_EQ(a["outcome"], "crash_loop");
  EXPECT_EQ(b["outcome"], a["outcome"]);
  EXPECT_EQ(b["phase"], a["phase"]);
  EXPECT_EQ(b["attempts"], a["attempts"]);
  // The report says it read the log the other way round; the log in its order says nothing.
  EXPECT_NE(b["evidence"].dump().find("runs newest first"), std::string::npos) << b.dump();
  EXPECT_EQ(a["evidence"].dump().find("runs newest first"), std::string::npos);
}

}  // namespace
}  // namespace spinup
