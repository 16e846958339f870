#include "live/live_command.h"

#include <fstream>
#include <memory>

#include "sink/json_lines_sink.h"
#include "sink/notify_sink.h"
#include "sink/plain_sink.h"
#include "sink/terminal_sink.h"

namespace spinup {

namespace {

struct Sinks {
  std::unique_ptr<TerminalSink> terminal;
  std::unique_ptr<Sink> view;  // plain or JSON
  std::unique_ptr<NotifySink> notify;
  std::unique_ptr<std::ofstream> events_stream;
  std::unique_ptr<JsonLinesSink> events;
  std::vector<Sink*> extra;  // LiveCommandConfig::extra_sinks
  std::vector<Sink*> all() const {
    std::vector<Sink*> v = extra;
    if (terminal) v.push_back(terminal.get());
    if (view) v.push_back(view.get());
    if (notify) v.push_back(notify.get());
    if (events) v.push_back(events.get());
    return v;
  }
};

std::optional<Sinks> MakeSinks(const LiveCommandConfig& c, std::ostream& out, Clock& clock,
                               std::ostream& err) {
  Sinks s;
  switch (c.view) {
    case LiveView::kTerminal:
      s.terminal = std::make_unique<TerminalSink>(out, clock, c.terminal_width);
      break;
    case LiveView::kPlain:
      s.view = std::make_unique<PlainLinesSink>(out, clock);
      break;
    case LiveView::kJson:
      s.view = std::make_unique<JsonLinesSink>(out, clock);
      break;
  }
  s.extra = c.extra_sinks;
  if (!c.notify_socket.empty()) {
    // A lost notification must not stop the watch; systemd's watchdog notices the silence.
    s.notify = std::make_unique<NotifySink>(
        [socket = c.notify_socket](const std::string& m) { (void)SendNotify(socket, m); });
  }
  if (!c.events_file.empty()) {
    s.events_stream = std::make_unique<std::ofstream>(c.events_file, std::ios::app);
    if (!*s.events_stream) {
      err << "spinup: " << c.events_file << ": cannot open for writing\n";
      return std::nullopt;
    }
    s.events = std::make_unique<JsonLinesSink>(*s.events_stream, clock);
  }
  return s;
}

}  // namespace

int WatchCommand(const LiveCommandConfig& c, std::ostream& out, std::ostream& err) {
  SystemClock clock;
  auto model = RulesStartupModel::Create(c.model);
  if (!model.ok()) {
    err << "spinup: " << model.status().message() << "\n";
    return 2;
  }
  auto sinks = MakeSinks(c, out, clock, err);
  if (!sinks) return 2;
  // With --journal-file, --unit only picks the unit's entries: the files may come from another
  // host or an earlier boot, so this host's cgroup of that name is not the server.
  const bool live_unit = !c.unit.empty() && c.journal_files.empty();
  std::unique_ptr<LiveSampler> sampler;
  if (!c.pids.empty() || live_unit) {
    LiveSamplerConfig sc = c.sampler;
    sc.pids = c.pids;
    if (live_unit) sc.unit = c.unit;
    sampler = std::make_unique<LiveSampler>(sc);
  }
  WatchOptions w = c.watch;
  // systemd may restart a live unit; journal files are judged whole (read to their end), so a
  // first crash does not hide the restarts after it.
  if (live_unit || !c.journal_files.empty()) w.stop_on_crash_by_default = false;
  Watcher watcher(w, clock, **model, sampler.get(), sinks->all());
  for (const auto& log : c.logs) {
    if (log != "-") {
      watcher.AddSource(std::make_unique<FileFollower>(log));
      continue;
    }
    auto in = OpenStdinSource();
    if (!in.ok()) {
      err << "spinup: " << in.status().message() << "\n";
      return 2;
    }
    watcher.AddSource(std::move(*in));
  }
  if (!c.log_command.empty()) {
    LogCommandOptions lc;
    lc.command = c.log_command;
    lc.note = [&err](const std::string& note) { err << "spinup: note: " << note << "\n"; };
    watcher.AddSource(std::make_unique<LogCommandSource>(std::move(lc)));
  }
  if (!c.unit.empty() || !c.journal_files.empty()) {
    JournalOptions j;
    j.unit = c.unit;
    j.journal_files = c.journal_files;
    j.since_ms = c.journal_files.empty() ? c.journal_since_ms : 0;
    auto src = OpenJournalSource(j);
    if (!src.ok()) {
      err << "spinup: " << src.status().message() << "\n";
      return 2;
    }
    watcher.AddSource(std::move(*src));
  }
  WatchEnd end = RunWatchLoop(watcher, clock);
  watcher.Finish(end);
  return end.exit_code;
}

int RunCommand(const LiveCommandConfig& c, std::ostream& view_out, std::ostream& err) {
  SystemClock clock;
  auto model = RulesStartupModel::Create(c.model);
  if (!model.ok()) {
    err << "spinup: " << model.status().message() << "\n";
    return 2;
  }
  // The server's pipes are sources 0 (stdout) and 1 (stderr): every line is live.
  (*model)->StampOnArrival(0);
  (*model)->StampOnArrival(1);
  auto sinks = MakeSinks(c, view_out, clock, err);
  if (!sinks) return 2;
  RunOptions run = c.run;
  if (sinks->terminal) {
    TerminalSink* t = sinks->terminal.get();
    run.before_output = [t] { t->Clear(); };
    run.after_output = [t] { t->Redraw(); };
  }
  LiveSamplerConfig sc = c.sampler;
  SamplerFactory factory = [sc](pid_t pid) -> std::unique_ptr<SampleSource> {
    LiveSamplerConfig x = sc;
    x.pids = {static_cast<int>(pid)};
    return std::make_unique<LiveSampler>(x);
  };
  RunResult r = RunServer(run, c.watch, clock, **model, factory, sinks->all());
  if (!r.error.empty()) {
    err << "spinup: " << r.error << "\n";
  }
  return r.exit_code;
}

}  // namespace spinup
