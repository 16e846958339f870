#include "diagnose/model_size.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

constexpr double kGB = 1e9;

double Gb(std::string_view banner) {
  auto b = CheckpointBytesFromBanner(banner);
  return b ? static_cast<double>(*b) / kGB : -1;
}

TEST(ModelSize, ParameterCountTimesTheBytesAWeightTakes) {
  EXPECT_DOUBLE_EQ(Gb("Args { model_id: \"meta-llama/Llama-3.1-405B-Instruct\", revision: None"),
                   810);
  EXPECT_DOUBLE_EQ(Gb("server_args=ServerArgs(model_path='Qwen/Qwen2.5-1.5B-Instruct', tp_size=4)"),
                   3);
  EXPECT_DOUBLE_EQ(Gb("non-default args: {'model': 'mistralai/Mixtral-8x7B-v0.1'}"), 112);
  EXPECT_DOUBLE_EQ(Gb("with config: model='Qwen/Qwen3-235B-A22B-FP8', dtype=auto"), 235);
  EXPECT_DOUBLE_EQ(Gb("vllm serve --model /srv/models/llama-3.1-70b-instruct-awq"), 35);
}

TEST(ModelSize, NoCountOrAnotherModelsNameGivesNothing) {
  EXPECT_LT(Gb("with config: model='deepseek-ai/DeepSeek-V3', dtype=auto"), 0);
  EXPECT_LT(Gb("Namespace(speculative_model='meta-llama/Llama-3.2-1B', port=8000)"), 0);
  EXPECT_LT(Gb("no model here at all 70B"), 0);
  EXPECT_LT(Gb(""), 0);
  EXPECT_LT(Gb("model='x-99999999b'"), 0);  // no served model is that large
}

TEST(ModelSize, ShardsAreFourGiBEach) {
  EXPECT_EQ(CheckpointBytesFromShards(163), 163ull * 4 * 1024 * 1024 * 1024);
  EXPECT_EQ(CheckpointBytesFromShards(0), 0u);
  EXPECT_EQ(CheckpointBytesFromShards(-3), 0u);
  EXPECT_LE(CheckpointBytesFromShards(INT64_MAX), 100000ull * 4 * 1024 * 1024 * 1024);
}

}  // namespace
}  // namespace spinup
