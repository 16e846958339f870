#include "diagnose/model_size.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

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

// A family whose names carry no count is sized by the rules' "model_sizes" table, the longest name
// first; a count in the name still wins, and a name that says it was quantized scales the weights.
TEST(ModelSize, FamiliesWithoutACountComeFromTheTable) {
  const std::vector<ModelFamilySize> families = {
      {"deepseek-v2-lite", 16, 2}, {"deepseek-v3", 671, 1}, {"deepseek-v2", 236, 2}};
  auto gb = [&](std::string_view banner) {
    const auto b = CheckpointBytesFromBanner(banner, families);
    return b ? static_cast<double>(*b) / kGB : -1;
  };
  EXPECT_DOUBLE_EQ(gb("with config: model='deepseek-ai/DeepSeek-V3', dtype=auto"), 671);
  EXPECT_DOUBLE_EQ(gb("server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V2-Lite-Chat')"),
                   32);
  EXPECT_DOUBLE_EQ(gb("server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V2.5')"), 472);
  EXPECT_DOUBLE_EQ(gb("model='cognitivecomputations/DeepSeek-V3-AWQ'"), 335.5);
  EXPECT_DOUBLE_EQ(gb("model='deepseek-ai/DeepSeek-V3-Distill-Qwen-7B'"), 14);  // its own count
  EXPECT_LT(gb("model='mistralai/Mistral-Large-Instruct'"), 0);                 // in no family
}

TEST(ModelSize, ShardsAreFourGiBEach) {
  EXPECT_EQ(CheckpointBytesFromShards(163), 163ull * 4 * 1024 * 1024 * 1024);
  EXPECT_EQ(CheckpointBytesFromShards(0), 0u);
  EXPECT_EQ(CheckpointBytesFromShards(-3), 0u);
  EXPECT_LE(CheckpointBytesFromShards(INT64_MAX), 100000ull * 4 * 1024 * 1024 * 1024);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// The size a loader states of the checkpoint it reads, in decimal or binary units.
TEST(ModelSize, TheSizeALoaderStates) {
  const double gib = 1024.0 * 1024 * 1024;
  auto stated = [&](std::string_view line) {
    const std::optional<uint64_t> b = CheckpointBytesStated(line);
    return b ? static_cast<double>(*b) / gib : -1.0;
  };
  EXPECT_NEAR(stated("Prefetching 392.54GB checkpoint files."), 392.54, 0.01);
  EXPECT_NEAR(stated("Prefetching 12 GiB checkpoint files"), 12, 0.01);
  EXPECT_NEAR(stated("read 1.5 TB"), 1536, 0.01);
  EXPECT_NEAR(stated("rank 3 read 512MB"), 0.5, 0.01);
  EXPECT_LT(stated("Prefetching checkpoint files"), 0);
  EXPECT_LT(stated("took 3 seconds for 4 files"), 0);
  EXPECT_LT(stated(""), 0);
}

}  // namespace
}  // namespace spinup
