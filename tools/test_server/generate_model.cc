// --generate-model DIR: a small valid safetensors checkpoint (U8 tensors) plus config.json.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "test_server/modes.h"
#include "test_server/options.h"

namespace fs = std::filesystem;

namespace test_server {

int GenerateModel() {
  fs::path dir = g_opt.generate_model;
  std::error_code ec;
  fs::create_directories(dir, ec);
  int shards = std::max(1, g_opt.shards);
  uint64_t per = std::max<uint64_t>(1, g_opt.model_bytes / static_cast<uint64_t>(shards));
  std::string index =
      "{\"metadata\":{\"total_size\":" + std::to_string(per * static_cast<uint64_t>(shards)) +
      "},\"weight_map\":{";
  for (int i = 0; i < shards; ++i) {
    std::string name = fmt::format("model-{:05d}-of-{:05d}.safetensors", i + 1, shards);
    std::string tensor = fmt::format("model.layers.{}.weight", i);
    std::string header = fmt::format(
        R"({{"{}":{{"dtype":"U8","shape":[{}],"data_offsets":[0,{}]}}}})", tensor, per, per);
    while (header.size() % 8 != 0) header += ' ';
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    uint64_t hlen = header.size();
    char len[8];
    for (int b = 0; b < 8; ++b) len[b] = static_cast<char>((hlen >> (8 * b)) & 0xFF);
    out.write(len, 8);
    out << header;
    std::vector<char> chunk(1 << 20);
    for (size_t k = 0; k < chunk.size(); ++k) chunk[k] = static_cast<char>((k * 131 + i) & 0xFF);
    for (uint64_t left = per; left > 0;) {
      uint64_t n = std::min<uint64_t>(left, chunk.size());
      out.write(chunk.data(), static_cast<std::streamsize>(n));
      left -= n;
    }
    index += fmt::format("{}\"{}\":\"{}\"", i ? "," : "", tensor, name);
  }
  index += "}}\n";
  std::ofstream(dir / "model.safetensors.index.json") << index;
  std::ofstream(dir / "config.json")
      << R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","torch_dtype":"bfloat16"})"
      << "\n";
  return 0;
}

}  // namespace test_server
