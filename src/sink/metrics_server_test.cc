#include "sink/metrics_server.h"

#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "sink/http_request.h"
#include "sink/metrics_sink.h"
#include "sink/probe_endpoints.h"

namespace spinup {
namespace {

TEST(ListenAddress, ParsesForms) {
  auto a = ParseListenAddress("9400");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9400);
  a = ParseListenAddress(":9401");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  a = ParseListenAddress("0.0.0.0:9402");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "0.0.0.0");
  a = ParseListenAddress("[::1]:9403");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->port, 9403);
  EXPECT_FALSE(ParseListenAddress("host:").ok());
  EXPECT_FALSE(ParseListenAddress("host:70000").ok());
  EXPECT_FALSE(ParseListenAddress("x:12ab").ok());
  EXPECT_FALSE(ParseListenAddress("[::1]9403").ok());
}

TEST(MetricsServer, ServesMetricsOnAnEphemeralLoopbackPort) {
  Verdict v;
  v.state = State::kStalled;
  v.phase = Phase::kDistributedInit;
  v.ranks = {{"TP0", Phase::kDistributedInit, std::nullopt}};
  MetricsSink sink({"model", "host1", "test"}, [] { return int64_t{1'700'000'000'000}; });
  sink.OnVerdict(v);
  MetricsServer server([&] { return sink.Render(); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  ASSERT_GT(server.port(), 0);

  httplib::Client client("127.0.0.1", server.port());
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Type").find("version=0.0.4"), std::string::npos);
  auto parsed = ParseExposition(res->body);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const ParsedSample* st = parsed->Find("spinup_startup_state", {{"state", "stalled"}});
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->value, 1);
  EXPECT_EQ(st->labels.at("host"), "host1");

  auto missing = client.Get("/nope");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);

  // A second server cannot take the same port: a clear error, not a crash.
  MetricsServer clash([] { return std::string(); });
  Status s = clash.Start({"127.0.0.1", server.port()});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(std::to_string(server.port())), std::string::npos);
  server.Stop();
  EXPECT_FALSE(client.Get("/metrics"));
}

TEST(MetricsServer, StopRightAfterStartDoesNotHang) {
  MetricsServer server([] { return std::string("x 1\n"); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  server.Stop();
  server.Stop();
}

// A raw client: what a hostile or broken one would send, byte by byte if need be.
class RawClient {
 public:
  explicit RawClient(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }
  ~RawClient() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool Send(std::string_view s) {
    return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
  }
  // Everything until the server closes (or 10 s pass).
  std::string ReadAll() {
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::recv(fd_, buf, sizeof(buf), 0)) > 0) out.append(buf, static_cast<size_t>(n));
    return out;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

std::string Get(int port, const std::string& path) {
  RawClient c(port);
  EXPECT_TRUE(c.connected());
  c.Send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
  return c.ReadAll();
}

TEST(HttpRequestHead, DecidesFromTheHeadAlone) {
  using O = HttpRequestHead::Outcome;
  auto h = ParseHttpRequestHead("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(h.outcome, O::kComplete);
  EXPECT_EQ(h.path, "/metrics");
  EXPECT_FALSE(h.head);
  EXPECT_EQ(ParseHttpRequestHead("GET /metrics HTTP/1.1\r\nHost").outcome, O::kIncomplete);
  EXPECT_EQ(ParseHttpRequestHead("GET /met").outcome, O::kIncomplete);
  EXPECT_TRUE(ParseHttpRequestHead("HEAD / HTTP/1.0\n\n").head);
  // A body is refused as soon as its header arrives, before the head ends.
  h = ParseHttpRequestHead("POST /metrics HTTP/1.1\r\nContent-Length: 1000000000\r\n");
  EXPECT_EQ(h.outcome, O::kRefused);
  EXPECT_EQ(h.status, 405);
  h = ParseHttpRequestHead("GET /metrics HTTP/1.1\r\ncontent-length: 5\r\n");
  EXPECT_EQ(h.status, 413);
  h = ParseHttpRequestHead("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
  EXPECT_EQ(h.status, 413);
  EXPECT_EQ(ParseHttpRequestHead("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").outcome,
            O::kComplete);
  EXPECT_EQ(ParseHttpRequestHead("GET / HTTP/2.0\r\n\r\n").status, 505);
  EXPECT_EQ(ParseHttpRequestHead("GET  / HTTP/1.1\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHttpRequestHead("GET x HTTP/1.1\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHttpRequestHead(std::string(kMaxRequestHeadBytes, 'a')).status, 414);
  EXPECT_EQ(
      ParseHttpRequestHead("GET / HTTP/1.1\r\nX: " + std::string(kMaxRequestHeadBytes, 'a')).status,
      431);
}

TEST(MetricsServer, RefusesBodiesWithoutReadingThem) {
  MetricsServer server([] { return std::string("x 1\n"); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  RawClient c(server.port());
  ASSERT_TRUE(c.connected());
  c.Send("GET /metrics HTTP/1.1\r\nContent-Length: 1073741824\r\n\r\n");
  c.Send(std::string(64 * 1024, 'x'));  // the start of the "1 GB" body
  std::string reply = c.ReadAll();
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 413 ")) << reply;
  EXPECT_NE(Get(server.port(), "/metrics").find("x 1"), std::string::npos);
}

TEST(MetricsServer, ServesScrapesWhileSlowAndIdleClientsSit) {
  HttpServerLimits limits;
  limits.max_connections = 16;
  limits.connection_deadline = std::chrono::milliseconds(400);
  MetricsServer server([] { return std::string("x 1\n"); }, limits);
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  // 40 idle connections (more than the server keeps) and a slowloris trickling its head.
  std::vector<std::unique_ptr<RawClient>> idle;
  for (int i = 0; i < 40; ++i) idle.push_back(std::make_unique<RawClient>(server.port()));
  RawClient slow(server.port());
  ASSERT_TRUE(slow.connected());
  slow.Send("GET /metrics HTTP/1.1\r\n");
  std::string reply = Get(server.port(), "/metrics");
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 200 ")) << reply;
  EXPECT_NE(reply.find("x 1"), std::string::npos);
  // The deadline is total: a byte now and then does not extend it, the server closes the
  // connection before the head is ever complete (a read timeout that restarts would not).
  bool closed = false;
  for (int i = 0; i < 100 && !closed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    closed = !slow.Send("X");  // fails (EPIPE/ECONNRESET) once the server has closed
  }
  EXPECT_TRUE(closed) << "the trickling client was never cut off";
  // And Stop() returns with clients still connected.
  RawClient lingering(server.port());
  lingering.Send("GET /metrics HTTP/1.1\r\n");
  server.Stop();
  EXPECT_EQ(lingering.ReadAll(), "");
}

TEST(ProbeEndpoints, LivezAndReadyzFollowTheState) {
  ProbeEndpoints probes;
  MetricsServer server([] { return std::string(); });
  probes.AddRoutes(server);
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());
  auto status = [&](const char* path) {
    std::string r = Get(server.port(), path);
    return r.substr(0, std::min<size_t>(r.size(), 12));
  };
  EXPECT_EQ(status("/livez"), "HTTP/1.1 200");
  EXPECT_EQ(status("/readyz"), "HTTP/1.1 503");
  Verdict v;
  for (State s : {State::kProgressing, State::kSlow}) {
    v.state = s;
    probes.OnVerdict(v);
    EXPECT_EQ(status("/livez"), "HTTP/1.1 200") << StateName(s);
    EXPECT_EQ(status("/readyz"), "HTTP/1.1 503") << StateName(s);
  }
  v.state = State::kReady;
  probes.OnVerdict(v);
  EXPECT_EQ(status("/livez"), "HTTP/1.1 200");
  EXPECT_EQ(status("/readyz"), "HTTP/1.1 200");
  for (State s : {State::kStalled, State::kCrashed}) {
    v.state = s;
    v.headline = "STALLED in distributed_init\nsecond line";
    probes.OnVerdict(v);
    std::string r = Get(server.port(), "/livez");
    EXPECT_TRUE(r.starts_with("HTTP/1.1 503")) << r;
    EXPECT_NE(r.find("STALLED in distributed_init second line\n"), std::string::npos);
    EXPECT_EQ(status("/readyz"), "HTTP/1.1 503");
  }
}

}  // namespace
}  // namespace spinup
