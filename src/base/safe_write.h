// Writing a file the operator named (an HTML report, a saved stream) without ever replacing
// something that is not ours to replace. One helper for every such write.
#pragma once

#include <string>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

// Writes `contents` to `path` through a fresh temporary file in the same folder, renamed over
// `path` once complete, so a reader never sees half a file. Refuses (kInvalidArgument) when
// `path` exists and is not a regular file: a device, a FIFO, a directory or a symbolic link is
// never replaced. The temporary file is created with O_EXCL under a random name (mkostemp), so a
// planted link cannot redirect the write. An existing file keeps its mode (and, where we may set
// it, its owner). Every write error, including a failed close, is returned, never ignored.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

// Writes all of `data` to `fd`, retrying short writes and EINTR; the errno on failure.
int WriteAll(int fd, std::string_view data);

}  // namespace spinup
