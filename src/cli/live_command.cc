#include "cli/live_command.h"

#include <fstream>
#include <memory>

#include "history/learner.h"
#include "live/stall_stage.h"
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
        [socket = c.notify_socket](const std::string& m) { (void)SendNotify(socket, m); },
        c.predicted_ready_eta);
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

// The model's config with the learned budgets of this host's history, if any (the judge never
// sees the history store: only these numbers).
StartupModelConfig ModelConfig(const LiveCommandConfig& c) {
  StartupModelConfig m = c.model;
  if (c.learned_budgets != nullptr) {
    for (const auto& [phase, b] : c.learned_budgets->budgets()) {
      m.session.learned[phase] = LearnedPhaseBudget{b.slow_s, b.stall_s, b.evidence};
    }
  }
  return m;
}

// The live-only verdict stages, in the order they run: the first request may turn READY into
// warmup, a stall (then) triggers the evidence, and the warm stops at ready or crash.
struct Stages {
  std::unique_ptr<ReadyGate> gate;
  std::unique_ptr<StallStage> stall;
  std::unique_ptr<WarmStage> warm;
  std::vector<VerdictStage*> all() const {
    std::vector<VerdictStage*> v;
    for (VerdictStage* s :
         {static_cast<VerdictStage*>(gate.get()), static_cast<VerdictStage*>(stall.get()),
          static_cast<VerdictStage*>(warm.get())}) {
      if (s != nullptr) v.push_back(s);
    }
    return v;
  }
};

Stages MakeStages(const LiveCommandConfig& c) {
  Stages s;
  // --once is one look: it does not wait for a request (the health check decides, as before).
  if (c.sampler.port && !c.watch.once && c.probe != ProbeMode::kHealth &&
      c.probe != ProbeMode::kNone) {
    proc::FirstRequestOptions o;
    o.port = *c.sampler.port;
    s.gate = std::make_unique<ReadyGate>(c.probe, o, c.model.session.engine,
                                         MakeThreadFirstRequestRunner());
  }
  s.stall = std::make_unique<StallStage>(c.gather);
  if (c.warm) {
    s.warm = std::make_unique<WarmStage>(*c.warm);
    s.warm->Start();  // at launch: alongside the server's imports and distributed init
  }
  return s;
}

// `--events` on a full disk: the stream is incomplete, so say so and do not exit 0 (like cat).
int CheckEvents(const LiveCommandConfig& c, const Sinks& s, int code, std::ostream& err) {
  if (!s.events_stream || !s.events_stream->fail()) return code;
  err << "spinup: --events: " << c.events_file
      << ": write failed (disk full?); the saved stream is incomplete\n";
  return code == 0 ? 1 : code;
}

// --log FILE, --log - (standard input) and --log-command.
bool AddLogSources(const LiveCommandConfig& c, Watcher& watcher, std::ostream& err) {
  for (const auto& log : c.logs) {
    if (log != "-") {
      watcher.AddSource(std::make_unique<FileFollower>(log));
      continue;
    }
    auto in = OpenStdinSource();
    if (!in.ok()) {
      err << "spinup: " << in.status().message() << "\n";
      return false;
    }
    watcher.AddSource(std::move(*in));
  }
  if (!c.log_command.empty()) {
    LogCommandOptions lc;
    lc.command = c.log_command;
    lc.note = [&err](const std::string& note) { err << "spinup: note: " << note << "\n"; };
    watcher.AddSource(std::make_unique<LogCommandSource>(std::move(lc)));
  }
  return true;
}

}  // namespace

int WatchCommand(const LiveCommandConfig& c, std::ostream& out, std::ostream& err) {
  SystemClock clock;
  auto model = SessionStartupModel::Create(ModelConfig(c));
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
  Stages stages = MakeStages(c);
  Watcher watcher(w, clock, **model, sampler.get(), sinks->all());
  for (VerdictStage* st : stages.all()) watcher.AddStage(st);
  if (!AddLogSources(c, watcher, err)) return 2;
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
  return CheckEvents(c, *sinks, end.exit_code, err);
}

int RunCommand(const LiveCommandConfig& c, std::ostream& view_out, std::ostream& err) {
  SystemClock clock;
  auto model = SessionStartupModel::Create(ModelConfig(c));
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
  Stages stages = MakeStages(c);
  run.stages = stages.all();
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
  return CheckEvents(c, *sinks, r.exit_code, err);
}

}  // namespace spinup
