// `spinup run [options] -- CMD ARGS...`: start the server as a child, watch it, end its tree.
#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "base/duration.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/fleet_flags.h"
#include "cli/history_flags.h"
#include "cli/live_command.h"
#include "cli/live_flags.h"
#include "live/tree_keeper.h"

namespace spinup {

namespace {

struct RunArgs {
  LiveFlags live;
  FleetFlags fleet;  // --metrics, --model-label, --report
  HistoryFlags history;
  std::string log;
  std::string grace = "5s";
  std::vector<std::string> command;
};

}  // namespace

void AddRunCommand(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand(
      "run",
      "Start a server (after --) and watch its startup: its output passes through unchanged, the "
      "view goes to stderr, signals are forwarded, and when it exits every process of its tree "
      "is ended. Exit: the server's own (128+N for signal N); with --until/--timeout/--once the "
      "verdict's (0 ready, 1 crashed, 3 stalled, 4 timed out, 5 in progress).");
  sub->add_option("--log", args->log, "also append the server's output to this file");
  sub->add_option("--kill-grace", args->grace,
                  "time between SIGTERM and SIGKILL when ending the tree (default 5s)");
  AddLiveFlags(*sub, args->live);
  AddFleetFlags(*sub, args->fleet);
  AddHistoryFlags(*sub, args->history, true);
  sub->add_option("command", args->command, "the server command line (after --)")->required();
  sub->positionals_at_end();
  sub->footer(
      "Example:\n  spinup run --port 30000 --metrics 9400 -- python -m sglang.launch_server "
      "--model-path /models/X --tp 4");
  sub->callback([args, &ctx] {
    LiveCommandConfig c;
    if (!ResolveLiveFlags(args->live, ctx, true, c)) return;
    auto grace = ParseDuration(args->grace);
    if (!grace.ok()) {
      *ctx.err << "spinup: --kill-grace: " << grace.status().message() << "\n";
      ctx.exit_code = kExitUsage;
      return;
    }
    if (!ResolveWarmFlag(args->live, args->command, ctx, c)) return;
    c.run.argv = args->command;
    c.run.log_file = args->log;
    c.run.grace = std::chrono::milliseconds(static_cast<int64_t>(*grace * 1000));
    // Before any thread starts (the metrics server's): the keeper is a fork of this process.
    // Not under systemd (NOTIFY_SOCKET): there the unit's cgroup already ends the whole tree
    // when spinup dies, and sd_notify must come from the main PID (NotifyAccess=main), which
    // the monitor would not be.
    if (ctx.own_process && c.notify_socket.empty()) {
      Status kept = SplitOffTreeKeeper();
      if (!kept.ok()) *ctx.err << "spinup: note: " << kept.message() << "\n";
    }
    // After the keeper split: the SQLite handle must not be shared across the fork.
    auto history = StartHistory(args->history, args->live.model, args->command, "run", ctx);
    if (history) AttachHistory(*history, c);
    // The view goes to stderr: stdout carries the server's own output.
    ApplyFleetSettings(ctx.settings, args->live.once, args->fleet);
    ctx.exit_code = WithFleetOutputs(
        args->fleet, args->live.model, args->command, "spinup run", ctx, c,
        [&] { return RunCommand(c, *ctx.err, *ctx.err); },
        [&](MetricsSink& m) {
          if (history) ConnectHistoryMetrics(*history, m);
        });
    // After the verdict is final: the start goes into the history.
    if (history) (void)history->Commit(ctx.exit_code);
  });
}

}  // namespace spinup
