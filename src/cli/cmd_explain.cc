// `spinup explain LOG|-`: read a startup log (file or stdin), judge it, print the verdict.
// Thin: the work is StartupAnalyzer (logs + diagnose) and the explain sinks.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "diagnose/analyzer.h"
#include "logs/line_parser.h"
#include "logs/rules.h"
#include "sink/explain_json.h"
#include "sink/explain_text.h"
#include "sink/html_report.h"

namespace spinup {
namespace {

struct ExplainArgs {
  std::string log;
  std::string engine;
  std::vector<std::string> rules;
  std::string now;
  int year = 0;
  bool json = false;
  std::string html;  // --html FILE: also write the HTML startup report
};

int ExitFor(State s) {
  switch (s) {
    case State::kReady:
      return kExitOk;
    case State::kCrashed:
    case State::kCrashLoop:
      return kExitProblem;
    case State::kStalled:
      return kExitStalled;
    default:
      return kExitInProgress;
  }
}

void RunExplain(const ExplainArgs& args, CliContext& ctx) {
  auto fail = [&](const std::string& msg) {
    *ctx.err << "spinup: " << msg << "\n";
    ctx.exit_code = kExitUsage;
  };
  auto rules = RuleSet::LoadEmbedded();
  if (!rules.ok()) return fail(rules.status().message());
  // rules.d and the config's files first, then --rules: a later file may refine an earlier one.
  std::vector<std::string> rule_files = ctx.settings.rules_files;
  rule_files.insert(rule_files.end(), args.rules.begin(), args.rules.end());
  for (const auto& path : rule_files) {
    Status st = rules->AddPath(path);
    if (!st.ok()) return fail(st.message());
  }
  if (!rule_files.empty()) {
    Status st = rules->Compile();
    if (!st.ok()) return fail(st.message());
  }
  if (!args.engine.empty()) {
    auto engines = rules->Engines();
    if (std::find(engines.begin(), engines.end(), args.engine) == engines.end()) {
      return fail("--engine: unknown engine '" + args.engine + "' (no rules for it)");
    }
  }
  JudgeOptions judge;
  judge.stall_after_s = ctx.settings.stall_after_s;
  if (!args.now.empty()) {
    judge.now_ms = ParseTimeArg(args.now);
    if (!judge.now_ms) {
      return fail("--now: cannot read '" + args.now + "' (use YYYY-MM-DD HH:MM:SS or ISO 8601)");
    }
  }
  LogStreamOptions opt;
  opt.engine = args.engine;
  if (args.year) {
    opt.reference_year = args.year;
  } else if (judge.now_ms) {
    opt.reference_year = UnixMsToCivil(*judge.now_ms).year;
  } else {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    opt.reference_year =
        UnixMsToCivil(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()).year;
  }

  int fd = 0;
  const std::string name = args.log == "-" ? "<stdin>" : args.log;
  if (args.log != "-") {
    fd = ::open(args.log.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(args.log + ": " + std::strerror(errno));
  }
  StartupAnalyzer analyzer(*rules, opt);
  // --html: the report's clock is the log's own time (or --now), never the wall clock.
  int64_t report_now = 0;
  std::optional<HtmlReportSink> report;
  if (!args.html.empty()) {
    ReportOptions ro;
    ro.source = name;
    report.emplace(
        ro, [&report_now] { return report_now; }, args.html);
    analyzer.OnEvent([&](const LogEvent& e) {
      if (e.time_ms) report_now = std::max(report_now, *e.time_ms);
      report->OnLogEvent(e);
    });
  }
  std::vector<char> buf(1 << 20);
  for (;;) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      if (fd != 0) ::close(fd);
      return fail(name + ": " + std::strerror(e));
    }
    if (n == 0) break;
    analyzer.FeedLog(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
  if (fd != 0) ::close(fd);
  analyzer.FinishLog();

  Verdict v = analyzer.Evaluate(judge);
  if (report) {
    if (judge.now_ms) report_now = *judge.now_ms;
    report->Finish(v);
    if (!report->write_status().ok()) return fail(report->write_status().message());
  }
  if (args.json) {
    *ctx.out << ExplainJson(v).dump(2) << "\n";
  } else {
    ExplainTextOptions t;
    t.color = ctx.settings.color_out;
    WriteExplainText(v, t, *ctx.out);
  }
  ctx.exit_code = ExitFor(v.state);
}

}  // namespace

void AddExplainCommand(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ExplainArgs>();
  auto* sub = app.add_subcommand(
      "explain",
      "Read an SGLang/vLLM startup log and say which phases ran on which rank, where it ended, "
      "the verdict, and the known causes that fit. Exit: 0 ready, 1 crashed/crash loop, 3 "
      "stalled, 5 in progress/unknown, 2 usage.");
  sub->add_option("log", args->log, "the log file, or - for stdin")->required();
  sub->add_option("--engine", args->engine, "force the engine (sglang, vllm, or one from --rules)");
  sub->add_option("--rules", args->rules, "extra rules file (JSON, see docs/rules.md); repeatable");
  sub->add_option("--now", args->now,
                  "when the log was looked at (YYYY-MM-DD HH:MM:SS or ISO 8601): a log ending "
                  "in a phase far past its budget by then is stalled");
  sub->add_option("--year", args->year,
                  "year for timestamps that lack one (default: --now's or this year)")
      ->check(CLI::Range(1970, 9999));
  sub->add_flag("--json", args->json, "print one JSON object (docs/explain.md)")->group("Output");
  sub->add_option("--html", args->html,
                  "also write the HTML startup report to this file (docs/report.md)")
      ->group("Output");
  sub->footer("Example:\n  journalctl -u sglang -b | spinup explain -");
  sub->callback([args, &ctx] { RunExplain(*args, ctx); });
}

}  // namespace spinup
