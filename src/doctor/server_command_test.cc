#include "doctor/server_command.h"

#include <gtest/gtest.h>

#include "doctor/unit_file.h"

namespace spinup::doctor {
namespace {

TEST(ParseServerCommand, SglangLaunchServerWithEnvPrefixAndAliases) {
  auto c = ParseServerCommand({"env",
                               "SGLANG_ENABLE_SPEC_V2=1",
                               "/opt/venv/bin/python3",
                               "-m",
                               "sglang.launch_server",
                               "--model-path",
                               "/models/Qwen3.5-397B",
                               "--tp",
                               "8",
                               "--ep-size=8",
                               "--port",
                               "30001",
                               "--mem-fraction-static",
                               "0.85",
                               "--context-length",
                               "262144",
                               "--trust-remote-code",
                               "--speculative-algorithm",
                               "NEXTN",
                               "--mamba_scheduler_strategy",
                               "extra_buffer",
                               "--kv-cache-dtype",
                               "fp8_e4m3",
                               "--attention-backend",
                               "fa3"});
  EXPECT_EQ(c.engine, Engine::kSglang);
  EXPECT_EQ(c.model, "/models/Qwen3.5-397B");
  EXPECT_EQ(c.tp, 8);
  EXPECT_EQ(c.ep, 8);
  EXPECT_EQ(c.port, 30001);
  EXPECT_EQ(c.host, "127.0.0.1");
  ASSERT_TRUE(c.mem_fraction);
  EXPECT_DOUBLE_EQ(*c.mem_fraction, 0.85);
  EXPECT_EQ(c.context_length, 262144);
  EXPECT_EQ(c.speculative, "NEXTN");
  EXPECT_EQ(c.kv_cache_dtype, "fp8_e4m3");
  EXPECT_EQ(c.attention_backend, "fa3");
  ASSERT_NE(c.flag("--mamba-scheduler-strategy"), nullptr);  // underscores normalised
  EXPECT_EQ(*c.flag("--mamba-scheduler-strategy"), "extra_buffer");
  EXPECT_EQ(*c.flag("--trust-remote-code"), "");  // a switch did not eat the next flag
  ASSERT_NE(c.getenv("SGLANG_ENABLE_SPEC_V2"), nullptr);
  EXPECT_TRUE(c.problems.empty());
}

TEST(ParseServerCommand, VllmServePositionalModelAndJsonSpeculativeConfig) {
  auto c = ParseServerCommand(
      {"VLLM_USE_V1=1", "vllm", "serve", "Qwen/Qwen3-Next-80B-A3B", "-tp", "4",
       "--enable-expert-parallel", "--max-model-len", "32k", "--gpu-memory-utilization=0.92",
       "--speculative-config", R"({"method":"qwen3_next_mtp","num_speculative_tokens":2})"},
      {{"HOME", "/root"}});
  EXPECT_EQ(c.engine, Engine::kVllm);
  EXPECT_EQ(c.model, "Qwen/Qwen3-Next-80B-A3B");
  EXPECT_EQ(c.tp, 4);
  EXPECT_EQ(c.ep, 4);
  EXPECT_EQ(c.port, 8000);
  EXPECT_EQ(c.context_length, 32000);
  EXPECT_DOUBLE_EQ(c.mem_fraction.value_or(0), 0.92);
  EXPECT_EQ(c.speculative, "qwen3_next_mtp");
  EXPECT_EQ(*c.getenv("VLLM_USE_V1"), "1");
  EXPECT_EQ(*c.getenv("HOME"), "/root");
}

TEST(ParseServerCommand, VllmApiServerModuleAndShellWrapper) {
  auto c = ParseServerCommand(
      {"bash", "-c",
       "exec python3 -m vllm.entrypoints.openai.api_server --model /m --tensor-parallel-size 2 "
       "--port 9000 --nnodes 2 --master-addr 10.0.0.1 --master-port 29500"});
  EXPECT_EQ(c.engine, Engine::kVllm);
  EXPECT_EQ(c.model, "/m");
  EXPECT_EQ(c.tp, 2);
  EXPECT_EQ(c.port, 9000);
  EXPECT_EQ(c.nnodes, 2);
  EXPECT_EQ(c.dist_init_addr, "10.0.0.1:29500");
}

TEST(ParseServerCommand, SglangServeAndBadValuesAreProblemsNotCrashes) {
  auto c = ParseServerCommand({"sglang", "serve", "--model-path", "/m", "--tp-size", "zero",
                               "--port", "70000", "--context-length", "-5"});
  EXPECT_EQ(c.engine, Engine::kSglang);
  EXPECT_EQ(c.tp, 1);
  EXPECT_EQ(c.problems.size(), 2u);
  EXPECT_FALSE(c.context_length);
}

TEST(ParseServerCommand, UnknownLauncherKeepsFlagsButNoDefaults) {
  auto c = ParseServerCommand({"./start.sh", "--port", "1234"});
  EXPECT_EQ(c.engine, Engine::kUnknown);
  EXPECT_EQ(c.port, 1234);
  auto empty = ParseServerCommand({});
  EXPECT_EQ(empty.engine, Engine::kUnknown);
  EXPECT_EQ(empty.port, 0);
}

TEST(SplitCommandLine, QuotesAndEscapes) {
  auto w = SplitCommandLine(R"(python3 -m x --a "two words" 'single "q"' back\ slash "esc\"q")");
  ASSERT_EQ(w.size(), 8u);
  EXPECT_EQ(w[4], "two words");
  EXPECT_EQ(w[5], "single \"q\"");
  EXPECT_EQ(w[6], "back slash");
  EXPECT_EQ(w[7], "esc\"q");
  EXPECT_TRUE(SplitCommandLine("   ").empty());
  EXPECT_EQ(SplitCommandLine("\"\"").size(), 1u);  // an empty quoted word is a word
}

}  // namespace
}  // namespace spinup::doctor
