#include "sink/metrics_server.h"

#include <httplib.h>

#include <gtest/gtest.h>

#include "sink/metrics_sink.h"

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

}  // namespace
}  // namespace spinup
