#include "history/server_flags.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <map>

namespace spinup {

namespace {

constexpr size_t kMaxValue = 128;

enum class Key { kTp, kPp, kDp, kQuant, kContext, kSpec };

std::optional<Key> KeyOf(std::string_view flag) {
  static const std::map<std::string_view, Key> kKeys = {
      {"--tp", Key::kTp},
      {"--tp-size", Key::kTp},
      {"--tensor-parallel-size", Key::kTp},
      {"-tp", Key::kTp},
      {"--pp", Key::kPp},
      {"--pp-size", Key::kPp},
      {"--pipeline-parallel-size", Key::kPp},
      {"-pp", Key::kPp},
      {"--dp", Key::kDp},
      {"--dp-size", Key::kDp},
      {"--data-parallel-size", Key::kDp},
      {"-dp", Key::kDp},
      {"--quantization", Key::kQuant},
      {"-q", Key::kQuant},
      {"--context-length", Key::kContext},
      {"--max-model-len", Key::kContext},
      {"--num-speculative-tokens", Key::kSpec},
  };
  auto it = kKeys.find(flag);
  if (it != kKeys.end()) return it->second;
  if (flag.starts_with("--speculative")) return Key::kSpec;
  return std::nullopt;
}

template <typename T>
std::optional<T> Number(std::string_view s) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

}  // namespace

StartupFlags ParseStartupFlags(const std::vector<std::string>& argv) {
  StartupFlags f;
  std::map<std::string, std::string> spec;  // sorted: the key must not depend on flag order
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string_view a = argv[i];
    if (!a.starts_with("-")) continue;
    std::string_view name = a;
    std::string_view value;
    bool has_value = false;
    if (size_t eq = a.find('='); eq != std::string_view::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    auto key = KeyOf(name);
    if (!key) continue;
    if (!has_value && i + 1 < argv.size() && !std::string_view(argv[i + 1]).starts_with("--")) {
      value = argv[++i];
      has_value = true;
    }
    value = value.substr(0, kMaxValue);
    switch (*key) {
      case Key::kTp:
        f.tp = Number<int>(value);
        break;
      case Key::kPp:
        f.pp = Number<int>(value);
        break;
      case Key::kDp:
        f.dp = Number<int>(value);
        break;
      case Key::kQuant:
        f.quantization = std::string(value);
        break;
      case Key::kContext:
        f.context_length = Number<int64_t>(value);
        break;
      case Key::kSpec:
        spec[std::string(name.substr(0, kMaxValue))] = has_value ? std::string(value) : "true";
        break;
    }
  }
  for (const auto& [k, v] : spec) {
    if (!f.speculative.empty()) f.speculative += ';';
    std::string_view bare = k;
    while (bare.starts_with("-")) bare.remove_prefix(1);
    f.speculative += std::string(bare) + "=" + v;
  }
  return f;
}

std::optional<std::string> EngineVersionFromLine(std::string_view line) {
  static const RE2 kVersion(
      R"((?i)(?:\bversion\b[:= ]\s*v?|\b(?:vllm|sglang)==)(\d+\.\d+(?:\.\d+)?(?:[.+-]?[A-Za-z0-9]+)*))");
  std::string v;
  if (!RE2::PartialMatch(line.substr(0, 4096), kVersion, &v)) return std::nullopt;
  if (v.size() > 64) v.resize(64);
  return v;
}

std::optional<LoggedServerArgs> ServerArgsFromLine(std::string_view line) {
  line = line.substr(0, 64 * 1024);
  if (line.find("ServerArgs(") == std::string_view::npos) return std::nullopt;
  LoggedServerArgs out;
  auto str = [&](const char* key) {
    std::string v;
    RE2::PartialMatch(line, std::string("\\b") + key + "='([^']{0,512})'", &v);
    return v;
  };
  auto num = [&](const char* key) -> std::optional<int64_t> {
    int64_t v = 0;
    if (!RE2::PartialMatch(line, std::string("\\b") + key + "=(\\d{1,12})\\b", &v)) {
      return std::nullopt;
    }
    return v;
  };
  auto small = [&](const char* key) -> std::optional<int> {
    auto v = num(key);
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
  };
  out.model = str("model_path");
  out.flags.tp = small("tp_size");
  out.flags.pp = small("pp_size");
  out.flags.dp = small("dp_size");
  out.flags.quantization = str("quantization");
  out.flags.context_length = num("context_length");
  std::string algo = str("speculative_algorithm");
  if (!algo.empty()) out.flags.speculative = "speculative-algorithm=" + algo;
  return out;
}

}  // namespace spinup
