// SHA-256 of a whole file descriptor through OpenSSL EVP, reading with a caller-owned buffer so
// memory stays bounded however large the file.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "spinup/status.h"

namespace spinup {

// Reads `fd` from its current position to the end; adds each chunk's size to *progress (if set)
// and the total to *bytes_read (if set). Returns the lowercase hex digest.
Result<std::string> Sha256Fd(int fd, std::vector<unsigned char>& buffer,
                             std::atomic<uint64_t>* progress = nullptr,
                             uint64_t* bytes_read = nullptr);

}  // namespace spinup
