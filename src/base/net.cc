#include "base/net.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

namespace spinup {
namespace {

using AddrList = std::unique_ptr<addrinfo, void (*)(addrinfo*)>;

Result<AddrList> Resolve(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
  if (rc != 0 || res == nullptr) {
    return Status::InvalidArgument(host + ": cannot resolve (" + ::gai_strerror(rc) + ")");
  }
  return AddrList(res, ::freeaddrinfo);
}

}  // namespace

bool PollUntil(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    return n > 0 && (p.revents & (events | POLLHUP | POLLERR)) != 0;
  }
}

Result<int> ConnectTcp(const std::string& host, uint16_t port, std::chrono::milliseconds timeout) {
  auto addrs = Resolve(host, port);
  if (!addrs.ok()) return addrs.status();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int last_errno = ECONNREFUSED;
  for (addrinfo* a = addrs->get(); a != nullptr; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_errno = errno;
      continue;
    }
    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) return fd;
    if (errno == EINPROGRESS && PollUntil(fd, POLLOUT, deadline)) {
      int err = 0;
      socklen_t len = sizeof(err);
      if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) return fd;
      last_errno = err;
    } else {
      last_errno = errno == EINPROGRESS ? ETIMEDOUT : errno;
    }
    ::close(fd);
  }
  return Status::FromErrno(last_errno, host + ":" + std::to_string(port));
}

}  // namespace spinup
