// The KV-cache arithmetic against real engine logs in ../shared/corpus: where a log shows both the
// engine's token figure and the memory it gave the cache, and names the model (so its public
// config.json facts are known), the predicted token count must agree within 15%. The logs are
// read in place, never copied; the suite skips when the corpus is absent.
#include <re2/re2.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "doctor/model_shape.h"
#include "test_util.h"

namespace spinup::doctor {
namespace {

struct KvCase {
  const char* file;
  const char* model;   // what the log names
  const char* config;  // the model's public config.json facts
  int tp;
  double kv_dtype_bytes;
  // RE2 with two captures: the engine's tokens, then the cache memory; `budget_unit` scales it.
  const char* pattern;
  double budget_unit;
  const char* note;
};

constexpr const char* kDeepSeekV3 = R"({"num_hidden_layers":61,"num_attention_heads":128,
  "kv_lora_rank":512,"qk_rope_head_dim":64})";
// Qwen3.5/3.6 dense 27B: 64 layers, every fourth full attention (4 KV heads x 256), the rest
// Gated DeltaNet.
constexpr const char* kQwen36_27B = R"({"num_hidden_layers":64,"num_attention_heads":24,
  "num_key_value_heads":4,"head_dim":256,"full_attention_interval":4})";
constexpr const char* kQwen3_235B = R"({"num_hidden_layers":94,"num_attention_heads":64,
  "num_key_value_heads":4,"head_dim":128})";
constexpr const char* kMistral7B = R"({"num_hidden_layers":32,"num_attention_heads":32,
  "num_key_value_heads":8,"hidden_size":4096})";

const KvCase kCases[] = {
    {"123-sglang-hung-http_start.log", "DeepSeek-R1-0528 (DeepseekV3ForCausalLM)", kDeepSeekV3, 8,
     2.0, R"(#tokens: (\d+), KV size: ([\d.]+) GB)", 1073741824.0, "MLA, bf16; SGLang's GB is GiB"},
    {"143-sglang-ready-weight_load.log", "DeepseekV3ForCausalLM", kDeepSeekV3, 8, 2.0,
     R"(#tokens: (\d+), KV size: ([\d.]+) GB)", 1073741824.0, "MLA, bf16"},
    {"005-sglang-slow_then_ready-jit_compile.log", "Qwen/Qwen3.6-27B-FP8", kQwen36_27B, 1, 1.0,
     R"(#tokens: (\d+), K size: ([\d.]+) GB)", 2 * 1073741824.0,
     "hybrid linear attention, fp8 KV; K and V sizes are equal, so budget = 2 x K"},
    {"153-vllm-hung-cuda_graph.log", "Qwen3-235B (8 TP workers per node)", kQwen3_235B, 8, 2.0,
     R"((?s)Available memory: (\d+).*?GPU KV cache size: ([\d,]+) tokens)", 1.0,
     "GQA with 4 KV heads on 8 ranks: replicated, one per rank; vllm-ascend prints bytes"},
    {"035-sglang-crashed-http_warmup.log", "MistralForCausalLM (7B assumed)", kMistral7B, 1, 2.0,
     R"((?s)avail mem=([\d.]+) GB.*?Memory pool end. avail mem=([\d.]+) GB.*?max_total_num_tokens=(\d+))",
     1073741824.0, "budget = avail mem before - after the pool (includes SGLang's request tables)"},
};

int64_t Digits(std::string s) {
  std::erase(s, ',');
  return std::stoll(s);
}

TEST(KvCorpus, PredictionAgreesWithTheEngineWithin15Percent) {
  auto shared = testing::SharedDir();
  if (!shared) GTEST_SKIP() << "../shared/corpus is absent";
  int checked = 0;
  for (const auto& c : kCases) {
    auto path = *shared / "corpus" / c.file;
    if (!std::filesystem::exists(path)) continue;
    std::string log = testing::ReadFile(path);
    auto shape = ParseModelShape(c.config);
    ASSERT_TRUE(shape) << c.file;
    double per_token = KvBytesPerToken(*shape, c.tp, 1, c.kv_dtype_bytes);
    ASSERT_GT(per_token, 0) << c.file;
    std::string a, b, third;
    double budget = 0;
    int64_t engine_tokens = 0;
    if (std::string_view(c.pattern).find("max_total_num_tokens") != std::string_view::npos) {
      ASSERT_TRUE(RE2::PartialMatch(log, c.pattern, &a, &b, &third)) << c.file;
      budget = (std::stod(a) - std::stod(b)) * c.budget_unit;
      engine_tokens = Digits(third);
    } else if (std::string_view(c.file).find("vllm") != std::string_view::npos) {
      ASSERT_TRUE(RE2::PartialMatch(log, c.pattern, &a, &b)) << c.file;
      budget = std::stod(a) * c.budget_unit;
      engine_tokens = Digits(b);
    } else {
      ASSERT_TRUE(RE2::PartialMatch(log, c.pattern, &a, &b)) << c.file;
      engine_tokens = Digits(a);
      budget = std::stod(b) * c.budget_unit;
    }
    double predicted = budget / per_token;
    double error =
        (predicted - static_cast<double>(engine_tokens)) / static_cast<double>(engine_tokens);
    std::cout << "[kv-corpus] " << c.file << " " << c.model << ": engine " << engine_tokens
              << " tokens, predicted " << static_cast<int64_t>(predicted) << " ("
              << (error >= 0 ? "+" : "") << std::round(error * 1000) / 10 << "%) - " << c.note
              << "\n";
    EXPECT_LT(std::abs(error), 0.15) << c.file;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "none of the KV corpus cases is present";
}

}  // namespace
}  // namespace spinup::doctor
