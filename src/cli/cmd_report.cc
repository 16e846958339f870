// `spinup report EVENTS.jsonl -o FILE.html`: renders a saved `--json` event stream as the HTML
// startup report (docs/report.md).
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "sink/event_replay.h"
#include "sink/html_report.h"

namespace spinup {

void AddReportCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand(
      "report", "Render a saved `watch --json` / `run --json` event stream as an HTML report.");
  struct Options {
    std::string input;
    std::string output = "-";
    std::string title = "spinup startup report";
    std::string model;
    std::string host;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("EVENTS", opts->input, "the saved JSON-lines stream ('-': standard input)")
      ->required();
  sub->add_option("-o,--output", opts->output, "the HTML file to write ('-': standard output)");
  sub->add_option("--title", opts->title, "the report's title");
  sub->add_option("--model", opts->model,
                  "model name shown in the header (the metrics' model label)");
  // The flag's old name, from before the metrics' `job` label became `model`: still parses.
  sub->add_option("--job", opts->model)->group("");
  sub->add_option("--host", opts->host, "host name shown in the header");
  sub->footer("Example:\n  spinup report events.jsonl -o startup.html");
  sub->callback([&ctx, opts] {
    std::ifstream file;
    std::istream* in = &std::cin;
    std::string name = opts->input == "-" ? "<stdin>" : opts->input;
    if (opts->input != "-") {
      file.open(opts->input, std::ios::binary);
      if (!file) {
        *ctx.err << "spinup: " << opts->input << ": cannot open\n";
        ctx.exit_code = kExitUsage;
        return;
      }
      in = &file;
    }
    int64_t now = 0;
    ReportOptions ro;
    ro.title = opts->title;
    ro.model = opts->model;
    ro.host = opts->host;
    ro.source = name;
    HtmlReportSink sink(
        ro, [&now] { return now; }, opts->output == "-" ? std::string() : opts->output);
    auto stats = ReplayEventStream(
        *in, name, {&sink}, [&now](int64_t t) { now = t; }, *ctx.err);
    if (!stats.ok()) {
      *ctx.err << "spinup: " << stats.status().message() << "\n";
      ctx.exit_code = kExitProblem;
      return;
    }
    if (opts->output == "-") {
      *ctx.out << sink.Render();
    } else if (!sink.write_status().ok()) {
      *ctx.err << "spinup: " << sink.write_status().message() << "\n";
      ctx.exit_code = ExitCodeFor(sink.write_status());
      return;
    }
    ctx.exit_code = kExitOk;
  });
}

}  // namespace spinup
