#include "base/safe_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace spinup {

int WriteAll(int fd, std::string_view data) {
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    off += static_cast<size_t>(n);
  }
  return 0;
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  if (path.empty()) return Status::InvalidArgument("empty output path");
  struct stat st {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return Status::FromErrno(errno, path);
  if (exists && !S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(
        path +
        ": exists and is not a regular file (a link, device, FIFO or folder); refusing "
        "to replace it");
  }
  std::filesystem::path target(path);
  std::filesystem::path dir = target.parent_path();
  std::string tmpl = (dir.empty() ? std::filesystem::path(".") : dir) /
                     ("." + target.filename().string() + ".spinup-XXXXXX");
  int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path + ": cannot create");
  auto fail = [&](int err, const char* what) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmpl.c_str());
    return Status::FromErrno(err, path + ": " + what);
  };
  // mkostemp makes the file 0600; a new report is world-readable like any file `cat >` makes,
  // an existing one keeps what the operator gave it.
  if (::fchmod(fd, exists ? (st.st_mode & 07777) : 0644) != 0) return fail(errno, "cannot chmod");
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) {
    (void)!::fchown(fd, st.st_uid, st.st_gid);  // best effort: only root may give files away
  }
  if (int err = WriteAll(fd, contents); err != 0) return fail(err, "cannot write");
  if (::fdatasync(fd) != 0 && errno != EINVAL) return fail(errno, "cannot write");
  int rc = ::close(fd);
  fd = -1;
  if (rc != 0) return fail(errno, "cannot write");
  if (::rename(tmpl.c_str(), path.c_str()) != 0) return fail(errno, "cannot write");
  return Status::Ok();
}

}  // namespace spinup
