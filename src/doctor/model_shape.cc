#include "doctor/model_shape.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace spinup::doctor {
namespace {

using nlohmann::json;

int64_t Int(const json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = j.find(k);
    if (it != j.end() && it->is_number_integer()) return std::max<int64_t>(0, it->get<int64_t>());
  }
  return 0;
}

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Counts per-token-KV layers in the hybrid layouts configs use; sets hybrid when some layers
// keep a recurrent state instead.
void CountAttentionLayers(const json& j, ModelShape& m) {
  m.attention_layers = m.layers;
  if (auto it = j.find("layer_types"); it != j.end() && it->is_array()) {
    int64_t attn = 0, other = 0;
    for (const auto& t : *it) {
      std::string s = t.is_string() ? t.get<std::string>() : "";
      bool is_attn =
          s.find("attention") != std::string::npos && s.find("linear") == std::string::npos;
      (is_attn ? attn : other)++;
    }
    if (other > 0) {
      m.hybrid_linear = true;
      m.attention_layers = attn;
    }
    return;
  }
  if (int64_t every = Int(j, {"full_attention_interval"}); every > 0 && m.layers > 0) {
    m.hybrid_linear = every > 1;
    m.attention_layers = m.layers / every;
    return;
  }
  if (auto it = j.find("hybrid_override_pattern"); it != j.end() && it->is_string()) {
    std::string p = it->get<std::string>();  // Nemotron-H: M mamba, * attention, - MLP
    m.attention_layers = std::count(p.begin(), p.end(), '*');
    m.hybrid_linear = std::count(p.begin(), p.end(), 'M') > 0;
    return;
  }
  if (auto it = j.find("layers_block_type"); it != j.end() && it->is_array()) {
    int64_t attn = 0, mamba = 0;
    for (const auto& t : *it) {
      std::string s = t.is_string() ? t.get<std::string>() : "";
      if (s == "attention") ++attn;
      if (s == "mamba" || s == "mamba2") ++mamba;
    }
    m.hybrid_linear = mamba > 0;
    m.attention_layers = attn;
    return;
  }
  if (int64_t period = Int(j, {"attn_layer_period"}); period > 0 && m.layers > 0) {  // Jamba
    int64_t offset = Int(j, {"attn_layer_offset"});
    int64_t attn = 0;
    for (int64_t l = 0; l < m.layers; ++l) attn += (l % period == offset) ? 1 : 0;
    m.hybrid_linear = attn < m.layers;
    m.attention_layers = attn;
  }
}

}  // namespace

std::optional<ModelShape> ParseModelShape(std::string_view text) {
  json top = json::parse(text, nullptr, false);
  if (!top.is_object()) return std::nullopt;
  const json* j = &top;
  for (const char* sub : {"text_config", "llm_config", "language_config"}) {
    auto it = top.find(sub);
    if (it != top.end() && it->is_object() && !top.contains("num_hidden_layers")) j = &*it;
  }
  ModelShape m;
  if (auto a = top.find("architectures");
      a != top.end() && a->is_array() && !a->empty() && a->front().is_string()) {
    m.architecture = a->front().get<std::string>();
  }
  m.model_type = Str(top, "model_type");
  m.torch_dtype = Str(*j, "torch_dtype");
  if (m.torch_dtype.empty()) m.torch_dtype = Str(*j, "dtype");
  for (const json* q : std::initializer_list<const json*>{&top, j}) {
    auto it = q->find("quantization_config");
    if (it != q->end() && it->is_object() && m.quant_method.empty()) {
      m.quant_method = Str(*it, "quant_method");
      auto b = it->find("weight_block_size");
      if (b != it->end() && b->is_array() && !b->empty() && b->front().is_number_integer()) {
        m.quant_block_n = std::max<int64_t>(0, b->front().get<int64_t>());
      }
    }
  }
  m.layers = Int(*j, {"num_hidden_layers", "n_layer", "num_layers"});
  m.heads = Int(*j, {"num_attention_heads", "n_head"});
  m.kv_heads = Int(*j, {"num_key_value_heads", "num_kv_heads", "multi_query_group_num"});
  if (m.kv_heads == 0) m.kv_heads = m.heads;
  m.hidden = Int(*j, {"hidden_size", "d_model", "n_embd"});
  m.head_dim = Int(*j, {"head_dim"});
  if (m.head_dim == 0 && m.heads > 0) m.head_dim = m.hidden / m.heads;
  m.intermediate = Int(*j, {"intermediate_size", "ffn_hidden_size"});
  m.moe_intermediate = Int(*j, {"moe_intermediate_size", "expert_intermediate_size"});
  m.experts = Int(*j, {"num_experts", "n_routed_experts", "num_local_experts"});
  m.vocab = Int(*j, {"vocab_size"});
  m.max_position = Int(*j, {"max_position_embeddings", "max_sequence_length", "seq_length"});
  m.kv_lora_rank = Int(*j, {"kv_lora_rank"});
  m.qk_rope_head_dim = Int(*j, {"qk_rope_head_dim"});
  m.mtp_layers = Int(*j, {"num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_layers"});
  CountAttentionLayers(*j, m);
  return m;
}

double KvDtypeBytes(const std::optional<std::string>& kv_cache_dtype,
                    const std::optional<std::string>& dtype) {
  if (kv_cache_dtype && *kv_cache_dtype != "auto") {
    const std::string& k = *kv_cache_dtype;
    if (k.rfind("fp8", 0) == 0 || k == "int8") return 1.0;
    if (k.rfind("fp4", 0) == 0 || k == "nvfp4") return 0.5;
    if (k == "float32" || k == "fp32") return 4.0;
    return 2.0;
  }
  if (dtype && (*dtype == "float32" || *dtype == "float")) return 4.0;
  return 2.0;
}

double KvBytesPerToken(const ModelShape& m, int tp, int pp, double dtype_bytes) {
  if (!KvShapeGap(m).empty()) return 0;
  tp = std::max(tp, 1);
  pp = std::max(pp, 1);
  if (m.mla()) {
    double layers = static_cast<double>((m.layers + pp - 1) / pp);
    return layers * static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim) * dtype_bytes;
  }
  double layers = static_cast<double>((m.attention_layers + pp - 1) / pp);
  double heads = std::max<double>(1.0, static_cast<double>(m.kv_heads / tp));
  if (m.kv_heads % tp != 0 && m.kv_heads > tp)
    heads = static_cast<double>((m.kv_heads + tp - 1) / tp);
  return layers * 2.0 * heads * static_cast<double>(m.head_dim) * dtype_bytes;
}

std::string KvShapeGap(const ModelShape& m) {
  if (m.layers <= 0) return "config.json lacks num_hidden_layers";
  if (m.mla()) return "";
  if (m.heads <= 0 && m.kv_heads <= 0) return "config.json lacks num_attention_heads";
  if (m.head_dim <= 0) return "config.json lacks head_dim and hidden_size";
  return "";
}

}  // namespace spinup::doctor
