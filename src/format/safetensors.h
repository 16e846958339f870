// The safetensors header parser: pure (bytes in, structs out, no I/O) and fuzzed
// (fuzz/safetensors_header_fuzz.cc).
//
// A safetensors file is an 8-byte little-endian header length N, N bytes of JSON (an object of
// tensor name -> {dtype, shape, data_offsets}, plus an optional "__metadata__" string map), then
// the data region. The parser reports every problem it can find instead of stopping at the first.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/checkpoint.h"

namespace spinup {

// Headers above this are refused before parsing (the format's own limit is 100 MB).
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;
// The header's JSON structure is bounded too (base/json_bounded.h): a real header nests 3 deep
// and holds about 10 values per tensor, so these allow some 400,000 tensors in one file while a
// hostile 100 MB of nested arrays is refused after one counting pass, without building its tree.
inline constexpr size_t kMaxSafetensorsHeaderDepth = 8;
inline constexpr size_t kMaxSafetensorsHeaderValues = 4'000'000;

class JsonValueBudget;

// Bits per element of a safetensors dtype name, 0 when the name is not one safetensors defines.
// Sub-byte dtypes (F4, F6_*) pack elements; a tensor's bit count must then be a multiple of 8.
uint32_t SafetensorsDtypeBits(std::string_view dtype);

struct SafetensorsHeader {
  bool valid = false;               // the JSON was understood; tensors is usable (maybe partially)
  uint64_t header_len = 0;          // N, the length prefix
  std::vector<TensorInfo> tensors;  // sorted by data_begin; `file` left empty
  std::map<std::string, std::string> metadata;
  // Problems with an empty `file`: the caller knows the file name.
  std::vector<CheckpointProblem> problems;
};

// Parses the JSON header of a file of `file_size` bytes whose header is exactly `header_json`
// (so the data region is file_size - 8 - header_json.size() bytes).
// With `budget`, the header's tree is built only once its values are reserved there (the loader
// shares one budget between the headers it parses at once).
SafetensorsHeader ParseSafetensorsHeader(std::string_view header_json, uint64_t file_size,
                                         JsonValueBudget* budget = nullptr);

// Parses a file from its first bytes: `prefix` must hold the first min(file_size, 8 + N) bytes
// (more is fine). Detects empty files, Git LFS pointers, bad length prefixes, then parses the
// header. The fuzz target feeds whole files here.
SafetensorsHeader ParseSafetensorsFile(std::string_view prefix, uint64_t file_size,
                                       JsonValueBudget* budget = nullptr);

// True when `bytes` (the start of a file) is a Git LFS pointer ("version https://git-lfs...").
bool LooksLikeLfsPointer(std::string_view bytes);

}  // namespace spinup
