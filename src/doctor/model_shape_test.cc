#include "doctor/model_shape.h"

#include <gtest/gtest.h>

#include "doctor/doctor.h"

namespace spinup::doctor {
namespace {

// Public config.json facts of well-known models (the fields the arithmetic reads).
constexpr const char* kDeepSeekV3 = R"({"architectures":["DeepseekV3ForCausalLM"],
  "model_type":"deepseek_v3","num_hidden_layers":61,"num_attention_heads":128,
  "num_key_value_heads":128,"hidden_size":7168,"kv_lora_rank":512,"qk_rope_head_dim":64,
  "n_routed_experts":256,"moe_intermediate_size":2048,"num_nextn_predict_layers":1,
  "max_position_embeddings":163840,"quantization_config":{"quant_method":"fp8",
  "weight_block_size":[128,128]}})";
constexpr const char* kLlama70B = R"({"architectures":["LlamaForCausalLM"],
  "num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"hidden_size":8192,
  "intermediate_size":28672,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";
constexpr const char* kQwen3Next = R"({"architectures":["Qwen3NextForCausalLM"],
  "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,
  "hidden_size":2048,"full_attention_interval":4,"num_experts":512,"moe_intermediate_size":512,
  "mtp_num_hidden_layers":1})";

TEST(ParseModelShape, MlaModel) {
  auto m = ParseModelShape(kDeepSeekV3);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->mla());
  EXPECT_TRUE(m->moe());
  EXPECT_EQ(m->mtp_layers, 1);
  EXPECT_EQ(m->quant_block_n, 128);
  // layers x (kv_lora_rank + rope) x 2 bytes, the same on every rank.
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 8, 1, 2.0), 61.0 * 576 * 2);
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 16, 1, 2.0), 61.0 * 576 * 2);
}

TEST(ParseModelShape, GqaSplitsKvHeadsThenReplicates) {
  auto m = ParseModelShape(kLlama70B);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->head_dim, 128);  // hidden / heads
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 1, 1, 2.0), 80.0 * 2 * 8 * 128 * 2);
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 4, 1, 2.0), 80.0 * 2 * 2 * 128 * 2);
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 16, 1, 2.0), 80.0 * 2 * 1 * 128 * 2);  // replicated
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*m, 8, 2, 1.0), 40.0 * 2 * 1 * 128 * 1);   // pp halves layers
}

TEST(ParseModelShape, HybridLayoutsCountOnlyAttentionLayers) {
  auto next = ParseModelShape(kQwen3Next);
  ASSERT_TRUE(next);
  EXPECT_TRUE(next->hybrid_linear);
  EXPECT_EQ(next->attention_layers, 12);
  EXPECT_DOUBLE_EQ(KvBytesPerToken(*next, 4, 1, 2.0), 12.0 * 2 * 1 * 256 * 2);

  auto typed = ParseModelShape(R"({"text_config":{"num_hidden_layers":4,"num_attention_heads":8,
    "num_key_value_heads":2,"head_dim":64,"layer_types":["linear_attention","linear_attention",
    "linear_attention","full_attention"]},"architectures":["Qwen3_5MoeForConditionalGeneration"]})");
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->architecture, "Qwen3_5MoeForConditionalGeneration");
  EXPECT_TRUE(typed->hybrid_linear);
  EXPECT_EQ(typed->attention_layers, 1);

  auto nemo = ParseModelShape(R"({"num_hidden_layers":6,"num_attention_heads":8,"head_dim":64,
    "hybrid_override_pattern":"M-M*-M"})");
  ASSERT_TRUE(nemo);
  EXPECT_TRUE(nemo->hybrid_linear);
  EXPECT_EQ(nemo->attention_layers, 1);

  auto jamba = ParseModelShape(R"({"num_hidden_layers":8,"num_attention_heads":8,"head_dim":64,
    "attn_layer_period":8,"attn_layer_offset":4})");
  ASSERT_TRUE(jamba);
  EXPECT_EQ(jamba->attention_layers, 1);
}

TEST(ParseModelShape, GapsAndJunk) {
  EXPECT_FALSE(ParseModelShape("not json"));
  EXPECT_FALSE(ParseModelShape("[1,2]"));
  auto m = ParseModelShape(R"({"num_hidden_layers":"48","num_attention_heads":-3})");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->layers, 0);
  EXPECT_EQ(KvBytesPerToken(*m, 1, 1, 2.0), 0);
  EXPECT_EQ(KvShapeGap(*m), "config.json lacks num_hidden_layers");
}

TEST(KvDtypeBytes, Spellings) {
  EXPECT_EQ(KvDtypeBytes(std::nullopt, std::nullopt), 2.0);
  EXPECT_EQ(KvDtypeBytes(std::string("auto"), std::string("float32")), 4.0);
  EXPECT_EQ(KvDtypeBytes(std::string("fp8_e4m3"), std::nullopt), 1.0);
  EXPECT_EQ(KvDtypeBytes(std::string("fp8"), std::nullopt), 1.0);
  EXPECT_EQ(KvDtypeBytes(std::string("fp4_e2m1"), std::nullopt), 0.5);
}

TEST(EstimateKv, ContextThatDoesNotFitGivesTheLargestThatDoes) {
  auto m = ParseModelShape(kLlama70B);
  ASSERT_TRUE(m);
  ServerCommand cmd;
  cmd.engine = Engine::kVllm;
  cmd.tp = 4;
  cmd.mem_fraction = 0.9;
  cmd.context_length = 1000000;
  Thresholds t;  // vLLM reserve 2 GiB
  // 80 GiB x 0.9 = 72 GiB; minus 35 GiB of weights and 2 GiB reserve = 35 GiB for the cache.
  KvEstimate k = EstimateKv(*m, cmd, 80ull << 30, 35ull << 30, t);
  EXPECT_DOUBLE_EQ(k.bytes_per_token, 81920.0);
  EXPECT_EQ(k.tokens, (35ll << 30) / 81920);  // 458,752
  EXPECT_EQ(k.max_context, 458752);
  cmd.context_length = 131072;
  k = EstimateKv(*m, cmd, 80ull << 30, 35ull << 30, t);
  EXPECT_EQ(k.max_context, 131072);  // fits: the requested context is the answer
}

TEST(EstimateKv, SglangHybridSharesTheRestWithTheStatePool) {
  auto m = ParseModelShape(kQwen3Next);
  ASSERT_TRUE(m);
  ServerCommand cmd;
  cmd.engine = Engine::kSglang;
  cmd.tp = 4;
  cmd.mem_fraction = 0.8;
  Thresholds t;
  KvEstimate k = EstimateKv(*m, cmd, 100ull << 30, 20ull << 30, t);
  // (100 x 0.8 - 20) GiB split 1 : 0.9 between KV and state.
  EXPECT_NEAR(static_cast<double>(k.kv_budget_bytes), (60.0 * (1ull << 30)) / 1.9, 1.0);
  EXPECT_EQ(k.kind, "hybrid, 12 of 48 layers attention");
  KvEstimate none = EstimateKv(*m, cmd, 10ull << 30, 20ull << 30, t);
  EXPECT_EQ(none.tokens, 0);
}

}  // namespace
}  // namespace spinup::doctor
