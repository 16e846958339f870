#include "sink/metrics_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <deque>
#include <system_error>
#include <utility>
#include <vector>

#include "sink/http_request.h"

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

using Clock = std::chrono::steady_clock;

struct Connection {
  int fd = -1;
  Clock::time_point deadline;
  std::string in;
  std::string out;
  size_t written = 0;
  bool writing = false;
};

std::string Serialize(const HttpResponse& r, bool head_only) {
  std::string s = "HTTP/1.1 " + std::to_string(r.status) + " " +
                  std::string(HttpReasonPhrase(r.status)) + "\r\nContent-Type: " + r.content_type +
                  "\r\nContent-Length: " + std::to_string(r.body.size()) +
                  "\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n";
  if (!head_only) s += r.body;
  return s;
}

void CloseConnection(Connection& c) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
}

// Reads what is there (one bounded read per wake-up) and decides once the head is complete.
void ReadSome(Connection& c, const std::function<HttpResponse(const std::string&)>& answer) {
  char buf[4096];
  ssize_t n = ::recv(c.fd, buf, sizeof(buf), 0);
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
    return CloseConnection(c);
  }
  if (n < 0) return;
  size_t room = kMaxRequestHeadBytes + 1 - std::min(c.in.size(), kMaxRequestHeadBytes + 1);
  c.in.append(buf, std::min(static_cast<size_t>(n), room));
  HttpRequestHead head = ParseHttpRequestHead(c.in);
  if (head.outcome == HttpRequestHead::Outcome::kIncomplete) return;
  HttpResponse r;
  if (head.outcome == HttpRequestHead::Outcome::kRefused) {
    r.status = head.status;
    r.body = head.reason + "\n";
  } else {
    r = answer(head.path);
  }
  c.in.clear();
  c.in.shrink_to_fit();
  c.out = Serialize(r, head.head);
  c.writing = true;
}

void WriteSome(Connection& c) {
  while (c.written < c.out.size()) {
    ssize_t n = ::send(c.fd, c.out.data() + c.written, c.out.size() - c.written, MSG_NOSIGNAL);
    if (n > 0) {
      c.written += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n < 0 && errno == EINTR) continue;
    return CloseConnection(c);
  }
  ::shutdown(c.fd, SHUT_WR);
  CloseConnection(c);
}

int BindListener(const ListenAddress& a, int backlog, int* bound_port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string port = std::to_string(a.port);
  if (::getaddrinfo(a.host.c_str(), port.c_str(), &hints, &res) != 0) return -1;
  int fd = -1;
  for (addrinfo* p = res; p != nullptr && fd < 0; p = p->ai_next) {
    fd = ::socket(p->ai_family, p->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, p->ai_protocol);
    if (fd < 0) continue;
    // SO_REUSEADDR only (no SO_REUSEPORT): a second spinup must not share the port and answer
    // half the scrapes; a busy port is an error.
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (::bind(fd, p->ai_addr, p->ai_addrlen) != 0 || ::listen(fd, backlog) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(res);
  if (fd < 0) return -1;
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  *bound_port = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                         : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return fd;
}

}  // namespace

MetricsServer::MetricsServer(std::function<std::string()> render, HttpServerLimits limits)
    : limits_(limits) {
  Route("/metrics", [render = std::move(render)] {
    return HttpResponse{200, "text/plain; version=0.0.4; charset=utf-8", render()};
  });
  Route("/", [] {
    return HttpResponse{200, "text/plain; charset=utf-8", "spinup: metrics at /metrics\n"};
  });
}

MetricsServer::~MetricsServer() { Stop(); }

void MetricsServer::Route(std::string path, HttpHandler handler) {
  routes_[std::move(path)] = std::move(handler);
}

HttpResponse MetricsServer::Answer(const std::string& path) {
  auto it = routes_.find(path);
  if (it == routes_.end()) return HttpResponse{404, "text/plain; charset=utf-8", "not found\n"};
  try {
    return it->second();
  } catch (const std::exception& e) {
    return HttpResponse{500, "text/plain; charset=utf-8", std::string("error: ") + e.what() + "\n"};
  }
}

Status MetricsServer::Start(const ListenAddress& address) {
  if (listen_fd_ >= 0) return Status::Internal("metrics server already started");
  int port = 0;
  listen_fd_ = BindListener(address, limits_.backlog, &port);
  if (listen_fd_ < 0) {
    return Status::Io("--metrics: cannot listen on " + address.host + ":" +
                      std::to_string(address.port) + " (address in use or not local)");
  }
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  try {
    if (wake_fd_ < 0) throw std::system_error(errno, std::generic_category());
    thread_ = std::thread([this] { Serve(); });
  } catch (const std::system_error& e) {
    Stop();
    return Status::Io(std::string("--metrics: cannot start the server thread: ") + e.what());
  }
  port_ = port;
  return Status::Ok();
}

void MetricsServer::Stop() {
  if (thread_.joinable()) {
    uint64_t one = 1;
    ssize_t w = ::write(wake_fd_, &one, sizeof(one));
    (void)w;
    thread_.join();
  }
  if (wake_fd_ >= 0) ::close(wake_fd_);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  wake_fd_ = listen_fd_ = -1;
}

void MetricsServer::Serve() {
  // Signals are the loops' business (their signalfd): this thread takes none, so a SIGCHLD or a
  // SIGTERM to the process is never delivered here.
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::deque<Connection> conns;  // oldest first
  auto answer = [this](const std::string& path) { return Answer(path); };
  std::vector<pollfd> pfds;
  while (true) {
    pfds.clear();
    pfds.push_back({wake_fd_, POLLIN, 0});
    pfds.push_back({listen_fd_, POLLIN, 0});
    auto now = Clock::now();
    int timeout = -1;
    for (const auto& c : conns) {
      pfds.push_back({c.fd, static_cast<short>(c.writing ? POLLOUT : POLLIN), 0});
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(c.deadline - now).count();
      int ms = static_cast<int>(std::clamp<int64_t>(left + 1, 0, 60'000));
      timeout = timeout < 0 ? ms : std::min(timeout, ms);
    }
    if (::poll(pfds.data(), pfds.size(), timeout) < 0 && errno != EINTR) break;
    if (pfds[0].revents != 0) break;
    for (size_t i = 0; i < conns.size(); ++i) {
      short ev = pfds[i + 2].revents;
      if (ev == 0 || conns[i].fd < 0) continue;
      if (conns[i].writing) {
        WriteSome(conns[i]);
      } else {
        ReadSome(conns[i], answer);
        if (conns[i].writing) WriteSome(conns[i]);
      }
    }
    now = Clock::now();
    for (auto& c : conns) {
      if (c.fd >= 0 && now >= c.deadline) CloseConnection(c);
    }
    std::erase_if(conns, [](const Connection& c) { return c.fd < 0; });
    if (pfds[1].revents != 0) {
      for (int k = 0; k < limits_.max_connections; ++k) {
        int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) break;
        if (static_cast<int>(conns.size()) >= limits_.max_connections) {
          CloseConnection(conns.front());  // the oldest has had the longest chance
          conns.pop_front();
        }
        conns.push_back(
            Connection{fd, Clock::now() + limits_.connection_deadline, {}, {}, 0, false});
      }
    }
  }
  for (auto& c : conns) CloseConnection(c);
}

}  // namespace spinup
