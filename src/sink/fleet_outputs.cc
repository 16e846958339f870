#include "sink/fleet_outputs.h"

#include <utility>

namespace spinup {

Result<std::unique_ptr<FleetOutputs>> FleetOutputs::Start(const FleetConfig& config,
                                                          std::function<int64_t()> now_ms) {
  auto out = std::unique_ptr<FleetOutputs>(new FleetOutputs());
  if (config.metrics) {
    out->metrics_ = std::make_unique<MetricsSink>(
        MetricsConfig{config.model_label, config.host, config.version}, now_ms);
    MetricsSink* sink = out->metrics_.get();
    out->server_ = std::make_unique<MetricsServer>([sink] { return sink->Render(); });
    out->probes_ = std::make_unique<ProbeEndpoints>();
    out->probes_->AddRoutes(*out->server_);
    Status st = out->server_->Start(*config.metrics);
    if (!st.ok()) return st;
  }
  if (!config.report_path.empty()) {
    ReportOptions ro;
    ro.model = config.model_label;
    ro.host = config.host;
    ro.source = config.source;
    out->report_ = std::make_unique<HtmlReportSink>(ro, now_ms, config.report_path);
  }
  return out;
}

std::vector<Sink*> FleetOutputs::sinks() {
  std::vector<Sink*> v;
  if (metrics_) v.push_back(metrics_.get());
  if (probes_) v.push_back(probes_.get());
  if (report_) v.push_back(report_.get());
  return v;
}

Status FleetOutputs::Finish() {
  if (server_) server_->Stop();
  if (report_) return report_->write_status();
  return Status::Ok();
}

std::string DefaultModelLabel(std::string_view model, const std::vector<std::string>& argv) {
  std::string path(model);
  for (size_t i = 0; path.empty() && i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if ((a == "--model-path" || a == "--model") && i + 1 < argv.size()) {
      path = argv[i + 1];
    } else if (a.starts_with("--model-path=")) {
      path = a.substr(13);
    } else if (a.starts_with("--model=")) {
      path = a.substr(8);
    } else if (a == "serve" && i > 0 && argv[i - 1].ends_with("vllm") && i + 1 < argv.size() &&
               !argv[i + 1].starts_with("-")) {
      path = argv[i + 1];
    }
  }
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return name.empty() ? "spinup" : name;
}

}  // namespace spinup
