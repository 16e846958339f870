#include "spinup/status.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace spinup {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk:
      return "ok";
    case ErrorKind::kNotFound:
      return "not_found";
    case ErrorKind::kInvalidArgument:
      return "invalid_argument";
    case ErrorKind::kCorrupt:
      return "corrupt";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kUnsupported:
      return "unsupported";
    case ErrorKind::kPermission:
      return "permission";
    case ErrorKind::kTimeout:
      return "timeout";
    case ErrorKind::kCancelled:
      return "cancelled";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "unknown";
}

Status Status::FromErrno(int err, std::string_view context) {
  std::string msg(context);
  msg += ": ";
  msg += std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return NotFound(std::move(msg));
    case EACCES:
    case EPERM:
      return Permission(std::move(msg));
    case EINVAL:
    case ELOOP:         // a link loop in a path the operator gave
    case ENAMETOOLONG:  // likewise: the path, not the disk, is wrong
    case EISDIR:
      return InvalidArgument(std::move(msg));
    case EOPNOTSUPP:
      return Unsupported(std::move(msg));
    case ETIMEDOUT:
      return Timeout(std::move(msg));
    case ECANCELED:
      return Cancelled(std::move(msg));
    default:
      return Io(std::move(msg));
  }
}

}  // namespace spinup
