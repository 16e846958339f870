// The HTTP health probe: is the server answering yet? GET /health; when the server has no such
// route (404/405), GET /v1/models instead. Short timeouts, one attempt per call: the caller probes
// once per interval. SGLang answers /health with 503 until its warm-up request finished, so a 503
// is returned as is (not ready) rather than falling back to /v1/models, which answers 200 earlier.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace spinup::proc {

struct HealthProbeOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::chrono::milliseconds connect_timeout{300};
  std::chrono::milliseconds read_timeout{1000};
};

struct HealthAnswer {
  int status = 0;    // HTTP status
  std::string path;  // "/health" or "/v1/models"
};

// The answer, or nullopt when nothing answered (refused, timed out, not HTTP).
std::optional<HealthAnswer> ProbeHealthDetailed(const HealthProbeOptions& options);
// Just the status (for Sample::health_http_status).
std::optional<int> ProbeHealth(const HealthProbeOptions& options);

}  // namespace spinup::proc
