// The HTTP health probe: is the server answering yet? GET /health; when the server has no such
// route (404/405), GET /v1/models instead. Short timeouts, one attempt per call: the caller probes
// once per interval. SGLang answers /health with 503 until its warm-up request finished, so a 503
// is returned as is (not ready) rather than falling back to /v1/models, which answers 200 earlier.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

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

namespace spinup::proc {

// `--probe generate`: ready means serving. After /health passes, one minimal generation (one
// token) must succeed: SGLang's native POST /generate, else (vLLM, unknown engines, or an SGLang
// without /generate) the OpenAI-compatible POST /v1/completions with the model id from
// GET /v1/models.
struct FirstRequestOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::string engine;  // "sglang" tries /generate first
  std::chrono::milliseconds connect_timeout{1000};
  std::chrono::milliseconds timeout{60000};  // the whole request: a first request may compile
};

struct FirstRequestAnswer {
  bool served = false;    // a 200 with a generation in it
  bool answered = false;  // any HTTP answer (false: refused, reset, or timed out)
  int http_status = 0;
  std::string request;  // "POST /generate", "POST /v1/completions"
  double seconds = 0;   // the generation request alone
  std::string body;     // the response, capped (evidence when it failed)
  std::string error;    // one line when not served
};

// One probe. Run() blocks for at most about options.timeout (plus the models lookup); Stop(), from
// another thread, makes it return at once (the watch ended: never wait for a hung server).
class FirstRequestProbe {
 public:
  explicit FirstRequestProbe(FirstRequestOptions options);
  ~FirstRequestProbe();
  FirstRequestProbe(const FirstRequestProbe&) = delete;
  FirstRequestProbe& operator=(const FirstRequestProbe&) = delete;
  FirstRequestAnswer Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Pure helpers (tested on their own).
// The first model id of a /v1/models answer ({"data":[{"id":...}]}); nullopt when absent.
std::optional<std::string> FirstModelId(std::string_view models_json);
// nullopt when the body is a served generation; else why not (one line).
std::optional<std::string> GenerationProblem(std::string_view request, int status,
                                             std::string_view body);
// Response bodies kept as evidence are capped to this many bytes.
inline constexpr size_t kFirstRequestBodyCap = 2048;

}  // namespace spinup::proc
