#include "sink/metrics_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <utility>
#include <vector>

#include "base/net.h"

namespace spinup {

Result<ListenAddress> ParseListenAddress(std::string_view text) {
  ListenAddress a;
  std::string_view port_text = text;
  if (!text.empty() && text.front() == '[') {  // [v6]:port
    size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return Status::InvalidArgument("--metrics: expected [ADDR]:PORT, got '" + std::string(text) +
                                     "'");
    }
    a.host = std::string(text.substr(1, close - 1));
    port_text = text.substr(close + 2);
  } else if (size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    if (colon > 0) a.host = std::string(text.substr(0, colon));
    port_text = text.substr(colon + 1);
  }
  int port = -1;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || ptr != port_text.data() + port_text.size() ||
      port < 0 || port > 65535 || a.host.empty()) {
    return Status::InvalidArgument("--metrics: expected ADDR:PORT or PORT, got '" +
                                   std::string(text) + "'");
  }
  a.port = port;
  return a;
}

namespace {

constexpr size_t kMaxConnections = 32;
constexpr size_t kMaxHead = 8 << 10;
constexpr auto kConnectionLifetime = std::chrono::seconds(5);

struct Connection {
  int fd = -1;
  std::chrono::steady_clock::time_point deadline;
  std::string in;
  std::string out;
  size_t sent = 0;
  bool responding = false;
};

std::string Response(int code, std::string_view reason, std::string_view type,
                     std::string_view body, bool head_only) {
  std::string r = "HTTP/1.1 " + std::to_string(code) + " " + std::string(reason) +
                  "\r\nContent-Type: " + std::string(type) +
                  "\r\nContent-Length: " + std::to_string(body.size()) +
                  "\r\nConnection: close\r\n\r\n";
  if (!head_only) r += body;
  return r;
}

// The request head is complete in `head`: choose the answer.
std::string Answer(std::string_view head, const std::function<std::string()>& render) {
  const size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.find(' ', sp1 == std::string_view::npos ? sp1 : sp1 + 1);
  constexpr std::string_view kText = "text/plain; charset=utf-8";
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos) {
    return Response(400, "Bad Request", kText, "bad request\n", false);
  }
  const std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  target = target.substr(0, target.find('?'));
  const bool head_only = method == "HEAD";
  if (method != "GET" && !head_only) {
    return Response(405, "Method Not Allowed", kText, "GET /metrics only\n", false);
  }
  // Header names are case-insensitive; any body at all is refused before it is read.
  std::string lower(head);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool body = lower.find("\r\ntransfer-encoding:") != std::string::npos;
  if (size_t cl = lower.find("\r\ncontent-length:"); cl != std::string::npos) {
    size_t from = cl + std::string_view("\r\ncontent-length:").size();
    std::string_view value = std::string_view(lower).substr(from, lower.find("\r\n", from) - from);
    const size_t first = value.find_first_not_of(" \t");
    value = first == std::string_view::npos ? std::string_view() : value.substr(first);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    body = body || value != "0";
  }
  if (body) return Response(413, "Payload Too Large", kText, "no request bodies\n", false);
  if (target == "/metrics") {
    return Response(200, "OK", "text/plain; version=0.0.4; charset=utf-8", render(), head_only);
  }
  if (target == "/") return Response(200, "OK", kText, "spinup: metrics at /metrics\n", head_only);
  return Response(404, "Not Found", kText, "not found\n", head_only);
}

// Reads what is there; returns false when the connection is finished with (closed or refused).
bool ReadRequest(Connection& c, const std::function<std::string()>& render) {
  char buf[4096];
  for (;;) {
    ssize_t n = ::recv(c.fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (n == 0) return false;
    c.in.append(buf, static_cast<size_t>(n));
    const size_t end = c.in.find("\r\n\r\n");
    if (end != std::string::npos && end <= kMaxHead) {
      c.out = Answer(std::string_view(c.in).substr(0, end + 2), render);
      c.responding = true;
      return true;
    }
    if (c.in.size() > kMaxHead) {
      c.out = Response(431, "Request Header Fields Too Large", "text/plain", "too large\n", false);
      c.responding = true;
      return true;
    }
  }
}

// Writes what the socket takes; returns false when done (all sent, or the peer went away).
bool WriteResponse(Connection& c) {
  while (c.sent < c.out.size()) {
    ssize_t n = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    c.sent += static_cast<size_t>(n);
  }
  return false;
}

}  // namespace

MetricsServer::MetricsServer(std::function<std::string()> render) : render_(std::move(render)) {}

MetricsServer::~MetricsServer() { Stop(); }

Status MetricsServer::Start(const ListenAddress& address) {
  if (listen_fd_ >= 0) return Status::Internal("metrics server already started");
  int port = 0;
  auto fd = ListenTcp(address.host, static_cast<uint16_t>(address.port), &port);
  if (!fd.ok()) {
    return Status::Io("--metrics: cannot listen on " + FormatHostPort(address.host, address.port) +
                      " (" + fd.status().message() + ")");
  }
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
    ::close(*fd);
    return Status::FromErrno(errno, "--metrics: pipe");
  }
  listen_fd_ = *fd;
  port_ = port;
  thread_ = std::thread([this] { Loop(); });
  return Status::Ok();
}

void MetricsServer::Loop() {
  std::vector<Connection> conns;
  std::vector<pollfd> fds;
  for (;;) {
    fds.clear();
    fds.push_back({wake_[0], POLLIN, 0});
    fds.push_back({listen_fd_, static_cast<short>(conns.size() < kMaxConnections ? POLLIN : 0), 0});
    for (const auto& c : conns) {
      fds.push_back({c.fd, static_cast<short>(c.responding ? POLLOUT : POLLIN), 0});
    }
    int n = ::poll(fds.data(), fds.size(), 100);
    if (n < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) break;  // Stop()
    const auto now = std::chrono::steady_clock::now();
    std::vector<Connection> keep;
    for (size_t i = 0; i < conns.size(); ++i) {
      Connection& c = conns[i];
      bool alive = now < c.deadline;
      const short ev = fds[i + 2].revents;
      if (alive && ev != 0) {
        if (!c.responding) alive = ReadRequest(c, render_);
        if (alive && c.responding) alive = WriteResponse(c);
      }
      if (alive) {
        keep.push_back(std::move(c));
      } else {
        ::close(c.fd);
      }
    }
    conns = std::move(keep);
    if (fds[1].revents & POLLIN) {
      while (conns.size() < kMaxConnections) {
        int cfd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0) break;
        conns.push_back({cfd, now + kConnectionLifetime, {}, {}, 0, false});
      }
    }
  }
  for (auto& c : conns) ::close(c.fd);
}

void MetricsServer::Stop() {
  if (listen_fd_ < 0) return;
  char one = 1;
  (void)!::write(wake_[1], &one, 1);
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
  listen_fd_ = -1;
  wake_[0] = wake_[1] = -1;
}

std::string FormatHostPort(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace spinup
