#include "sink/metrics_server.h"

#include <httplib.h>

#include <charconv>
#include <chrono>
#include <utility>

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

MetricsServer::MetricsServer(std::function<std::string()> render) : render_(std::move(render)) {}

MetricsServer::~MetricsServer() { Stop(); }

Status MetricsServer::Start(const ListenAddress& address) {
  if (server_) return Status::Internal("metrics server already started");
  server_ = std::make_unique<httplib::Server>();
  // Scrapes are rare and small: two worker threads are plenty and keep the agent light.
  // cpp-httplib's default is SO_REUSEPORT, which would let a second spinup share the port and
  // answer half the scrapes: SO_REUSEADDR alone makes a busy port an error.
  server_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server_->new_task_queue = [] { return new httplib::ThreadPool(2); };
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(render_(), "text/plain; version=0.0.4; charset=utf-8");
  });
  server_->Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("spinup: metrics at /metrics\n", "text/plain; charset=utf-8");
  });
  int port = address.port;
  if (port == 0) {
    port = server_->bind_to_any_port(address.host);
  } else if (!server_->bind_to_port(address.host, port)) {
    port = -1;
  }
  if (port <= 0) {
    server_.reset();
    return Status::Io("--metrics: cannot listen on " + address.host + ":" +
                      std::to_string(address.port) + " (address in use or not local)");
  }
  port_ = port;
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() before the listen loop runs would be lost and join() would hang: wait for it.
  for (int i = 0; i < 2000 && !server_->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Ok();
}

void MetricsServer::Stop() {
  if (!server_) return;
  server_->stop();
  if (thread_.joinable()) thread_.join();
  server_.reset();
}

}  // namespace spinup
