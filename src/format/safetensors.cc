#include "format/safetensors.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/json_bounded.h"

namespace spinup {
namespace {

using nlohmann::json;

struct DtypeEntry {
  std::string_view name;
  uint32_t bits;
};

// The dtypes of the safetensors specification (safetensors::Dtype), with their bit widths.
constexpr DtypeEntry kDtypes[] = {
    {"BOOL", 8}, {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"U8", 8},
    {"I8", 8},   {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16},
    {"U16", 16}, {"F16", 16},    {"BF16", 16},   {"I32", 32},    {"U32", 32},
    {"F32", 32}, {"C64", 64},    {"F64", 64},    {"I64", 64},    {"U64", 64},
};

CheckpointProblem Problem(ProblemKind kind, std::optional<std::string> tensor, std::string msg) {
  return CheckpointProblem{kind, "", std::move(tensor), std::move(msg)};
}

// Reads an unsigned JSON integer; false for negatives, fractions and other types.
bool GetU64(const json& j, uint64_t* out) {
  if (!j.is_number_unsigned()) return false;
  *out = j.get<uint64_t>();
  return true;
}

// The header's JSON document, when it is a JSON object within the caps; else a problem says why.
std::optional<BoundedJson> ParseHeaderDocument(std::string_view header_json,
                                               JsonValueBudget* budget, SafetensorsHeader& h) {
  if (header_json.size() > kMaxSafetensorsHeaderBytes) {
    h.problems.push_back(
        Problem(ProblemKind::kHeaderInvalid, std::nullopt,
                fmt::format("header of {} bytes exceeds the 100 MB cap", header_json.size())));
    return std::nullopt;
  }
  if (header_json.empty() || header_json.front() != '{') {
    h.problems.push_back(
        Problem(ProblemKind::kHeaderInvalid, std::nullopt, "header does not start with '{'"));
    return std::nullopt;
  }
  auto parsed = ParseJsonBounded(header_json,
                                 {kMaxSafetensorsHeaderDepth, kMaxSafetensorsHeaderValues}, budget);
  if (!parsed.ok()) {
    h.problems.push_back(Problem(ProblemKind::kHeaderInvalid, std::nullopt,
                                 "header is not a JSON object: " + parsed.status().message()));
    return std::nullopt;
  }
  if (!parsed->value.is_object()) {
    h.problems.push_back(
        Problem(ProblemKind::kHeaderInvalid, std::nullopt, "header is not a JSON object"));
    return std::nullopt;
  }
  return std::move(*parsed);
}

void ReadMetadata(const json& entry, SafetensorsHeader& h) {
  if (!entry.is_object()) {
    h.problems.push_back(
        Problem(ProblemKind::kHeaderInvalid, std::nullopt, "__metadata__ is not an object"));
    return;
  }
  for (const auto& [k, v] : entry.items()) {
    if (v.is_string()) {
      h.metadata[k] = v.get<std::string>();
    } else {
      h.problems.push_back(Problem(ProblemKind::kHeaderInvalid, std::nullopt,
                                   fmt::format("__metadata__ value '{}' is not a string", k)));
    }
  }
}

// One tensor entry with its offsets made absolute; nothing (and a problem) when its fields are
// missing, of the wrong type, or its offsets are impossible.
std::optional<TensorInfo> ReadTensorEntry(const std::string& name, const json& entry,
                                          uint64_t data_start, SafetensorsHeader& h) {
  if (!entry.is_object()) {
    h.problems.push_back(
        Problem(ProblemKind::kHeaderInvalid, name, "tensor entry is not an object"));
    return std::nullopt;
  }
  auto dtype_it = entry.find("dtype");
  auto shape_it = entry.find("shape");
  auto offsets_it = entry.find("data_offsets");
  if (dtype_it == entry.end() || !dtype_it->is_string() || shape_it == entry.end() ||
      !shape_it->is_array() || offsets_it == entry.end() || !offsets_it->is_array() ||
      offsets_it->size() != 2) {
    h.problems.push_back(Problem(ProblemKind::kHeaderInvalid, name,
                                 "tensor entry lacks a string dtype, a shape array or a "
                                 "two-element data_offsets"));
    return std::nullopt;
  }
  TensorInfo t;
  t.name = name;
  t.dtype = dtype_it->get<std::string>();
  bool shape_ok = true;
  for (const auto& dim : *shape_it) {
    uint64_t d = 0;
    if (!GetU64(dim, &d)) {
      shape_ok = false;
      break;
    }
    t.shape.push_back(d);
  }
  if (!shape_ok || !GetU64((*offsets_it)[0], &t.data_begin) ||
      !GetU64((*offsets_it)[1], &t.data_end)) {
    h.problems.push_back(Problem(ProblemKind::kHeaderInvalid, name,
                                 "shape or data_offsets holds something other than "
                                 "non-negative integers"));
    return std::nullopt;
  }
  if (t.data_begin > t.data_end) {
    h.problems.push_back(Problem(
        ProblemKind::kOutOfBounds, name,
        fmt::format("data_offsets [{}, {}] end before they begin", t.data_begin, t.data_end)));
    return std::nullopt;
  }
  if (t.data_end > UINT64_MAX - data_start) {
    h.problems.push_back(
        Problem(ProblemKind::kOutOfBounds, name,
                fmt::format("data_offsets end {} lies beyond any possible file", t.data_end)));
    return std::nullopt;
  }
  t.file_begin = data_start + t.data_begin;
  t.file_end = data_start + t.data_end;
  t.dtype_bits = SafetensorsDtypeBits(t.dtype);
  return t;
}

// The dtype is known and dtype bits x shape is exactly the bytes data_offsets span.
void CheckTensorSize(const TensorInfo& t, SafetensorsHeader& h) {
  if (t.dtype_bits == 0) {
    h.problems.push_back(
        Problem(ProblemKind::kUnknownDtype, t.name,
                fmt::format("dtype '{}' is not a safetensors dtype", t.dtype.substr(0, 64))));
    return;
  }
  uint64_t elements = 1;
  bool overflow = false;
  for (uint64_t d : t.shape) overflow |= __builtin_mul_overflow(elements, d, &elements);
  uint64_t bits = 0;
  overflow |= __builtin_mul_overflow(elements, uint64_t{t.dtype_bits}, &bits);
  if (overflow || bits % 8 != 0 || bits / 8 != t.bytes()) {
    std::string expected = overflow ? std::string("more than 2^64") : fmt::format("{}", bits / 8);
    if (!overflow && bits % 8 != 0) expected = fmt::format("{} bits", bits);
    h.problems.push_back(
        Problem(ProblemKind::kShapeMismatch, t.name,
                fmt::format("shape [{}] of {} needs {} bytes but data_offsets span {}",
                            fmt::join(t.shape, ", "), t.dtype, expected, t.bytes())));
  }
}

// Coverage: the tensors must tile the data region exactly, in offset order. Sorts h.tensors.
void CheckCoverage(uint64_t file_size, uint64_t data_start, SafetensorsHeader& h) {
  const uint64_t data_size = file_size >= data_start ? file_size - data_start : 0;
  std::sort(h.tensors.begin(), h.tensors.end(), [](const TensorInfo& a, const TensorInfo& b) {
    return std::tie(a.data_begin, a.data_end, a.name) < std::tie(b.data_begin, b.data_end, b.name);
  });
  uint64_t cursor = 0;
  const TensorInfo* furthest = nullptr;  // the tensor whose end is `cursor`
  for (const auto& t : h.tensors) {
    if (t.data_begin > cursor) {
      h.problems.push_back(
          Problem(ProblemKind::kGap, t.name,
                  fmt::format("bytes {}..{} of the data region before it belong to no tensor",
                              cursor, t.data_begin)));
    } else if (t.data_begin < cursor && t.data_end > t.data_begin) {
      h.problems.push_back(
          Problem(ProblemKind::kOverlap, t.name,
                  fmt::format("data_offsets [{}, {}] overlap tensor {}", t.data_begin, t.data_end,
                              furthest ? furthest->name : std::string("?"))));
    }
    if (t.data_end > cursor || furthest == nullptr) {
      cursor = std::max(cursor, t.data_end);
      furthest = &t;
    }
  }
  if (cursor > data_size) {
    h.problems.push_back(
        Problem(ProblemKind::kTruncated,
                furthest ? std::optional<std::string>(furthest->name) : std::nullopt,
                fmt::format("file is {} bytes but its header needs {} ({} missing)", file_size,
                            data_start + cursor, data_start + cursor - file_size)));
  } else if (cursor < data_size) {
    h.problems.push_back(Problem(
        ProblemKind::kGap, std::nullopt,
        fmt::format("{} bytes after the last tensor belong to no tensor", data_size - cursor)));
  }
}

}  // namespace

uint32_t SafetensorsDtypeBits(std::string_view dtype) {
  for (const auto& d : kDtypes) {
    if (d.name == dtype) return d.bits;
  }
  return 0;
}

bool LooksLikeLfsPointer(std::string_view bytes) {
  return bytes.starts_with("version https://git-lfs.github.com/spec/");
}

SafetensorsHeader ParseSafetensorsHeader(std::string_view header_json, uint64_t file_size,
                                         JsonValueBudget* budget) {
  SafetensorsHeader h;
  h.header_len = header_json.size();
  std::optional<BoundedJson> doc = ParseHeaderDocument(header_json, budget, h);
  if (!doc) return h;
  h.valid = true;
  const uint64_t data_start = 8 + static_cast<uint64_t>(header_json.size());
  for (const auto& [name, entry] : doc->value.items()) {
    if (name == "__metadata__") {
      ReadMetadata(entry, h);
    } else if (auto t = ReadTensorEntry(name, entry, data_start, h)) {
      CheckTensorSize(*t, h);
      h.tensors.push_back(std::move(*t));
    }
  }
  CheckCoverage(file_size, data_start, h);
  return h;
}

SafetensorsHeader ParseSafetensorsFile(std::string_view prefix, uint64_t file_size,
                                       JsonValueBudget* budget) {
  SafetensorsHeader h;
  auto fail = [&h](ProblemKind kind, std::string msg) {
    h.problems.push_back(Problem(kind, std::nullopt, std::move(msg)));
    return h;
  };
  if (file_size == 0) return fail(ProblemKind::kEmptyFile, "file is empty (0 bytes)");
  if (LooksLikeLfsPointer(prefix)) {
    return fail(ProblemKind::kLfsPointer,
                "is a Git LFS pointer, not the shard: fetch it (git lfs pull or huggingface-cli "
                "download)");
  }
  if (file_size < 8 || prefix.size() < 8) {
    return fail(ProblemKind::kTruncated,
                fmt::format("file is {} bytes, too short for the 8-byte header length", file_size));
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<size_t>(i)]);
  h.header_len = n;
  // The length itself is not printed: these are the file's first 8 bytes, and when the file is
  // not a safetensors file at all they are its content, not a length.
  if (n > kMaxSafetensorsHeaderBytes) {
    return fail(ProblemKind::kHeaderInvalid,
                "the 8-byte header length is over the 100 MB cap: not a safetensors file?");
  }
  if (n > file_size - 8) {
    return fail(
        ProblemKind::kHeaderInvalid,
        fmt::format("the 8-byte header length is larger than the file ({} bytes)", file_size));
  }
  if (prefix.size() < 8 + n) {
    return fail(ProblemKind::kHeaderInvalid, "header could not be read in full");
  }
  return ParseSafetensorsHeader(prefix.substr(8, n), file_size, budget);
}

}  // namespace spinup
