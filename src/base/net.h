// Small socket helpers for spinup's HTTP client (src/proc/http_client.h): name resolution and a
// connect bounded by a timeout. Plain POSIX sockets, so the binary needs no HTTP library.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "spinup/status.h"

namespace spinup {

// A TCP connection to host:port (a name, IPv4 or IPv6 literal), non-blocking and close-on-exec,
// within `timeout`. The caller owns the descriptor.
Result<int> ConnectTcp(const std::string& host, uint16_t port, std::chrono::milliseconds timeout);

// Waits for `events` on fd until `deadline`; false on timeout or error.
bool PollUntil(int fd, short events, std::chrono::steady_clock::time_point deadline);

}  // namespace spinup
