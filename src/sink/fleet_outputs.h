// The fleet-facing outputs of a live watch, made from resolved settings: the Prometheus metrics
// sink with its /metrics, /livez and /readyz server (--metrics, --model-label) and the HTML report
// sink
// (--report). The live commands add sinks() to their own and call Finish() when the watch has
// ended.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sink/html_report.h"
#include "sink/metrics_server.h"
#include "sink/metrics_sink.h"
#include "sink/probe_endpoints.h"
#include "spinup/status.h"

namespace spinup {

struct FleetConfig {
  std::optional<ListenAddress> metrics;  // serve /metrics when set
  std::string model_label;               // the `model` label
  std::string host;
  std::string version;
  std::string report_path;  // write the HTML report at the end when set
  std::string source;       // what is watched, for the report's header
};

class FleetOutputs {
 public:
  // Starts the metrics server (if asked) before the watch, so a busy port fails fast.
  static Result<std::unique_ptr<FleetOutputs>> Start(const FleetConfig& config,
                                                     std::function<int64_t()> now_ms);
  std::vector<Sink*> sinks();
  // After the watch: stops serving and reports whether the report could be written.
  Status Finish();
  int metrics_port() const { return server_ ? server_->port() : 0; }
  MetricsSink* metrics_sink() { return metrics_.get(); }

 private:
  std::unique_ptr<MetricsSink> metrics_;
  std::unique_ptr<ProbeEndpoints> probes_;  // /livez, /readyz beside /metrics
  std::unique_ptr<MetricsServer> server_;
  std::unique_ptr<HtmlReportSink> report_;
};

// The default `model` label: the model directory's (or hub id's) last path element, from --model or
// the server's command line (`--model-path X`, `--model X`, `--model=X`, `vllm serve X`); "spinup"
// when none is known.
std::string DefaultModelLabel(std::string_view model, const std::vector<std::string>& server_argv);

}  // namespace spinup
