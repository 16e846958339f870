// The HTML startup report: one self-contained file (inline CSS and SVG, no network fetches) with
// the verdict and its evidence on top, a Gantt chart of phases per rank (slow phases marked), the
// checkpoint bytes-read curve with the storage rate, GPU memory per device over time, the known
// causes with their fixes and the decisive log lines. Layout is documented in docs/report.md.
//
// HtmlReportSink collects what a watch (or a replayed `--json` stream, or `explain`) produces and
// renders at Finish. Every piece of text from logs or processes is HTML-escaped.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/sink.h"
#include "spinup/status.h"

namespace spinup {

struct ReportOptions {
  std::string title = "spinup startup report";
  std::string model;   // the model label (metrics' `model`), shown in the header when known
  std::string host;    // shown in the header when known
  std::string source;  // what was watched: a log path, "pid 1234", a saved stream
  size_t max_log_lines = 200;
  // Ranks whose last line is kept, like the tracker's cap on ranks (the JSON's): a log of 200,000
  // ranks made a 31 MB report.
  size_t max_ranks = 256;
};

// What the report draws; filled by HtmlReportSink, rendered by RenderHtmlReport.
struct ReportData {
  ReportOptions options;
  std::optional<Verdict> verdict;  // the final (or latest) verdict
  struct BytesPoint {
    int64_t time_ms = 0;
    uint64_t bytes_done = 0;
    std::optional<uint64_t> bytes_total;
    std::optional<double> bytes_per_second;
  };
  std::vector<BytesPoint> bytes;
  struct GpuPoint {
    int64_t time_ms = 0;
    uint64_t used_bytes = 0;
    uint64_t total_bytes = 0;
  };
  std::map<int, std::vector<GpuPoint>> gpus;  // by device index
  std::string gpu_message;                    // e.g. "GPU: no NVML"
  struct StateChange {
    int64_t time_ms = 0;
    State state = State::kUnknown;
    std::string headline;
  };
  std::vector<StateChange> states;
  std::vector<LogEvent> log_lines;                    // errors and fatals, in order (capped)
  std::map<std::string, LogEvent> last_line_by_rank;  // where each rank's log stopped (capped)
  size_t ranks_not_shown = 0;                         // ranks past options.max_ranks
  std::optional<int64_t> first_ms;
  std::optional<int64_t> last_ms;
};

std::string HtmlEscape(std::string_view text);
std::string RenderHtmlReport(const ReportData& data);

class HtmlReportSink final : public Sink {
 public:
  // `now_ms` stamps verdicts (which carry no time of their own); `output_path` is written at
  // Finish (empty: only Render()). The report is written to a temporary file and renamed, so a
  // browser never sees half a report.
  HtmlReportSink(ReportOptions options, std::function<int64_t()> now_ms,
                 std::string output_path = "");

  void OnLogEvent(const LogEvent& event) override;
  void OnSample(const Sample& sample) override;
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& verdict) override;

  std::string Render() const { return RenderHtmlReport(data_); }
  const ReportData& data() const { return data_; }
  // The result of writing at Finish (OK when no path was given).
  const Status& write_status() const { return write_status_; }

 private:
  void Touch(int64_t t);
  ReportData data_;
  std::function<int64_t()> now_ms_;
  std::string output_path_;
  Status write_status_;
};

}  // namespace spinup
