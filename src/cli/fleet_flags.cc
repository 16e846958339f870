#include "cli/fleet_flags.h"

#include "proc/proc_parse.h"
#include "proc/sampler.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "base/one_line.h"
#include "cli/exit_codes.h"

namespace spinup {

void AddFleetFlags(CLI::App& sub, FleetFlags& flags) {
  sub.add_option("--metrics", flags.metrics,
                 "serve Prometheus metrics at http://ADDR:PORT/metrics (PORT alone binds "
                 "127.0.0.1; 'off': not even the config's; docs/metrics.md)")
      ->group("Fleet");
  sub.add_option("--model-label", flags.model_label,
                 "the `model` label of every metric (default: the config's [metrics] model, "
                 "else the model directory's name)")
      ->group("Fleet");
  // The old name; hidden (empty group) so help, man pages and completions show one spelling.
  sub.add_option("--job", flags.model_label)->group("");
  sub.add_option("--report", flags.report,
                 "write the HTML startup report to this file when the watch ends (docs/report.md)")
      ->group("Output");
}

void ApplyFleetSettings(const Settings& settings, bool once, FleetFlags& flags) {
  if (flags.metrics.empty() && !once) flags.metrics = settings.metrics;
  if (flags.metrics == "off") flags.metrics.clear();
  if (flags.model_label.empty()) flags.model_label = settings.model_label;
}

std::string MetricsUrl(std::string_view host, int port) {
  const bool v6 = host.find(':') != std::string_view::npos;
  return "http://" + std::string(v6 ? "[" : "") + std::string(host) + (v6 ? "]" : "") + ":" +
         std::to_string(port) + "/metrics";
}

std::vector<std::string> ReadCmdline(int pid) {
  // /proc is read only through src/proc (its reader caps sizes and never throws).
  auto raw = proc::ProcReader().Read(std::to_string(pid) + "/cmdline");
  return raw ? proc::ParseCmdline(*raw) : std::vector<std::string>{};
}

bool ResolveFleetFlags(const FleetFlags& flags, std::string_view model,
                       const std::vector<std::string>& server_argv, const std::string& source,
                       CliContext& ctx, FleetConfig& config) {
  if (!flags.metrics.empty()) {
    auto addr = ParseListenAddress(flags.metrics);
    if (!addr.ok()) {
      *ctx.err << "spinup: " << addr.status().message() << "\n";
      ctx.exit_code = kExitUsage;
      return false;
    }
    config.metrics = *addr;
  }
  config.model_label =
      flags.model_label.empty() ? DefaultModelLabel(model, server_argv) : flags.model_label;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) config.host = host;
  config.version = SPINUP_VERSION;
  if (!flags.report.empty()) {
    // Fail before a long watch, not after it: the report's directory must be writable.
    std::filesystem::path dir = std::filesystem::path(flags.report).parent_path();
    if (dir.empty()) dir = ".";
    if (access(dir.c_str(), W_OK) != 0) {
      *ctx.err << "spinup: --report: " << flags.report << ": directory not writable\n";
      ctx.exit_code = kExitUsage;
      return false;
    }
  }
  config.report_path = flags.report;
  config.source = source;
  return true;
}

int WithFleetOutputs(const FleetFlags& flags, std::string_view model,
                     const std::vector<std::string>& server_argv, const std::string& source,
                     CliContext& ctx, LiveCommandConfig& config,
                     const std::function<int()>& command,
                     const std::function<void(MetricsSink&)>& with_metrics) {
  if (!flags.any()) return command();
  FleetConfig fc;
  if (!ResolveFleetFlags(flags, model, server_argv, source, ctx, fc)) return kExitUsage;
  auto outputs = FleetOutputs::Start(fc, [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  });
  if (!outputs.ok()) {
    *ctx.err << "spinup: " << outputs.status().message() << "\n";
    return kExitUsage;
  }
  if (fc.metrics) {
    *ctx.err << "spinup: metrics at " << MetricsUrl(fc.metrics->host, (*outputs)->metrics_port())
             << " (model=\"" << OneLine(fc.model_label) << "\")\n";
  }
  for (Sink* s : (*outputs)->sinks()) config.extra_sinks.push_back(s);
  if (with_metrics && (*outputs)->metrics_sink()) with_metrics(*(*outputs)->metrics_sink());
  int code = command();
  Status st = (*outputs)->Finish();
  if (!st.ok()) {
    *ctx.err << "spinup: --report: " << st.message() << "\n";
    if (code == kExitOk) code = ExitCodeFor(st);
  }
  return code;
}

}  // namespace spinup
