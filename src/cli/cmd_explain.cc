// `spinup explain LOG|-`: read a startup log (file or stdin), judge it, print the verdict.
// Thin: the work is StartupSession (logs + diagnose) and the explain sinks.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/json_dump.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/history_flags.h"
#include "diagnose/startup_session.h"
#include "logs/line_parser.h"
#include "logs/newest_first.h"
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
  std::string html;     // --html FILE: also write the HTML startup report
  bool record = false;  // --record: add the start to the history, marked as imported
  HistoryFlags history;
};

// --record: the pasted start goes into the history like a watched one, marked as imported; the
// model and flags come from the log's own server_args line.
std::unique_ptr<HistoryRecorder> ImportRecorder(const ExplainArgs& args, CliContext& ctx) {
  if (!args.record) return nullptr;
  HistoryRecorderConfig hc;
  hc.path = ResolveHistoryPath(args.history, ctx.settings.history_dir);
  hc.context.host = HostName();
  hc.context.spinup_version = SPINUP_VERSION;
  hc.context.source = "import";
  hc.context.imported = true;
  return std::make_unique<HistoryRecorder>(
      std::move(hc), [] { return int64_t{0}; }, *ctx.err);
}

// Reads up to `limit` bytes into *out: true at the end of the input, false where more follows.
Result<bool> ReadUpTo(int fd, const std::string& name, size_t limit, std::string* out) {
  std::vector<char> buf(1 << 20);
  while (out->size() <= limit) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Io(name + ": " + std::strerror(errno));
    }
    if (n == 0) return true;
    out->append(buf.data(), static_cast<size_t>(n));
  }
  return false;
}

// Feeds the whole log to the session; events go to `observe` (the report, the recorder). A log
// that fits in memory and runs newest first (an export) is fed the other way round: true then.
Result<bool> FeedLog(int fd, const std::string& name, StartupSession& session,
                     const std::function<void(const LogEvent&)>& observe, const RuleSet& rules,
                     int reference_year) {
  constexpr size_t kWholeLogBytes = 8u << 20;
  std::vector<LogEvent> events;
  std::vector<LogEvent>* sink_events = observe ? &events : nullptr;
  auto feed = [&](std::string_view text) {
    constexpr size_t kChunk = 1 << 20;
    for (size_t at = 0; at < text.size(); at += kChunk) {
      session.OnLogText(0, text.substr(at, kChunk), std::nullopt, sink_events);
      for (const auto& e : events) observe(e);
      events.clear();
    }
  };
  std::string text;
  text.reserve(kWholeLogBytes + (1 << 20));  // one allocation, not a doubling past the limit
  auto whole = ReadUpTo(fd, name, kWholeLogBytes, &text);
  if (!whole.ok()) return whole.status();
  const bool reversed = *whole && RunsNewestFirst(text, rules, reference_year);
  if (reversed) text = ReverseLines(text);
  feed(text);
  if (!*whole) std::string().swap(text);  // a long log goes on in chunks: the buffer's memory back
  while (!*whole) {
    text.clear();
    whole = ReadUpTo(fd, name, 1 << 20, &text);
    if (!whole.ok()) return whole.status();
    feed(text);
  }
  session.OnSourceEnd(0, std::nullopt, sink_events);
  for (const auto& e : events) observe(e);
  return reversed;
}

// The session's settings: the engine if forced, and the year for year-less timestamps (--year,
// else --now's, else this year's).
SessionOptions ExplainSessionOptions(const ExplainArgs& args, std::optional<int64_t> now,
                                     const CliContext& ctx) {
  SessionOptions opt;
  opt.engine = args.engine;
  opt.stall_after_s = ctx.settings.stall_after_s;
  if (args.year) {
    opt.reference_year = args.year;
  } else if (now) {
    opt.reference_year = UnixMsToCivil(*now).year;
  } else {
    auto wall = std::chrono::system_clock::now().time_since_epoch();
    opt.reference_year =
        UnixMsToCivil(std::chrono::duration_cast<std::chrono::milliseconds>(wall).count()).year;
  }
  return opt;
}

void RunExplain(const ExplainArgs& args, CliContext& ctx) {
  auto fail = [&](const std::string& msg) {
    *ctx.err << "spinup: " << msg << "\n";
    ctx.exit_code = kExitUsage;
  };
  // rules.d and the config's files first, then --rules: a later file may refine an earlier one.
  std::vector<std::string> rule_files = ctx.settings.rules_files;
  rule_files.insert(rule_files.end(), args.rules.begin(), args.rules.end());
  auto rules = LoadRules(rule_files);
  if (!rules.ok()) return fail(rules.status().message());
  if (!args.engine.empty()) {
    auto engines = rules->Engines();
    if (std::find(engines.begin(), engines.end(), args.engine) == engines.end()) {
      return fail("--engine: unknown engine '" + args.engine + "' (no rules for it)");
    }
  }
  std::optional<int64_t> now;
  if (!args.now.empty()) {
    now = ParseTimeArg(args.now);
    if (!now) {
      return fail("--now: cannot read '" + args.now + "' (use YYYY-MM-DD HH:MM:SS or ISO 8601)");
    }
  }
  const SessionOptions opt = ExplainSessionOptions(args, now, ctx);

  int fd = 0;
  const std::string name = args.log == "-" ? "<stdin>" : args.log;
  if (args.log != "-") {
    fd = ::open(args.log.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(args.log + ": " + std::strerror(errno));
  }
  StartupSession session(*rules, opt);
  auto recorder = ImportRecorder(args, ctx);
  // --html: the report's clock is the log's own time (or --now), never the wall clock.
  int64_t report_now = 0;
  std::optional<HtmlReportSink> report;
  if (!args.html.empty()) {
    ReportOptions ro;
    ro.source = name;
    report.emplace(
        ro, [&report_now] { return report_now; }, args.html);
  }
  std::function<void(const LogEvent&)> observe;
  if (report || recorder) {
    observe = [&](const LogEvent& e) {
      if (e.time_ms) report_now = std::max(report_now, *e.time_ms);
      if (report) report->OnLogEvent(e);
      if (recorder) recorder->OnLogEvent(e);
    };
  }
  auto reversed = FeedLog(fd, name, session, observe, *rules, opt.reference_year);
  if (fd != 0) ::close(fd);
  if (!reversed.ok()) return fail(reversed.status().message());

  Verdict v = session.Evaluate(now);
  if (*reversed) v.evidence.push_back("the log runs newest first (an export): read the other way");
  if (report) {
    if (now) report_now = *now;
    report->Finish(v);
    if (!report->write_status().ok()) {
      fail(report->write_status().message());
      ctx.exit_code = ExitCodeFor(report->write_status());
      return;
    }
  }
  if (recorder) {
    recorder->Finish(v);
    if (auto id = recorder->Commit(std::nullopt)) {
      *ctx.err << "spinup: recorded as start " << *id << "\n";
    }
  }
  if (args.json) {
    *ctx.out << DumpJson(ExplainJson(v), 2) << "\n";
  } else {
    ExplainTextOptions t;
    t.color = ctx.settings.color_out;
    WriteExplainText(v, t, *ctx.out);
  }
  ctx.exit_code = ExitCodeForState(v.state);
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
  sub->add_flag("--record", args->record,
                "also add this start to the startup history, marked as imported "
                "(docs/history.md)");
  AddHistoryFlags(*sub, args->history, false);
  sub->footer("Example:\n  journalctl -u sglang -b | spinup explain -");
  sub->callback([args, &ctx] { RunExplain(*args, ctx); });
}

}  // namespace spinup
