#include "sink/notify_sink.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "base/units.h"
#include "sink/live_format.h"

namespace spinup {

NotifySink::NotifySink(SendFn send, EtaFn ready_eta)
    : send_(std::move(send)), ready_eta_(std::move(ready_eta)) {}

Status SendNotify(const std::string& socket, std::string_view message) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket.empty() || socket.size() >= sizeof(addr.sun_path) ||
      (socket[0] != '/' && socket[0] != '@')) {
    return Status::InvalidArgument("NOTIFY_SOCKET: not a socket path: " + socket);
  }
  std::memcpy(addr.sun_path, socket.data(), socket.size());
  if (socket[0] == '@') addr.sun_path[0] = '\0';  // abstract namespace
  const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket.size());
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::FromErrno(errno, "NOTIFY_SOCKET: socket");
  ssize_t n = ::sendto(fd, message.data(), message.size(), MSG_NOSIGNAL,
                       reinterpret_cast<const sockaddr*>(&addr), len);
  int err = errno;
  ::close(fd);
  if (n < 0) return Status::FromErrno(err, "NOTIFY_SOCKET " + socket);
  return Status::Ok();
}

std::string NotifySink::Status(const Verdict& v) const {
  std::string status = "STATUS=" + StatusText(v);
  const bool on_its_way = v.state == State::kStarting || v.state == State::kProgressing ||
                          v.state == State::kInProgress || v.state == State::kSlow;
  if (on_its_way && ready_eta_) {
    if (auto eta = ready_eta_()) status += ", ready in " + FormatApproxDuration(*eta);
  }
  return status;
}

void NotifySink::OnVerdict(const Verdict& v) {
  std::string status = Status(v);
  if (status != last_status_) {
    last_status_ = status;
    send_(status);
  }
  if (v.state == State::kReady && !ready_sent_) {
    ready_sent_ = true;
    send_("READY=1");
  }
  switch (v.state) {
    case State::kStarting:
    case State::kProgressing:
    case State::kInProgress:
    case State::kSlow:
    case State::kReady:
      // Keep-alive: the startup moves (or the server is up). Nothing while stalled, crashed or
      // unknown, so systemd's watchdog ends a stuck start.
      send_("WATCHDOG=1");
      break;
    default:
      break;
  }
}

void NotifySink::Finish(const Verdict& v) {
  std::string status = Status(v);
  if (status != last_status_) {
    last_status_ = status;
    send_(status);
  }
  send_("STOPPING=1");
}

}  // namespace spinup
