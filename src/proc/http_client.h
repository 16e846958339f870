// spinup's HTTP client for the server probes (health, first request): one request per
// connection over plain sockets, so the release binary links no HTTP library. The response
// parser is pure and fuzzed (fuzz/http_response_fuzz.cc): the answer comes from the watched
// server, which may be broken in any way.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

struct HttpAnswer {
  int status = 0;
  std::string body;  // de-chunked, at most max_body bytes
};

// Everything a server sent on one connection (read until it closed or HttpResponseComplete).
// A missing or malformed status line is an error; a short body is what arrived.
Result<HttpAnswer> ParseHttpResponse(std::string_view raw, size_t max_body);

// True once `raw` holds a whole response by its own framing (Content-Length reached, or the
// last chunk); a response without framing ends when the server closes.
bool HttpResponseComplete(std::string_view raw);

struct HttpCall {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::string method = "GET";
  std::string path = "/";
  std::string body;  // sent as application/json when not empty
  std::chrono::milliseconds connect_timeout{1000};
  std::chrono::milliseconds timeout{1000};    // the whole exchange after the connect
  const std::atomic<bool>* cancel = nullptr;  // checked every 100 ms
  size_t max_response = 1 << 20;              // bytes read at most; the body is cut there
};

// One exchange with `Connection: close`. Errors name what failed in a few words, for
// "no answer (...)": "HOST:PORT: Connection refused", "timed out", "canceled",
// "not an HTTP answer".
Result<HttpAnswer> HttpExchange(const HttpCall& call);

}  // namespace spinup
