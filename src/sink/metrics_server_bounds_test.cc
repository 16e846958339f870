// The socket server's bounds (no HTTP library; see metrics_server.h): bodies refused, idle and
// slow clients never block a scrape, Stop() is quick, IPv6 addresses print with brackets.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "base/net.h"
#include "sink/metrics_server.h"

namespace spinup {
namespace {

using namespace std::chrono_literals;

std::string Exchange(int port, const std::string& request) {
  auto fd = ConnectTcp("127.0.0.1", static_cast<uint16_t>(port), 2s);
  EXPECT_TRUE(fd.ok());
  if (!fd.ok()) return {};
  const auto deadline = std::chrono::steady_clock::now() + 15s;
  size_t sent = 0;
  while (sent < request.size() && PollUntil(*fd, POLLOUT, deadline)) {
    ssize_t n = ::send(*fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string got;
  char buf[4096];
  while (PollUntil(*fd, POLLIN, deadline)) {
    ssize_t n = ::recv(*fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(*fd);
  return got;
}

TEST(MetricsServerBounds, AnswersGetAndHeadAndRefusesBodiesAndOtherMethods) {
  MetricsServer server([] { return std::string("spinup_ready 1\n"); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  std::string get = Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(get.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << get;
  EXPECT_NE(get.find("\r\n\r\nspinup_ready 1\n"), std::string::npos);
  std::string head = Exchange(server.port(), "HEAD /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(head.find("spinup_ready"), std::string::npos);
  std::string post =
      Exchange(server.port(), "POST /metrics HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\nxx");
  EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
  std::string body = Exchange(server.port(), "GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\n");
  EXPECT_EQ(body.rfind("HTTP/1.1 413", 0), 0u) << body;
  std::string chunked =
      Exchange(server.port(), "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
  EXPECT_EQ(chunked.rfind("HTTP/1.1 413", 0), 0u) << chunked;
  std::string huge = Exchange(
      server.port(), "GET /metrics HTTP/1.1\r\nX: " + std::string(20000, 'a') + "\r\n\r\n");
  EXPECT_EQ(huge.rfind("HTTP/1.1 431", 0), 0u) << huge.substr(0, 40);
  EXPECT_EQ(Exchange(server.port(), "GET /nope HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
}

TEST(MetricsServerBounds, IdleConnectionsDoNotBlockScrapesOrStop) {
  MetricsServer server([] { return std::string("spinup_ready 1\n"); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  std::vector<int> idle;
  for (int i = 0; i < 60; ++i) {  // more than the connection cap; some wait in the backlog
    auto fd = ConnectTcp("127.0.0.1", static_cast<uint16_t>(server.port()), 2s);
    ASSERT_TRUE(fd.ok());
    ::send(*fd, "GET /met", 8, MSG_NOSIGNAL);  // a slowloris: a head that never ends
    idle.push_back(*fd);
  }
  // The idle ones are dropped at their 5 s lifetime at the latest, so a scrape gets through.
  std::string got = Exchange(server.port(), "GET /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 200", 0), 0u) << got;
  const auto stop0 = std::chrono::steady_clock::now();
  server.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - stop0, 1s) << "Stop() must not wait on clients";
  for (int fd : idle) ::close(fd);
}

TEST(MetricsServerBounds, BusyPortIsAnErrorAndIpv6PrintsWithBrackets) {
  MetricsServer a([] { return std::string(); });
  ASSERT_TRUE(a.Start({"127.0.0.1", 0}).ok());
  MetricsServer b([] { return std::string(); });
  Status st = b.Start({"127.0.0.1", a.port()});
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("127.0.0.1:" + std::to_string(a.port())), std::string::npos);
  EXPECT_EQ(FormatHostPort("::1", 9400), "[::1]:9400");
  EXPECT_EQ(FormatHostPort("0.0.0.0", 9400), "0.0.0.0:9400");
}

}  // namespace
}  // namespace spinup
