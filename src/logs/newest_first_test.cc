#include "logs/newest_first.h"

#include <gtest/gtest.h>

#include <string>

#include "logs/rules.h"

namespace spinup {
namespace {

// A vLLM start that died in its profile run, oldest line first.
constexpr const char* kForward =
    "INFO 09-18 10:30:05 [api_server.py:1896] vLLM API server version 0.10.2\n"
    "INFO 09-18 10:30:19 [core.py:76] Initializing a V1 LLM engine (v0.10.2) with config: "
    "model='Qwen/Qwen2.5-72B-Instruct'\n"
    "INFO 09-18 10:30:21 [gpu_model_runner.py:2338] Starting to load model "
    "Qwen/Qwen2.5-72B-Instruct...\n"
    "INFO 09-18 10:31:40 [gpu_model_runner.py:2392] Model loading took 67.7 GiB and 79.1 seconds\n"
    "INFO 09-18 10:31:51 [backends.py:539] Using cache directory: /root/.cache/vllm\n"
    "INFO 09-18 10:32:40 [monitor.py:34] torch.compile takes 49.10 s in total\n"
    "ERROR 09-18 10:32:41 [core.py:718] EngineCore failed to start.\n"
    "ERROR 09-18 10:32:42 [core.py:718] torch.OutOfMemoryError: CUDA out of memory.\n";

TEST(NewestFirst, ReverseLinesTurnsTheOrderAndEndsEveryLine) {
  EXPECT_EQ(ReverseLines("a\nb\nc\n"), "c\nb\na\n");
  EXPECT_EQ(ReverseLines("a\nb"), "b\na\n");
  EXPECT_EQ(ReverseLines(""), "");
}

TEST(NewestFirst, TellsAnExportNewestFirstFromALogInItsOrder) {
  auto rules = RuleSet::LoadEmbedded();
  ASSERT_TRUE(rules.ok());
  EXPECT_FALSE(RunsNewestFirst(kForward, *rules, 2025));
  EXPECT_TRUE(RunsNewestFirst(ReverseLines(kForward), *rules, 2025));
  // Lines of several processes a second out of order are not an export run backwards.
  std::string shuffled = kForward;
  shuffled += "INFO 09-18 10:32:41 [core.py:718] late line of another process\n";
  EXPECT_FALSE(RunsNewestFirst(shuffled, *rules, 2025));
  EXPECT_FALSE(RunsNewestFirst("no times here\nat all\n", *rules, 2025));
}

}  // namespace
}  // namespace spinup
