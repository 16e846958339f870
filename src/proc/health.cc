#include "proc/health.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string_view>

#include "base/net.h"

namespace spinup::proc {
namespace {

// GET path with `Connection: close`; the status code of the answer, or nullopt when nothing
// answered in time or the answer is not HTTP. Only the status line is read.
std::optional<int> GetStatus(const HealthProbeOptions& o, std::string_view path) {
  auto fd = ConnectTcp(o.host, o.port, o.connect_timeout);
  if (!fd.ok()) return std::nullopt;
  const auto deadline = std::chrono::steady_clock::now() + o.read_timeout;
  const bool v6 = o.host.find(':') != std::string::npos;
  const std::string req = "GET " + std::string(path) +
                          " HTTP/1.1\r\nHost: " + (v6 ? "[" + o.host + "]" : o.host) + ":" +
                          std::to_string(o.port) +
                          "\r\nUser-Agent: spinup\r\nAccept: */*\r\nConnection: close\r\n\r\n";
  size_t sent = 0;
  std::string got;
  std::optional<int> status;
  while (sent < req.size() && PollUntil(*fd, POLLOUT, deadline)) {
    ssize_t n = ::send(*fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  while (sent == req.size() && got.find("\r\n") == std::string::npos && got.size() < 1024 &&
         PollUntil(*fd, POLLIN, deadline)) {
    char buf[512];
    ssize_t n = ::recv(*fd, buf, sizeof(buf), 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(*fd);
  // "HTTP/1.1 200 OK"
  if (got.rfind("HTTP/", 0) != 0) return std::nullopt;
  const size_t sp = got.find(' ');
  if (sp == std::string::npos || got.size() < sp + 4) return std::nullopt;
  int code = 0;
  auto [ptr, ec] = std::from_chars(got.data() + sp + 1, got.data() + sp + 4, code);
  if (ec != std::errc() || ptr != got.data() + sp + 4 || code < 100 || code > 999) {
    return std::nullopt;
  }
  status = code;
  return status;
}

}  // namespace

std::optional<HealthAnswer> ProbeHealthDetailed(const HealthProbeOptions& options) {
  if (options.port == 0) return std::nullopt;
  for (const char* path : {"/health", "/v1/models"}) {
    auto status = GetStatus(options, path);
    if (!status) return std::nullopt;  // nothing answers: the second path would not either
    if (*status == 404 || *status == 405) continue;
    return HealthAnswer{*status, path};
  }
  return HealthAnswer{404, "/v1/models"};
}

std::optional<int> ProbeHealth(const HealthProbeOptions& options) {
  auto answer = ProbeHealthDetailed(options);
  if (!answer) return std::nullopt;
  return answer->status;
}

}  // namespace spinup::proc
