#include "history/server_flags.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(StartupFlagsTest, SglangSpellings) {
  auto f =
      ParseStartupFlags({"python", "-m", "sglang.launch_server", "--model-path", "/m", "--tp", "4",
                         "--dp-size=2", "--quantization", "fp8", "--context-length", "32768",
                         "--speculative-algorithm", "EAGLE", "--speculative-num-steps", "3"});
  EXPECT_EQ(f.tp, 4);
  EXPECT_EQ(f.dp, 2);
  EXPECT_FALSE(f.pp);
  EXPECT_EQ(f.quantization, "fp8");
  EXPECT_EQ(f.context_length, 32768);
  EXPECT_EQ(f.speculative, "speculative-algorithm=EAGLE;speculative-num-steps=3");
  EXPECT_EQ(StartupFlagsKey(f),
            "tp=4 dp=2 q=fp8 ctx=32768 spec=speculative-algorithm=EAGLE;speculative-num-steps=3");
}

TEST(StartupFlagsTest, VllmSpellingsAndJunk) {
  auto f = ParseStartupFlags({"vllm", "serve", "/m", "--tensor-parallel-size", "8",
                              "--pipeline-parallel-size", "2", "--max-model-len=8192",
                              "--speculative-config", "{\"num_speculative_tokens\": 5}", "--tp",
                              "many", "--quantization"});
  EXPECT_FALSE(f.tp);  // the last spelling wins, and "many" is no number
  EXPECT_EQ(f.pp, 2);
  EXPECT_EQ(f.context_length, 8192);
  EXPECT_EQ(f.speculative, "speculative-config={\"num_speculative_tokens\": 5}");
  EXPECT_EQ(f.quantization, "");
  EXPECT_EQ(ParseStartupFlags({}), StartupFlags{});
}

TEST(StartupFlagsTest, FlagOrderDoesNotChangeTheKey) {
  auto a = ParseStartupFlags({"--speculative-num-steps", "3", "--speculative-algorithm", "EAGLE"});
  auto b = ParseStartupFlags({"--speculative-algorithm", "EAGLE", "--speculative-num-steps", "3"});
  EXPECT_EQ(StartupFlagsKey(a), StartupFlagsKey(b));
}

TEST(EngineVersionTest, FromLogLines) {
  EXPECT_EQ(EngineVersionFromLine("INFO 01-02 03:04:05 api_server.py:585] vLLM API server version "
                                  "0.6.3.post1"),
            "0.6.3.post1");
  EXPECT_EQ(EngineVersionFromLine("sglang version: 0.4.1"), "0.4.1");
  EXPECT_EQ(EngineVersionFromLine("pip: vllm==0.8.5"), "0.8.5");
  EXPECT_FALSE(EngineVersionFromLine("vLLM is using nccl==2.21.5"));
  EXPECT_FALSE(EngineVersionFromLine("version https://git-lfs.github.com/spec/v1"));
}

TEST(ServerArgsLineTest, ModelAndFlagsFromSglangServerArgs) {
  auto a = ServerArgsFromLine(
      "server_args=ServerArgs(model_path='/models/llama', tokenizer_path='/models/llama', "
      "tp_size=4, dp_size=1, quantization='fp8', context_length=None, "
      "speculative_algorithm='EAGLE', port=30000)");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->model, "/models/llama");
  EXPECT_EQ(a->flags.tp, 4);
  EXPECT_EQ(a->flags.dp, 1);
  EXPECT_EQ(a->flags.quantization, "fp8");
  EXPECT_FALSE(a->flags.context_length);
  EXPECT_EQ(a->flags.speculative, "speculative-algorithm=EAGLE");
  EXPECT_FALSE(ServerArgsFromLine("Load weight begin"));
}

}  // namespace
}  // namespace spinup
