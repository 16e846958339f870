#include "cli/live_flags.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <ostream>

#include "live/duration.h"

namespace spinup {

void AddLiveFlags(CLI::App& sub, LiveFlags& f) {
  sub.add_option("--model", f.model,
                 "model directory (default: from the server's command line: --model-path, "
                 "--model, vllm serve PATH)")
      ->group("Server");
  sub.add_option("--port", f.port, "server port: listening check and /health probe")
      ->check(CLI::Range(1, 65535))
      ->group("Server");
  sub.add_option("--rules", f.rules,
                 "extra rules file (JSON, see docs/rules.md), after /etc/spinup/rules.d; "
                 "repeatable")
      ->group("Server");
  sub.add_flag("--no-gpu", f.no_gpu, "do not load NVML")->group("Server");
  sub.add_option("--interval", f.interval, "sampling interval (default 1s; e.g. 0.2s, 2s)")
      ->group("Judging");
  sub.add_flag("--once", f.once, "one sample: print the state and exit with its code")
      ->group("Judging");
  sub.add_option("--timeout", f.timeout, "give up after this long (exit 4)")->group("Judging");
  sub.add_option("--stall-after", f.stall_after,
                 "call a phase stalled after this long without progress (overrides the budgets "
                 "and the config's [budgets] stall_after)")
      ->group("Judging");
  sub.add_option("--until", f.until,
                 "ready: stop at ready; verdict: stop at the first ready, crashed, crash_loop or "
                 "stalled state")
      ->check(CLI::IsMember({"ready", "verdict"}))
      ->group("Judging");
  sub.add_flag("--json", f.json, "JSON-lines event stream instead of the view (docs/events.md)")
      ->group("Output");
  sub.add_option("--events", f.events, "also append the JSON-lines event stream to this file")
      ->group("Output");
}

bool ResolveLiveFlags(const LiveFlags& f, CliContext& ctx, bool view_on_stderr,
                      LiveCommandConfig& c) {
  auto fail = [&](const std::string& msg) {
    *ctx.err << "spinup: " << msg << "\n";
    ctx.exit_code = 2;
    return false;
  };
  auto interval = ParseDuration(f.interval);
  if (!interval.ok()) return fail("--interval: " + interval.status().message());
  if (*interval < 0.01) return fail("--interval: at least 10ms");
  c.watch.interval_s = *interval;
  c.watch.once = f.once;
  if (!f.timeout.empty()) {
    auto t = ParseDuration(f.timeout);
    if (!t.ok()) return fail("--timeout: " + t.status().message());
    c.watch.timeout_s = *t;
  }
  c.model.stall_after_s = ctx.settings.stall_after_s;
  if (!f.stall_after.empty()) {
    auto t = ParseDuration(f.stall_after);
    if (!t.ok()) return fail("--stall-after: " + t.status().message());
    c.model.stall_after_s = *t;
  }
  if (f.until == "ready") c.watch.until = Until::kReady;
  if (f.until == "verdict") c.watch.until = Until::kVerdict;
  // rules.d and the config's files first, then --rules.
  c.model.rules_files = ctx.settings.rules_files;
  c.model.rules_files.insert(c.model.rules_files.end(), f.rules.begin(), f.rules.end());
  c.events_file = f.events;
  if (!f.model.empty()) {
    if (::access(f.model.c_str(), R_OK) != 0) return fail(f.model + ": not readable");
    c.sampler.model_dir = f.model;
  }
  if (f.port > 0) c.sampler.port = static_cast<uint16_t>(f.port);
  c.sampler.gpu = !f.no_gpu;
  c.sampler.once = f.once;
  c.sampler.ticks_per_second = ::sysconf(_SC_CLK_TCK);
  c.sampler.page_size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));

  // The clock's year and the local zone: engine timestamps carry neither.
  std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  c.model.reference_year = local.tm_year + 1900;
  c.model.local_utc_offset_s = local.tm_gmtoff;
  c.journal_since_ms = (static_cast<int64_t>(now) - 3600) * 1000;

  const bool tty = view_on_stderr ? ctx.err_is_tty : ctx.out_is_tty;
  c.view = f.json ? LiveView::kJson : (tty && !f.once ? LiveView::kTerminal : LiveView::kPlain);
  if (c.view == LiveView::kTerminal) {
    winsize ws{};
    int fd = view_on_stderr ? STDERR_FILENO : STDOUT_FILENO;
    if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) c.terminal_width = ws.ws_col;
  }
  const char* notify = std::getenv("NOTIFY_SOCKET");
  if (notify != nullptr) c.notify_socket = notify;
  return true;
}

}  // namespace spinup
