// Read-only file access for everything spinup reads from disk: opened O_RDONLY|O_CLOEXEC, so no
// code path holding one can write into a model folder. Sizes are capped by the caller.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "spinup/status.h"

namespace spinup {

class ReadOnlyFile {
 public:
  static Result<ReadOnlyFile> Open(const std::filesystem::path& path);
  ReadOnlyFile(ReadOnlyFile&& other) noexcept
      : fd_(other.fd_),
        size_(other.size_),
        regular_(other.regular_),
        path_(std::move(other.path_)) {
    other.fd_ = -1;
  }
  ReadOnlyFile& operator=(ReadOnlyFile&& other) noexcept;
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ~ReadOnlyFile();

  int fd() const { return fd_; }
  uint64_t size() const { return size_; }
  bool regular() const { return regular_; }
  // Reads up to `len` bytes at `offset` (fewer only at end of file), retrying short reads/EINTR.
  Status ReadAt(uint64_t offset, uint64_t len, std::string* out) const;

 private:
  ReadOnlyFile(int fd, uint64_t size, bool regular, std::filesystem::path path)
      : fd_(fd), size_(size), regular_(regular), path_(std::move(path)) {}
  int fd_ = -1;
  uint64_t size_ = 0;
  bool regular_ = false;
  std::filesystem::path path_;
};

// Whole small file (config.json, an index); kInvalidArgument when it exceeds `cap` bytes.
Result<std::string> ReadSmallFile(const std::filesystem::path& path, uint64_t cap);

}  // namespace spinup
