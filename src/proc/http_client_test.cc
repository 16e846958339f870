#include "proc/http_client.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <thread>

#include "test_util.h"

namespace spinup {
namespace {

TEST(HttpClient, ParsesLengthChunkedAndUnframedBodies) {
  auto a = ParseHttpResponse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello world", 100);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->body, "hello");
  auto c = ParseHttpResponse(
      "HTTP/1.1 503 Service Unavailable\r\ntransfer-encoding: Chunked\r\n\r\n"
      "5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n",
      100);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->status, 503);
  EXPECT_EQ(c->body, "hello world");
  auto u = ParseHttpResponse("HTTP/1.0 404 Not Found\r\n\r\nnope", 2);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->body, "no");  // capped
  EXPECT_FALSE(ParseHttpResponse("SSH-2.0-OpenSSH\r\n\r\n", 10).ok());
  EXPECT_FALSE(ParseHttpResponse("HTTP/1.1 2", 10).ok());
  EXPECT_FALSE(ParseHttpResponse("HTTP/1.1 200 OK\r\n", 10).ok());  // no end of head
}

TEST(HttpClient, KnowsWhenAResponseIsWhole) {
  EXPECT_FALSE(HttpResponseComplete("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel"));
  EXPECT_TRUE(HttpResponseComplete("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
  EXPECT_FALSE(
      HttpResponseComplete("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhe"));
  EXPECT_TRUE(
      HttpResponseComplete("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"));
  EXPECT_FALSE(HttpResponseComplete("HTTP/1.1 200 OK\r\n\r\nuntil close"));
}

TEST(HttpClient, PostsToARealServerAndReportsRefusals) {
  httplib::Server server;
  server.Post("/generate", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content("{\"echo\":" + req.body + "}", "application/json");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread t([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  HttpCall call;
  call.port = static_cast<uint16_t>(port);
  call.method = "POST";
  call.path = "/generate";
  call.body = "{\"a\":1}";
  auto a = HttpExchange(call);
  server.stop();
  t.join();
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->body, "{\"echo\":{\"a\":1}}");
  call.port = static_cast<uint16_t>(testing::FreePort());
  auto refused = HttpExchange(call);
  EXPECT_FALSE(refused.ok());
  std::atomic<bool> cancel{true};
  call.cancel = &cancel;
  auto canceled = HttpExchange(call);
  ASSERT_FALSE(canceled.ok());
  EXPECT_EQ(canceled.status().message(), "canceled");
}

}  // namespace
}  // namespace spinup
