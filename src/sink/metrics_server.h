// Serves GET /metrics (Prometheus text format 0.0.4) from a render function, on its own thread,
// through cpp-httplib. Binds 127.0.0.1 unless another address is asked for: a startup's metrics
// name hosts, paths and errors, so exposing them is the operator's explicit choice.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "spinup/status.h"

namespace httplib {
class Server;
}

namespace spinup {

struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port (tests)
};

// "9400", ":9400", "127.0.0.1:9400", "0.0.0.0:9400", "[::1]:9400". No host means 127.0.0.1.
Result<ListenAddress> ParseListenAddress(std::string_view text);

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
  std::function<std::string()> render_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace spinup
