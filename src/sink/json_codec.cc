#include "sink/json_codec.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace spinup {

using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 14> kKindNames = {
    "phase_begin",    "phase_end", "progress", "error", "fatal",    "attempt_start", "ready",
    "request_served", "heartbeat", "info",     "frame", "restarts", "stop",          "foreign"};

template <typename T>
json Opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

// Thrown inside the readers and turned into a Status at their boundary.
struct BadValue {
  std::string message;
};

// nlohmann converts a float to an integer with a plain cast, which is undefined behaviour when
// the value is out of range; a saved stream is untrusted, so integers are checked first.
template <typename T>
T GetChecked(const json& v, const char* key) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (!(d >= static_cast<double>(std::numeric_limits<T>::min()) &&
            d <= static_cast<double>(std::numeric_limits<T>::max()))) {
        throw BadValue{std::string("number out of range in key '") + key + "'"};
      }
      return static_cast<T>(d);
    }
    if (v.is_number_unsigned()) {
      if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        throw BadValue{std::string("number out of range in key '") + key + "'"};
      }
    } else if (v.is_number_integer()) {
      const int64_t i = v.get<int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        if (i < 0) throw BadValue{std::string("negative number in key '") + key + "'"};
        if (static_cast<uint64_t>(i) > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
          throw BadValue{std::string("number out of range in key '") + key + "'"};
        }
      } else if (i < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
                 i > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        throw BadValue{std::string("number out of range in key '") + key + "'"};
      }
    }
  }
  return v.get<T>();
}

template <typename T>
void ReadOpt(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    out.reset();
    return;
  }
  out = GetChecked<T>(*it, key);
}

template <typename T>
void Read(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = GetChecked<T>(*it, key);
}

Phase ReadPhase(const json& j, const char* key, Phase fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  auto name = it->get<std::string>();
  auto phase = ParsePhase(name);
  if (!phase) throw BadValue{std::string("unknown phase '") + name + "' in key '" + key + "'"};
  return *phase;
}

std::optional<Phase> ReadOptPhase(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return ReadPhase(j, key, Phase::kLaunch);
}

template <typename F>
auto Guard(F&& f) -> Result<decltype(f())> {
  try {
    return f();
  } catch (const BadValue& e) {
    return Status::Corrupt(e.message);
  } catch (const json::exception& e) {
    return Status::Corrupt(e.what());
  }
}

json PhaseOrNull(const std::optional<Phase>& p) {
  return p ? json(std::string(PhaseName(*p))) : json(nullptr);
}

json GpusToJson(const std::vector<GpuSample>& in) {
  json gpus = json::array();
  for (const auto& g : in) {
    json users = json::array();
    for (const auto& u : g.processes)
      users.push_back({{"pid", u.pid}, {"used_bytes", u.used_bytes}});
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"used_bytes", g.used_bytes},
                    {"total_bytes", g.total_bytes},
                    {"utilization_percent", g.utilization_percent},
                    {"processes", users}});
  }
  return gpus;
}

std::vector<GpuSample> GpusFromJson(const json& j) {
  std::vector<GpuSample> out;
  auto it = j.find("gpus");
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& gj : *it) {
    GpuSample g;
    Read(gj, "index", g.index);
    Read(gj, "name", g.name);
    Read(gj, "used_bytes", g.used_bytes);
    Read(gj, "total_bytes", g.total_bytes);
    Read(gj, "utilization_percent", g.utilization_percent);
    if (auto uit = gj.find("processes"); uit != gj.end() && uit->is_array()) {
      for (const auto& uj : *uit) {
        GpuSample::ProcessUse u;
        Read(uj, "pid", u.pid);
        Read(uj, "used_bytes", u.used_bytes);
        g.processes.push_back(u);
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

json StallEvidenceToJson(const StallEvidence& e) {
  json ranks = json::array();
  for (const auto& r : e.ranks) {
    json waits = json::array();
    for (const auto& [wchan, n] : r.wait_channels)
      waits.push_back({{"wchan", wchan}, {"threads", n}});
    ranks.push_back({{"rank", r.rank},
                     {"pid", r.pid},
                     {"source", r.source},
                     {"stack", r.stack},
                     {"waiting_in", r.waiting_in},
                     {"wait_channels", waits},
                     {"notes", r.notes}});
  }
  return {{"time_ms", e.time_ms},
          {"behind", e.behind},
          {"ranks", ranks},
          {"gpu_available", e.gpu_available},
          {"gpus", GpusToJson(e.gpus)},
          {"gather_seconds", e.gather_seconds},
          {"notes", e.notes}};
}

StallEvidence StallEvidenceFromJson(const json& j) {
  StallEvidence e;
  Read(j, "time_ms", e.time_ms);
  Read(j, "behind", e.behind);
  Read(j, "gpu_available", e.gpu_available);
  Read(j, "gather_seconds", e.gather_seconds);
  Read(j, "notes", e.notes);
  e.gpus = GpusFromJson(j);
  if (auto it = j.find("ranks"); it != j.end() && it->is_array()) {
    for (const auto& rj : *it) {
      RankStack r;
      Read(rj, "rank", r.rank);
      Read(rj, "pid", r.pid);
      Read(rj, "source", r.source);
      Read(rj, "stack", r.stack);
      Read(rj, "waiting_in", r.waiting_in);
      Read(rj, "notes", r.notes);
      if (auto w = rj.find("wait_channels"); w != rj.end() && w->is_array()) {
        for (const auto& wj : *w) {
          std::string wchan;
          int n = 0;
          Read(wj, "wchan", wchan);
          Read(wj, "threads", n);
          r.wait_channels.emplace_back(std::move(wchan), n);
        }
      }
      e.ranks.push_back(std::move(r));
    }
  }
  return e;
}

}  // namespace

json ToJson(const WarmStatus& w) {
  return {{"state", w.state},
          {"bytes_done", w.bytes_done},
          {"bytes_total", w.bytes_total},
          {"checkpoint_bytes", w.checkpoint_bytes},
          {"bytes_per_s", w.bytes_per_second},
          {"note", w.note}};
}

namespace {

WarmStatus WarmFromJson(const json& j) {
  WarmStatus w;
  Read(j, "state", w.state);
  Read(j, "bytes_done", w.bytes_done);
  Read(j, "bytes_total", w.bytes_total);
  Read(j, "checkpoint_bytes", w.checkpoint_bytes);
  Read(j, "bytes_per_s", w.bytes_per_second);
  Read(j, "note", w.note);
  return w;
}

}  // namespace

std::string_view LogEventKindName(LogEvent::Kind kind) {
  return kKindNames[static_cast<size_t>(kind)];
}

std::optional<LogEvent::Kind> ParseLogEventKind(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<LogEvent::Kind>(i);
  }
  return std::nullopt;
}

json ToJson(const LogEvent& e) {
  json j = {{"kind", LogEventKindName(e.kind)},
            {"time_ms", Opt(e.time_ms)},
            {"rank", e.rank},
            {"phase", PhaseOrNull(e.phase)},
            {"rule", e.rule_id},
            {"text", e.text},
            {"line", e.line_no}};
  if (e.kind == LogEvent::Kind::kProgress) {
    j["bar"] = e.bar;
    j["n"] = e.progress_n;
    j["total"] = e.progress_total;
  }
  if (e.elapsed_seconds) j["elapsed_seconds"] = *e.elapsed_seconds;
  return j;
}

json ToJson(const Sample& s) {
  json procs = json::array();
  for (const auto& p : s.processes) {
    json files = json::array();
    for (const auto& f : p.model_files) {
      files.push_back({{"path", f.path}, {"offset", f.offset}, {"size", f.size}});
    }
    procs.push_back({{"pid", p.pid},
                     {"ppid", p.ppid},
                     {"state", std::string(1, p.state)},
                     {"comm", p.comm},
                     {"cmdline", p.cmdline},
                     {"cpu_seconds", p.cpu_seconds},
                     {"rss_bytes", p.rss_bytes},
                     {"read_bytes", p.read_bytes},
                     {"rchar", p.rchar},
                     {"major_faults", p.major_faults},
                     {"threads", p.threads},
                     {"threads_running", p.threads_running},
                     {"threads_disk_wait", p.threads_disk_wait},
                     {"threads_futex_wait", p.threads_futex_wait},
                     {"threads_poll_wait", p.threads_poll_wait},
                     {"threads_sleep_wait", p.threads_sleep_wait},
                     {"threads_sampled", p.threads_sampled},
                     {"compiler", p.compiler},
                     {"model_files", files},
                     {"listening_ports", p.listening_ports}});
  }
  return {{"time_ms", s.time_ms},
          {"processes", procs},
          {"gpu_available", s.gpu_available},
          {"gpu_message", s.gpu_message},
          {"gpus", GpusToJson(s.gpus)},
          {"checkpoint_bytes", Opt(s.checkpoint_bytes)},
          {"checkpoint_resident_bytes", Opt(s.checkpoint_resident_bytes)},
          {"health_http_status", Opt(s.health_http_status)},
          {"port_listening", s.port_listening},
          {"exit_status", Opt(s.exit_status)},
          {"restarts", s.restarts},
          {"compiler_processes", s.compiler_processes},
          {"processes_truncated", s.processes_truncated}};
}

json ToJson(const Progress& p) {
  return {{"bytes_done", Opt(p.bytes_done)},
          {"bytes_total", Opt(p.bytes_total)},
          {"bytes_per_s", Opt(p.bytes_per_second)},
          {"eta_seconds", Opt(p.eta_seconds)},
          {"bar", p.bar},
          {"bar_n", p.bar_n},
          {"bar_total", p.bar_total}};
}

json ToJson(const Finding& f) {
  return {
      {"id", f.id}, {"title", f.title}, {"evidence", f.evidence}, {"why", f.why}, {"fix", f.fix}};
}

json ToJson(const TimelineEntry& t) {
  return {{"rank", t.rank},          {"phase", PhaseName(t.phase)}, {"start_ms", Opt(t.start_ms)},
          {"end_ms", Opt(t.end_ms)}, {"seconds", Opt(t.seconds)},   {"slow", t.slow},
          {"waiting", t.waiting}};
}

json ToJson(const Verdict& v) {
  json ranks = json::array();
  for (const auto& r : v.ranks) {
    ranks.push_back(
        {{"rank", r.rank}, {"phase", PhaseName(r.phase)}, {"since_ms", Opt(r.since_ms)}});
  }
  json timeline = json::array();
  for (const auto& t : v.timeline) timeline.push_back(ToJson(t));
  json findings = json::array();
  for (const auto& f : v.findings) findings.push_back(ToJson(f));
  return {{"state", StateName(v.state)},
          {"phase", PhaseName(v.phase)},
          {"engine", v.engine},
          {"headline", v.headline},
          {"attempts", v.attempts},
          {"restarts", v.restarts},
          {"phase_seconds", Opt(v.phase_seconds)},
          {"budget_seconds", Opt(v.budget_seconds)},
          {"stalled_seconds", Opt(v.stalled_seconds)},
          {"after_ready", v.after_ready},
          {"ranks", ranks},
          {"timeline", timeline},
          {"progress", ToJson(v.progress)},
          {"evidence", v.evidence},
          {"errors", v.errors},
          {"findings", findings},
          {"not_known", v.not_known},
          {"first_request_seconds", Opt(v.first_request_seconds)},
          {"stall_evidence", v.stall_evidence ? StallEvidenceToJson(*v.stall_evidence) : json()},
          {"warm", v.warm ? ToJson(*v.warm) : json()}};
}

Result<LogEvent> LogEventFromJson(const json& j) {
  return Guard([&] {
    LogEvent e;
    std::string kind = j.value("kind", std::string("info"));
    auto k = ParseLogEventKind(kind);
    if (!k) throw BadValue{"unknown event kind '" + kind + "'"};
    e.kind = *k;
    ReadOpt(j, "time_ms", e.time_ms);
    Read(j, "rank", e.rank);
    e.phase = ReadOptPhase(j, "phase");
    Read(j, "rule", e.rule_id);
    Read(j, "text", e.text);
    Read(j, "line", e.line_no);
    Read(j, "bar", e.bar);
    Read(j, "n", e.progress_n);
    Read(j, "total", e.progress_total);
    ReadOpt(j, "elapsed_seconds", e.elapsed_seconds);
    return e;
  });
}

Result<Sample> SampleFromJson(const json& j) {
  return Guard([&] {
    Sample s;
    Read(j, "time_ms", s.time_ms);
    if (auto it = j.find("processes"); it != j.end() && it->is_array()) {
      for (const auto& pj : *it) {
        ProcessSample p;
        Read(pj, "pid", p.pid);
        Read(pj, "ppid", p.ppid);
        std::string state;
        Read(pj, "state", state);
        p.state = state.empty() ? '?' : state[0];
        Read(pj, "comm", p.comm);
        Read(pj, "cmdline", p.cmdline);
        Read(pj, "cpu_seconds", p.cpu_seconds);
        Read(pj, "rss_bytes", p.rss_bytes);
        Read(pj, "read_bytes", p.read_bytes);
        Read(pj, "rchar", p.rchar);
        Read(pj, "major_faults", p.major_faults);
        Read(pj, "threads", p.threads);
        Read(pj, "threads_running", p.threads_running);
        Read(pj, "threads_disk_wait", p.threads_disk_wait);
        Read(pj, "threads_futex_wait", p.threads_futex_wait);
        Read(pj, "threads_poll_wait", p.threads_poll_wait);
        Read(pj, "threads_sleep_wait", p.threads_sleep_wait);
        Read(pj, "threads_sampled", p.threads_sampled);
        Read(pj, "compiler", p.compiler);
        if (auto fit = pj.find("model_files"); fit != pj.end() && fit->is_array()) {
          for (const auto& fj : *fit) {
            ProcessSample::OpenModelFile f;
            Read(fj, "path", f.path);
            Read(fj, "offset", f.offset);
            Read(fj, "size", f.size);
            p.model_files.push_back(std::move(f));
          }
        }
        if (auto lit = pj.find("listening_ports"); lit != pj.end() && lit->is_array()) {
          for (const auto& port : *lit) {
            p.listening_ports.push_back(GetChecked<uint16_t>(port, "listening_ports"));
          }
        }
        s.processes.push_back(std::move(p));
      }
    }
    Read(j, "gpu_available", s.gpu_available);
    Read(j, "gpu_message", s.gpu_message);
    s.gpus = GpusFromJson(j);
    ReadOpt(j, "checkpoint_bytes", s.checkpoint_bytes);
    ReadOpt(j, "checkpoint_resident_bytes", s.checkpoint_resident_bytes);
    ReadOpt(j, "health_http_status", s.health_http_status);
    Read(j, "port_listening", s.port_listening);
    ReadOpt(j, "exit_status", s.exit_status);
    Read(j, "restarts", s.restarts);
    Read(j, "compiler_processes", s.compiler_processes);
    Read(j, "processes_truncated", s.processes_truncated);
    return s;
  });
}

Result<Verdict> VerdictFromJson(const json& j) {
  return Guard([&] {
    Verdict v;
    std::string state = j.value("state", std::string("unknown"));
    auto st = ParseState(state);
    if (!st) throw BadValue{"unknown state '" + state + "'"};
    v.state = *st;
    v.phase = ReadPhase(j, "phase", Phase::kLaunch);
    Read(j, "engine", v.engine);
    Read(j, "headline", v.headline);
    Read(j, "attempts", v.attempts);
    Read(j, "restarts", v.restarts);
    ReadOpt(j, "phase_seconds", v.phase_seconds);
    ReadOpt(j, "budget_seconds", v.budget_seconds);
    ReadOpt(j, "stalled_seconds", v.stalled_seconds);
    Read(j, "after_ready", v.after_ready);
    if (auto it = j.find("ranks"); it != j.end() && it->is_array()) {
      for (const auto& rj : *it) {
        RankPhase r;
        Read(rj, "rank", r.rank);
        r.phase = ReadPhase(rj, "phase", Phase::kLaunch);
        ReadOpt(rj, "since_ms", r.since_ms);
        v.ranks.push_back(std::move(r));
      }
    }
    if (auto it = j.find("timeline"); it != j.end() && it->is_array()) {
      for (const auto& tj : *it) {
        TimelineEntry t;
        Read(tj, "rank", t.rank);
        t.phase = ReadPhase(tj, "phase", Phase::kLaunch);
        ReadOpt(tj, "start_ms", t.start_ms);
        ReadOpt(tj, "end_ms", t.end_ms);
        ReadOpt(tj, "seconds", t.seconds);
        Read(tj, "slow", t.slow);
        Read(tj, "waiting", t.waiting);
        v.timeline.push_back(std::move(t));
      }
    }
    if (auto it = j.find("progress"); it != j.end() && it->is_object()) {
      const json& pj = *it;
      ReadOpt(pj, "bytes_done", v.progress.bytes_done);
      ReadOpt(pj, "bytes_total", v.progress.bytes_total);
      ReadOpt(pj, "bytes_per_s", v.progress.bytes_per_second);
      ReadOpt(pj, "eta_seconds", v.progress.eta_seconds);
      Read(pj, "bar", v.progress.bar);
      Read(pj, "bar_n", v.progress.bar_n);
      Read(pj, "bar_total", v.progress.bar_total);
    }
    Read(j, "evidence", v.evidence);
    Read(j, "errors", v.errors);
    Read(j, "not_known", v.not_known);
    if (auto it = j.find("findings"); it != j.end() && it->is_array()) {
      for (const auto& fj : *it) {
        Finding f;
        Read(fj, "id", f.id);
        Read(fj, "title", f.title);
        Read(fj, "evidence", f.evidence);
        Read(fj, "why", f.why);
        Read(fj, "fix", f.fix);
        v.findings.push_back(std::move(f));
      }
    }
    ReadOpt(j, "first_request_seconds", v.first_request_seconds);
    if (auto it = j.find("stall_evidence"); it != j.end() && it->is_object()) {
      v.stall_evidence = StallEvidenceFromJson(*it);
    }
    if (auto it = j.find("warm"); it != j.end() && it->is_object()) v.warm = WarmFromJson(*it);
    return v;
  });
}

}  // namespace spinup
