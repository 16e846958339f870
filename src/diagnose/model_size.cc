#include "diagnose/model_size.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

#include "base/ascii.h"

namespace spinup {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Nothing served on a few GPUs is bigger than this; a larger "count" is a misread.
constexpr double kMaxParamsB = 10000;

// The model's name after the first key that names it, up to a quote, comma or space.
std::string_view ModelName(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kKeys = {"model_id", "model_path",
                                                            "model=", "'model'", "--model"};
  for (std::string_view key : kKeys) {
    size_t at = text.find(key);
    // "speculative_model=", "draft_model_id": another model's.
    while (at != std::string_view::npos && at > 0 &&
           (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) {
      at = text.find(key, at + 1);
    }
    if (at == std::string_view::npos) continue;
    size_t i = at + key.size();
    while (i < text.size() && std::string_view(" :='\"").find(text[i]) != std::string_view::npos)
      ++i;
    size_t end = i;
    while (end < text.size() && end - i < 200 &&
           std::string_view(" ,'\"})\t").find(text[end]) == std::string_view::npos)
      ++end;
    if (end > i) return text.substr(i, end - i);
  }
  return {};
}

// A number ending at `end` (exclusive) in `s`, or -1.
double NumberBefore(std::string_view s, size_t end, size_t* start) {
  size_t i = end;
  while (i > 0 && (std::isdigit(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '.')) --i;
  if (i == end || s[i] == '.') return -1;
  *start = i;
  try {
    return std::stod(std::string(s.substr(i, end - i)));
  } catch (...) {
    return -1;
  }
}

// The first "<n>b" count in a lower-cased name, not part of a longer word ("70b-", "-8x7b",
// "1.5b"); "AxB" is A experts of B each.
double ParamsB(std::string_view name) {
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] != 'b' || !std::isdigit(static_cast<unsigned char>(name[i - 1]))) continue;
    if (i + 1 < name.size() && std::isalnum(static_cast<unsigned char>(name[i + 1]))) continue;
    size_t start = 0;
    double n = NumberBefore(name, i, &start);
    if (n <= 0) continue;
    if (start > 0 && std::isalpha(static_cast<unsigned char>(name[start - 1])) &&
        name[start - 1] != 'x') {
      continue;  // "v3b", part of a word
    }
    if (start >= 2 && name[start - 1] == 'x') {
      size_t s2 = 0;
      const double experts = NumberBefore(name, start - 1, &s2);
      if (experts > 0) n *= experts;
    }
    return n;
  }
  return -1;
}

// The bytes a weight takes where the name says it was quantized.
std::optional<double> QuantizedBytesPerWeight(std::string_view name) {
  for (std::string_view q : {"awq", "gptq", "int4", "4bit", "w4a16", "nf4", "bnb", "q4"}) {
    if (name.find(q) != std::string_view::npos) return 0.5;
  }
  for (std::string_view q : {"fp8", "int8", "w8a8", "8bit"}) {
    if (name.find(q) != std::string_view::npos) return 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> CheckpointBytesFromBanner(std::string_view banner,
                                                  const std::vector<ModelFamilySize>& families) {
  const std::string name = AsciiLower(ModelName(banner.substr(0, 16384)));
  if (name.empty()) return std::nullopt;
  const std::optional<double> quantized = QuantizedBytesPerWeight(name);
  const double params_b = ParamsB(name);
  if (params_b > 0 && params_b <= kMaxParamsB) {
    return static_cast<uint64_t>(params_b * 1e9 * quantized.value_or(2));
  }
  if (params_b > 0) return std::nullopt;  // a misread count: no guess is better than a wrong one
  for (const ModelFamilySize& f : families) {
    if (f.name.empty() || name.find(f.name) == std::string::npos) continue;
    return static_cast<uint64_t>(f.params_b * 1e9 * quantized.value_or(f.bytes_per_weight));
  }
  return std::nullopt;
}

std::optional<uint64_t> CheckpointBytesStated(std::string_view line) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < line.size() && i < 512; ++i) {
    if (!digit(line[i]) || (i > 0 && (digit(line[i - 1]) || line[i - 1] == '.'))) continue;
    double value = 0;
    const auto [end, ec] = std::from_chars(line.data() + i, line.data() + line.size(), value);
    if (ec != std::errc() || value <= 0 || value > 1e6) continue;
    std::string_view unit = line.substr(static_cast<size_t>(end - line.data()));
    if (unit.starts_with(' ')) unit.remove_prefix(1);
    const double scale = unit.starts_with("TB") || unit.starts_with("TiB")   ? 1024 * kGiB
                         : unit.starts_with("GB") || unit.starts_with("GiB") ? kGiB
                         : unit.starts_with("MB") || unit.starts_with("MiB") ? kGiB / 1024
                                                                             : 0;
    if (scale > 0) return static_cast<uint64_t>(value * scale);
  }
  return std::nullopt;
}

uint64_t CheckpointBytesFromShards(int64_t shards) {
  if (shards <= 0) return 0;
  return static_cast<uint64_t>(std::min<int64_t>(shards, 100000)) * static_cast<uint64_t>(4 * kGiB);
}

}  // namespace spinup
