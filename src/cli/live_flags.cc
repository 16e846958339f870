#include "cli/live_flags.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <ostream>

#include "base/duration.h"
#include "cli/reader_cli.h"
#include "proc/proc_parse.h"

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
  sub.add_option("--probe", f.probe,
                 "what ready means with --port: generate (health, then one 1-token request must be "
                 "served; the default when the engine is known), health, or none (the engine's "
                 "ready line)")
      ->check(CLI::IsMember({"generate", "health", "none"}))
      ->group("Judging");
  sub.add_flag("--warm", f.warm,
               "read the checkpoint into the page cache from launch on, within free memory "
               "(docs/reader.md)")
      ->group("Server");
  sub.add_option("--warm-reserve", f.warm_reserve,
                 "memory --warm leaves to the server and the system (default: 2GiB or 10% of RAM, "
                 "the larger)")
      ->group("Server");
}

std::string FindOnPath(std::string_view name, std::string_view path) {
  while (true) {
    size_t colon = path.find(':');
    std::string dir(path.substr(0, colon));
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + std::string(name);
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) return "";
    path.remove_prefix(colon + 1);
  }
}

bool ResolveWarmFlag(const LiveFlags& f, const std::vector<std::string>& server_argv,
                     CliContext& ctx, LiveCommandConfig& c) {
  if (!f.warm) return true;
  WarmConfig w;
  w.model_dir = f.model;
  if (w.model_dir.empty()) {
    if (auto dir = proc::ModelPathFromCmdline(server_argv)) w.model_dir = *dir;
  }
  if (w.model_dir.empty()) {
    *ctx.err << "spinup: --warm: no checkpoint to warm: give --model DIR (the server's command "
                "line names none)\n";
    ctx.exit_code = 2;
    return false;
  }
  if (!f.warm_reserve.empty()) {
    std::string error;
    if (!ParseSizeFlag(f.warm_reserve, &w.reserve_bytes, &error)) {
      *ctx.err << "spinup: --warm-reserve: " << error << "\n";
      ctx.exit_code = 2;
      return false;
    }
  }
  w.meminfo_path = c.sampler.proc_root + "/meminfo";
  c.warm = w;
  return true;
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
  c.model.session.stall_after_s = ctx.settings.stall_after_s;
  if (!f.stall_after.empty()) {
    auto t = ParseDuration(f.stall_after);
    if (!t.ok()) return fail("--stall-after: " + t.status().message());
    c.model.session.stall_after_s = *t;
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
  auto probe = ParseProbeMode(f.probe);
  if (!probe.ok()) return fail(probe.status().message());
  c.probe = *probe;
  c.sampler.health_probe = c.probe != ProbeMode::kNone;
  // py-spy for the stacks at a stall: looked up here, once, like every other environment input.
  const char* path = std::getenv("PATH");
  c.gather.py_spy = FindOnPath("py-spy", path ? path : "/usr/local/bin:/usr/bin:/bin");
  c.gather.proc_root = c.sampler.proc_root;
  c.sampler.gpu = !f.no_gpu;
  c.sampler.once = f.once;
  c.sampler.ticks_per_second = ::sysconf(_SC_CLK_TCK);
  c.sampler.page_size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));

  // The clock's year and the local zone: engine timestamps carry neither.
  std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  c.model.session.reference_year = local.tm_year + 1900;
  c.model.session.local_utc_offset_s = local.tm_gmtoff;
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
