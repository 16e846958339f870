// spinup's exit codes, shared by every subcommand (documented in docs/exit-codes.md).
#pragma once

#include "spinup/status.h"

namespace spinup {

inline constexpr int kExitOk = 0;       // ready / whole / done
inline constexpr int kExitProblem = 1;  // crashed, crash loop, or problems found (verify)
inline constexpr int kExitUsage = 2;    // usage error, unreadable path
inline constexpr int kExitStalled = 3;  // a startup stalled
inline constexpr int kExitTimeout = 4;  // --timeout passed before a verdict
inline constexpr int kExitInProgress =
    5;  // still in progress (--once, explain of an unfinished log)

// The one mapping from a failed Status to an exit code, for every command: a path or value the
// operator gave that cannot be used (missing, not permitted, not a regular file, a link loop, a
// name too long: Status::FromErrno's kNotFound / kPermission / kInvalidArgument) is a usage error;
// anything else (a failed read or write of something that exists, a full disk) is a problem.
inline int ExitCodeFor(const Status& status) {
  switch (status.kind()) {
    case ErrorKind::kOk:
      return kExitOk;
    case ErrorKind::kNotFound:
    case ErrorKind::kPermission:
    case ErrorKind::kInvalidArgument:
      return kExitUsage;
    default:
      return kExitProblem;
  }
}

}  // namespace spinup
