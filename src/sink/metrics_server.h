// Serves GET /metrics (Prometheus text format 0.0.4) from a render function, on one thread of its
// own with a poll loop over plain sockets (no HTTP library: the release binary links nothing but
// the C library). Binds 127.0.0.1 unless another address is asked for: a startup's metrics name
// hosts, paths and errors, so exposing them is the operator's explicit choice.
//
// Bounds: at most 32 connections at once (more wait in the backlog), a request head of 8 KiB, no
// request bodies (413), every connection closed 5 s after it was accepted however slowly it
// sends, one request per connection. Idle or slow clients never block a scrape (the loop never
// blocks on one connection), and Stop() returns within about 100 ms.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "spinup/status.h"

namespace spinup {

struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port (tests)
};

// "9400", ":9400", "127.0.0.1:9400", "0.0.0.0:9400", "[::1]:9400". No host means 127.0.0.1.
Result<ListenAddress> ParseListenAddress(std::string_view text);

// "127.0.0.1:9400", "[::1]:9400".
std::string FormatHostPort(const std::string& host, int port);

class MetricsServer {
 public:
  explicit MetricsServer(std::function<std::string()> render);
  ~MetricsServer();  // stops and joins
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Binds and starts serving; fails (naming the address) when the port cannot be bound.
  Status Start(const ListenAddress& address);
  void Stop();
  int port() const { return port_; }  // the bound port (useful with port 0)

 private:
  void Loop();
  std::function<std::string()> render_;
  std::thread thread_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};  // Stop() writes to wake_[1]
  int port_ = 0;
};

}  // namespace spinup
