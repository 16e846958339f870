// Small socket helpers shared by the metrics server and the health probe: name resolution and a
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

// A listening TCP socket on host:port (port 0: any free port), non-blocking, SO_REUSEADDR only
// (never SO_REUSEPORT: a second spinup on the same port must fail, not share scrapes).
// `bound_port` receives the port actually bound.
Result<int> ListenTcp(const std::string& host, uint16_t port, int* bound_port);

// Waits for `events` on fd until `deadline`; false on timeout or error.
bool PollUntil(int fd, short events, std::chrono::steady_clock::time_point deadline);

}  // namespace spinup
