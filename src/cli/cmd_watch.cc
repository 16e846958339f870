// `spinup watch`: attach to a server that is starting (--pid, --unit, --log, any combination).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <ostream>

#include "base/one_line.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/fleet_flags.h"
#include "cli/history_flags.h"
#include "cli/live_command.h"
#include "cli/live_flags.h"
#include "cli/watch_targets.h"

namespace spinup {

namespace {

struct WatchArgs {
  LiveFlags live;
  FleetFlags fleet;  // --metrics, --model-label, --report
  HistoryFlags history;
  std::vector<int> pids;
  std::string unit;
  std::vector<std::string> journal_files;
  std::vector<std::string> logs;
  std::string log_command;
};

// The name the fleet outputs show for what is watched.
std::string SourceName(const WatchArgs& args) {
  if (!args.pids.empty()) return "pid " + std::to_string(args.pids.front());
  if (!args.unit.empty()) return "unit " + args.unit;
  if (!args.logs.empty()) return args.logs.front() == "-" ? "stdin" : args.logs.front();
  if (!args.log_command.empty()) return args.log_command;
  return "journal";
}

void RunWatch(WatchArgs& args, CliContext& ctx) {
  if (args.pids.empty() && args.unit.empty() && args.logs.empty() && args.journal_files.empty() &&
      args.log_command.empty()) {
    *ctx.err << "spinup: watch: give --pid, --unit, --log, --log-command or --journal-file\n";
    ctx.exit_code = kExitUsage;
    return;
  }
  LiveCommandConfig c;
  if (!ResolveLiveFlags(args.live, ctx, false, c)) return;
  c.pids = args.pids;
  c.unit = args.unit;
  c.journal_files = args.journal_files;
  c.logs = args.logs;
  c.log_command = args.log_command;
  if (std::count(c.logs.begin(), c.logs.end(), "-") > 1) {
    *ctx.err << "spinup: watch: --log - (standard input) can be given once\n";
    ctx.exit_code = kExitUsage;
    return;
  }
  std::vector<std::string> server_argv;
  if (!args.pids.empty()) server_argv = ReadCmdline(args.pids.front());
  if (!ResolveWarmFlag(args.live, server_argv, ctx, c)) return;
  std::string source = SourceName(args);
  ApplyFleetSettings(ctx.settings, args.live.once, args.fleet);
  // --once is a probe, not a start: nothing to record or learn.
  std::unique_ptr<HistoryRecorder> history;
  if (!args.live.once)
    history = StartHistory(args.history, args.live.model, server_argv, "watch", ctx);
  if (history) AttachHistory(*history, c);
  // After the fleet flags (their errors come first), before any watching.
  auto watch = [&] {
    WatchTargets targets{args.pids, args.unit, args.journal_files.empty(), args.logs};
    Status checked = CheckWatchTargets(targets, WatchRoots{}, &c.sampler.pid_start_ticks);
    if (!checked.ok()) {
      *ctx.err << "spinup: " << OneLine(checked.message()) << "\n";
      return ExitCodeFor(checked);
    }
    return WatchCommand(c, *ctx.out, *ctx.err);
  };
  ctx.exit_code = WithFleetOutputs(args.fleet, args.live.model, server_argv, source, ctx, c, watch,
                                   [&](MetricsSink& m) {
                                     if (history) ConnectHistoryMetrics(*history, m);
                                   });
  // After the verdict is final: the start goes into the history.
  if (history) (void)history->Commit(ctx.exit_code);
}

}  // namespace

void AddWatchCommand(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<WatchArgs>();
  auto* sub = app.add_subcommand(
      "watch",
      "Watch a server that is starting: per-rank phase, checkpoint bytes read, rate and ETA, and "
      "a verdict (progressing, slow, stalled with evidence, crashed, crash_loop, ready). Exit: 0 "
      "ready, 1 crashed/crash loop, 2 usage, 3 stalled, 4 timed out, 5 still in progress "
      "(--once).");
  sub->add_option("--pid", args->pids, "a server process: it and its descendants; repeatable")
      ->group("Sources");
  sub->add_option("--unit", args->unit,
                  "a systemd unit: its cgroup's processes and its journal (its lines, and "
                  "systemd's exits and restarts of it)")
      ->group("Sources");
  sub->add_option("--journal-file", args->journal_files,
                  "read these journal files to their end instead of the system journal (with "
                  "--unit: only that unit's entries, no cgroup sampled); repeatable")
      ->group("Sources");
  sub->add_option("--log", args->logs,
                  "follow a log file (across rotation and truncation), or - for standard "
                  "input (kubectl logs -f POD | spinup watch --log -); repeatable")
      ->group("Sources");
  sub->add_option("--log-command", args->log_command,
                  "run this shell command and follow its output, starting it again when it "
                  "exits (e.g. 'kubectl logs -f POD')")
      ->group("Sources");
  AddLiveFlags(*sub, args->live);
  AddFleetFlags(*sub, args->fleet);
  AddHistoryFlags(*sub, args->history, true);
  sub->footer("Example:\n  kubectl logs -f sglang-0 | spinup watch --log - --until verdict");
  sub->callback([args, &ctx] { RunWatch(*args, ctx); });
}

}  // namespace spinup
