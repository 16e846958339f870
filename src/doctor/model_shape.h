// What config.json says about a model's shape, beyond the few facts the checkpoint loader keeps,
// and the KV-cache arithmetic built on it: bytes per token on one rank (grouped-query attention,
// multi-head latent attention, hybrid linear-attention/Mamba models), and how many tokens fit.
// Pure functions: config text and numbers in, numbers out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spinup::doctor {

struct ModelShape {
  std::string architecture;  // architectures[0]
  std::string model_type;
  std::string torch_dtype;
  std::string quant_method;
  int64_t layers = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;  // num_key_value_heads, or heads when absent
  int64_t head_dim = 0;  // head_dim, or hidden / heads
  int64_t hidden = 0;
  int64_t intermediate = 0;
  int64_t moe_intermediate = 0;
  int64_t experts = 0;
  int64_t vocab = 0;
  int64_t max_position = 0;
  // Multi-head latent attention (DeepSeek V2/V3, Kimi K2): one compressed latent per token and
  // layer, the same on every tensor-parallel rank.
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  // Layers that keep a per-token KV cache; fewer than `layers` in a hybrid model whose other
  // layers (linear attention, Mamba) keep a fixed-size state per request instead.
  int64_t attention_layers = 0;
  bool hybrid_linear = false;
  int64_t mtp_layers = 0;     // num_nextn_predict_layers / mtp_num_hidden_layers
  int64_t quant_block_n = 0;  // quantization_config.weight_block_size[0] (block FP8)

  bool mla() const { return kv_lora_rank > 0; }
  bool moe() const { return experts > 0; }
};

// nullopt when the text is not a JSON object. Multimodal configs: the language model's facts
// come from "text_config" (or "llm_config") when the top level lacks them.
std::optional<ModelShape> ParseModelShape(std::string_view config_json);

// Bytes per element of the KV cache for --kv-cache-dtype (SGLang, vLLM spellings) and --dtype;
// "auto" or absent means the model's activation dtype (16-bit unless --dtype float32).
double KvDtypeBytes(const std::optional<std::string>& kv_cache_dtype,
                    const std::optional<std::string>& dtype);

// KV-cache bytes one token costs on one rank: with MLA, layers x (kv_lora_rank + rope dim);
// otherwise attention layers x 2 (K and V) x KV heads on this rank (kv_heads / tp, at least one:
// heads are replicated when tp exceeds them) x head dim. Layers divide by pp. 0 when the config
// lacks what is needed.
double KvBytesPerToken(const ModelShape& m, int tp, int pp, double dtype_bytes);

// Why KvBytesPerToken would return 0 ("config.json lacks num_attention_heads"), or "".
std::string KvShapeGap(const ModelShape& m);

}  // namespace spinup::doctor
