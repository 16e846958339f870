#include "sink/json_lines_sink.h"

#include <nlohmann/json.hpp>

#include "base/json_dump.h"
#include "sink/json_codec.h"

namespace spinup {

using nlohmann::json;

namespace {

void Emit(std::ostream& out, json j) {
  // Invalid UTF-8 from a log line must not throw: replace it.
  out << DumpJson(j) << '\n';
  out.flush();
}

json Header(int64_t time_ms, const char* type) {
  json j;
  j["time"] = time_ms;
  j["type"] = type;
  return j;
}

}  // namespace

void JsonLinesSink::OnLogEvent(const LogEvent& e) {
  const char* type = nullptr;
  switch (e.kind) {
    case LogEvent::Kind::kPhaseBegin:
    case LogEvent::Kind::kPhaseEnd:
    case LogEvent::Kind::kReady:
      type = "phase";
      break;
    case LogEvent::Kind::kProgress:
      type = "progress";
      break;
    default:
      return;  // errors and other lines arrive inside the verdict (errors, evidence)
  }
  // The codec's LogEvent fields (kind, time_ms, rank, phase, rule, text, line, bar, n, total), so
  // a saved stream replays through LogEventFromJson.
  json j = Header(e.time_ms.value_or(clock_.NowMs()), type);
  j.update(ToJson(e));
  if (e.kind == LogEvent::Kind::kReady) j["phase"] = std::string(PhaseName(Phase::kReady));
  if (e.kind == LogEvent::Kind::kProgress) j["source"] = "log";
  Emit(out_, std::move(j));
}

void JsonLinesSink::OnSample(const Sample& s) {
  json j = Header(s.time_ms, "signal");
  j.update(ToJson(s));
  // Totals over the tree, so a reader need not add up the processes.
  double cpu = 0;
  uint64_t rss = 0, read_bytes = 0, rchar = 0;
  int threads = 0, futex = 0, poll = 0, disk = 0;
  for (const auto& p : s.processes) {
    cpu += p.cpu_seconds;
    rss += p.rss_bytes;
    read_bytes += p.read_bytes;
    rchar += p.rchar;
    threads += p.threads;
    futex += p.threads_futex_wait;
    poll += p.threads_poll_wait;
    disk += p.threads_disk_wait;
  }
  uint64_t gpu_used = 0;
  for (const auto& g : s.gpus) gpu_used += g.used_bytes;
  j["totals"] = {{"processes", s.processes.size()},
                 {"cpu_seconds", cpu},
                 {"rss_bytes", rss},
                 {"read_bytes", read_bytes},
                 {"rchar", rchar},
                 {"threads", threads},
                 {"threads_futex_wait", futex},
                 {"threads_poll_wait", poll},
                 {"threads_disk_wait", disk},
                 {"gpu_used_bytes", gpu_used}};
  Emit(out_, std::move(j));
}

void JsonLinesSink::OnVerdict(const Verdict& v) {
  int64_t now = clock_.NowMs();
  // Measured checkpoint progress: one "progress" object whenever it moved.
  const Progress& p = v.progress;
  if (p.bytes_done || p.bar_total > 0) {
    std::string key = std::to_string(p.bytes_done.value_or(0)) + "/" +
                      std::to_string(p.bytes_total.value_or(0)) + "/" + std::to_string(p.bar_n);
    if (key != last_progress_key_) {
      last_progress_key_ = key;
      json j = Header(now, "progress");
      j["source"] = "measured";
      j["phase"] = std::string(PhaseName(v.phase));
      j.update(ToJson(p));
      Emit(out_, std::move(j));
    }
  }
  // --warm: one "warm" object whenever it moved.
  if (v.warm) {
    std::string wkey = v.warm->state + "/" + std::to_string(v.warm->bytes_done >> 26);
    if (wkey != last_warm_key_) {
      last_warm_key_ = wkey;
      json j = Header(now, "warm");
      j.update(ToJson(*v.warm));
      Emit(out_, std::move(j));
    }
  }
  // Verdicts: whenever the state, phase or headline changes, or stall evidence or the first
  // request's latency arrives (the rest is in "signal" lines).
  std::string key = std::string(StateName(v.state)) + "|" + std::string(PhaseName(v.phase)) + "|" +
                    v.headline + (v.stall_evidence ? "|evidence" : "") +
                    (v.first_request_seconds ? "|served" : "");
  if (key == last_verdict_key_) return;
  last_verdict_key_ = key;
  json j = Header(now, "verdict");
  j.update(ToJson(v));
  j["final"] = false;
  Emit(out_, std::move(j));
}

void JsonLinesSink::Finish(const Verdict& v) {
  json j = Header(clock_.NowMs(), "verdict");
  j.update(ToJson(v));
  j["final"] = true;
  Emit(out_, std::move(j));
}

}  // namespace spinup
