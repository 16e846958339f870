// Size flags ("4MiB", "512k", "1G", "4096") for the reader's commands.
// TODO(dedup): the shared size parser in src/base/ (branch checkpoint) replaces this once merged.
#pragma once

#include <cstdint>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

// Binary multiples (k/K/KiB = 1024 ...); an optional trailing "B". Rejects empty, negative,
// fractional, overflowing and unknown-suffix values with a message naming the text.
Result<uint64_t> ParseReaderByteSize(std::string_view text);

}  // namespace spinup
