#include "proc/health.h"

#include <httplib.h>

#include <chrono>
#include <functional>
#include <thread>

#include <gtest/gtest.h>

namespace spinup::proc {
namespace {

// A local HTTP server on a free port, serving the given routes, stopped on destruction.
class LocalServer {
 public:
  explicit LocalServer(std::function<void(httplib::Server&)> routes) {
    routes(server_);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~LocalServer() {
    server_.stop();
    thread_.join();
  }
  uint16_t port() const { return static_cast<uint16_t>(port_); }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

HealthProbeOptions On(uint16_t port) {
  HealthProbeOptions o;
  o.port = port;
  return o;
}

TEST(ProbeHealth, HealthAnswers) {
  LocalServer srv([](httplib::Server& s) {
    s.Get("/health", [](const httplib::Request&, httplib::Response& r) { r.status = 200; });
  });
  auto a = ProbeHealthDetailed(On(srv.port()));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->path, "/health");
  EXPECT_EQ(ProbeHealth(On(srv.port())), std::optional<int>(200));
}

TEST(ProbeHealth, StartingIsNotReadyAndDoesNotFallBack) {
  LocalServer srv([](httplib::Server& s) {
    s.Get("/health", [](const httplib::Request&, httplib::Response& r) { r.status = 503; });
    s.Get("/v1/models", [](const httplib::Request&, httplib::Response& r) { r.status = 200; });
  });
  EXPECT_EQ(ProbeHealth(On(srv.port())), std::optional<int>(503));
}

TEST(ProbeHealth, FallsBackToModelsWhenNoHealthRoute) {
  LocalServer srv([](httplib::Server& s) {
    s.Get("/v1/models", [](const httplib::Request&, httplib::Response& r) { r.status = 200; });
  });
  auto a = ProbeHealthDetailed(On(srv.port()));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->path, "/v1/models");
}

TEST(ProbeHealth, NothingListening) {
  uint16_t port = 0;
  {
    LocalServer srv([](httplib::Server&) {});
    port = srv.port();
  }  // closed again: nothing listens there now
  EXPECT_FALSE(ProbeHealth(On(port)));
  EXPECT_FALSE(ProbeHealth(On(0)));
}

}  // namespace
}  // namespace spinup::proc
