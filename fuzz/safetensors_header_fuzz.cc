// libFuzzer target: a whole safetensors file (8-byte length + header + data) through the parser.
// Checks that no input crashes, hangs or breaks the parser's own invariants.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "format/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  spinup::SafetensorsHeader h = spinup::ParseSafetensorsFile(bytes, size);
  // A tensor the parser returns always has begin <= end, and valid is false without tensors.
  for (const auto& t : h.tensors) {
    if (t.data_begin > t.data_end || t.file_begin > t.file_end) std::abort();
  }
  if (!h.valid && !h.tensors.empty()) std::abort();
  // The same bytes claimed to belong to a larger file must not crash either.
  (void)spinup::ParseSafetensorsFile(bytes, static_cast<uint64_t>(size) * 2 + 8);
  return 0;
}
