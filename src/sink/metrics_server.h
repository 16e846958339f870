// spinup's own HTTP endpoint: GET /metrics (Prometheus text format 0.0.4) and any routes the
// caller adds (/livez, /readyz), on one thread of its own. Binds 127.0.0.1 unless another address
// is asked for: a startup's metrics name hosts, paths and errors, so exposing them is the
// operator's explicit choice.
//
// A small HTTP/1.1 server on poll() rather than cpp-httplib (docs/metrics.md says why): one thread
// serves every connection, so an idle or slow client never holds a worker that a scrape needs.
// Promises, whatever clients do:
// - memory: at most max_connections x (kMaxRequestHeadBytes + one response); a request body is
//   refused from its headers (413) and never read;
// - time: each connection gets one total deadline from accept to the last byte written (not a
//   timeout that restarts with every byte), then it is closed;
// - capacity: when max_connections are open, the oldest is closed to admit a new one, so idle
//   connections cannot lock scrapes out;
// - exit: Stop() returns within a few milliseconds (an eventfd wakes the loop; nothing lingers).
// One request per connection (`Connection: close`): scrapes are seconds apart.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
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

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};
// Runs on the server's thread: must be thread-safe with respect to the caller's state.
using HttpHandler = std::function<HttpResponse()>;

struct HttpServerLimits {
  int max_connections = 64;
  std::chrono::milliseconds connection_deadline{5000};  // accept to last byte written
  int backlog = 128;
};

class MetricsServer {
 public:
  // `render` answers /metrics.
  explicit MetricsServer(std::function<std::string()> render, HttpServerLimits limits = {});
  ~MetricsServer();  // stops and joins
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Adds a GET/HEAD route (exact path). Before Start() only.
  void Route(std::string path, HttpHandler handler);
  // Binds and starts serving; fails (naming the address) when the port cannot be bound or the
  // thread cannot be made.
  Status Start(const ListenAddress& address);
  void Stop();
  int port() const { return port_; }  // the bound port (useful with port 0)

 private:
  void Serve();
  HttpResponse Answer(const std::string& path);

  std::map<std::string, HttpHandler, std::less<>> routes_;
  HttpServerLimits limits_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace spinup
