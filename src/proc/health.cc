#include "proc/health.h"

#include <nlohmann/json.hpp>

#include <string_view>

#include "proc/http_client.h"

namespace spinup::proc {
namespace {

// GET path; the status code of the answer, or nullopt when nothing answered in time.
std::optional<int> GetStatus(const HealthProbeOptions& o, std::string_view path) {
  HttpCall call;
  call.host = o.host;
  call.port = o.port;
  call.path = std::string(path);
  call.connect_timeout = o.connect_timeout;
  call.timeout = o.read_timeout;
  call.max_response = 64 << 10;  // the status is all we use
  auto answer = HttpExchange(call);
  if (!answer.ok()) return std::nullopt;
  return answer->status;
}

}  // namespace

std::optional<HealthAnswer> ProbeHealthDetailed(const HealthProbeOptions& options) {
  if (options.port == 0) return std::nullopt;
  for (const char* path : {"/health", "/v1/models"}) {
    auto status = GetStatus(options, path);
    if (!status) return std::nullopt;  // nothing answers: the second path would not either
    if (*status == 404 || *status == 405) continue;
    return HealthAnswer{*status, path};
  }
  return HealthAnswer{404, "/v1/models"};
}

std::optional<int> ProbeHealth(const HealthProbeOptions& options) {
  auto answer = ProbeHealthDetailed(options);
  if (!answer) return std::nullopt;
  return answer->status;
}

}  // namespace spinup::proc

namespace spinup::proc {

namespace {

std::string Cap(std::string_view s) {
  std::string out(s.substr(0, kFirstRequestBodyCap));
  if (s.size() > kFirstRequestBodyCap) out += "...";
  return out;
}

std::string OneLine(std::string_view s, size_t max = 200) {
  std::string out;
  for (char c : s.substr(0, max)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (s.size() > max) out += "...";
  return out;
}

}  // namespace

std::optional<std::string> FirstModelId(std::string_view models_json) {
  auto j = nlohmann::json::parse(models_json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  auto data = j.find("data");
  if (data == j.end() || !data->is_array() || data->empty()) return std::nullopt;
  const auto& first = (*data)[0];
  if (!first.is_object()) return std::nullopt;
  auto id = first.find("id");
  if (id == first.end() || !id->is_string()) return std::nullopt;
  return id->get<std::string>();
}

std::optional<std::string> GenerationProblem(std::string_view request, int status,
                                             std::string_view body) {
  if (status != 200) {
    return request.empty() ? "HTTP " + std::to_string(status)
                           : std::string(request) + " answered HTTP " + std::to_string(status) +
                                 (body.empty() ? "" : ": " + OneLine(body));
  }
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded())
    return std::string(request) + " answered 200 but not JSON: " + OneLine(body);
  // SGLang's /generate: {"text": ..., "meta_info": ...} (a list for batched input).
  if (j.is_array() && !j.empty()) j = j[0];
  if (!j.is_object()) return std::string(request) + " answered 200 without a generation";
  if (auto e = j.find("error"); e != j.end() && !e->is_null()) {
    return std::string(request) + " answered 200 with an error: " + OneLine(e->dump());
  }
  if (auto t = j.find("text"); t != j.end() && t->is_string()) return std::nullopt;
  if (auto c = j.find("choices"); c != j.end() && c->is_array() && !c->empty()) {
    return std::nullopt;
  }
  return std::string(request) + " answered 200 without a generation: " + OneLine(body);
}

struct FirstRequestProbe::Impl {
  FirstRequestOptions options;
  std::atomic<bool> stopped{false};
  explicit Impl(FirstRequestOptions o) : options(std::move(o)) {}
  Result<HttpAnswer> Call(const std::string& method, const std::string& path, std::string body) {
    HttpCall c;
    c.host = options.host;
    c.port = options.port;
    c.method = method;
    c.path = path;
    c.body = std::move(body);
    c.connect_timeout = options.connect_timeout;
    c.timeout = options.timeout;
    c.cancel = &stopped;
    return HttpExchange(c);
  }
};

FirstRequestProbe::FirstRequestProbe(FirstRequestOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
FirstRequestProbe::~FirstRequestProbe() = default;

void FirstRequestProbe::Stop() { impl_->stopped = true; }

FirstRequestAnswer FirstRequestProbe::Run() {
  FirstRequestAnswer a;
  auto post = [&](const std::string& path, const nlohmann::json& body) {
    a.request = "POST " + path;
    auto t0 = std::chrono::steady_clock::now();
    auto res = impl_->Call("POST", path, body.dump());
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!res.ok()) {
      a.answered = false;
      a.error = a.request + ": no answer (" + res.status().message() + ")";
      return false;
    }
    a.answered = true;
    a.http_status = res->status;
    a.body = Cap(res->body);
    auto problem = GenerationProblem(a.request, res->status, res->body);
    a.served = !problem;
    a.error = problem.value_or("");
    return true;
  };
  if (impl_->options.engine == "sglang") {
    nlohmann::json body = {{"text", "Hello"},
                           {"sampling_params", {{"max_new_tokens", 1}, {"temperature", 0}}}};
    if (!post("/generate", body)) return a;
    if (a.http_status != 404 && a.http_status != 405) return a;
  }
  if (impl_->stopped) return a;
  auto models = impl_->Call("GET", "/v1/models", "");
  std::optional<std::string> model;
  if (models.ok() && models->status == 200) model = FirstModelId(models->body);
  if (!model) {
    a.request = "GET /v1/models";
    a.answered = models.ok();
    a.http_status = models.ok() ? models->status : 0;
    a.body = models.ok() ? Cap(models->body) : "";
    a.error = models.ok()
                  ? "GET /v1/models named no model (HTTP " + std::to_string(models->status) + ")"
                  : "GET /v1/models: no answer (" + models.status().message() + ")";
    return a;
  }
  post("/v1/completions",
       {{"model", *model}, {"prompt", "Hello"}, {"max_tokens", 1}, {"temperature", 0}});
  return a;
}

}  // namespace spinup::proc
