#include "base/readonly_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>

namespace spinup {

Result<ReadOnlyFile> ReadOnlyFile::Open(const std::filesystem::path& path) {
  // O_NONBLOCK: a FIFO planted where a shard should be must not hang the open (no effect on
  // regular files).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::FromErrno(errno, path.string());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Status::FromErrno(err, path.string());
  }
  bool regular = S_ISREG(st.st_mode);
  return ReadOnlyFile(fd, regular ? static_cast<uint64_t>(st.st_size) : 0, regular, path);
}

ReadOnlyFile& ReadOnlyFile::operator=(ReadOnlyFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    size_ = other.size_;
    regular_ = other.regular_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

ReadOnlyFile::~ReadOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status ReadOnlyFile::ReadAt(uint64_t offset, uint64_t len, std::string* out) const {
  out->resize(len);
  uint64_t done = 0;
  while (done < len) {
    ssize_t n = ::pread(fd_, out->data() + done, len - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      out->resize(done);
      return Status::FromErrno(err, fmt::format("{}: read", path_.string()));
    }
    if (n == 0) break;
    done += static_cast<uint64_t>(n);
  }
  out->resize(done);
  return Status::Ok();
}

Result<std::string> ReadSmallFile(const std::filesystem::path& path, uint64_t cap) {
  auto file = ReadOnlyFile::Open(path);
  if (!file.ok()) return file.status();
  if (!file->regular()) return Status::InvalidArgument(path.string() + ": not a regular file");
  if (file->size() > cap) {
    return Status::InvalidArgument(
        fmt::format("{}: {} bytes, over the {} byte cap", path.string(), file->size(), cap));
  }
  std::string out;
  Status st = file->ReadAt(0, file->size(), &out);
  if (!st.ok()) return st;
  return out;
}

}  // namespace spinup
