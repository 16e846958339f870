#include "history/record.h"

#include <fmt/format.h>
#include <algorithm>

namespace spinup {

std::string StartupFlagsKey(const StartupFlags& f) {
  std::string out;
  auto add = [&](std::string_view k, const std::string& v) {
    if (v.empty()) return;
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", k, v);
  };
  auto num = [](const auto& o) { return o ? std::to_string(*o) : std::string(); };
  add("tp", num(f.tp));
  add("pp", num(f.pp));
  add("dp", num(f.dp));
  add("q", f.quantization);
  add("ctx", num(f.context_length));
  add("spec", f.speculative);
  return out;
}

namespace {

// The last span per (rank, phase): a restart's spans replace the earlier attempt's.
std::map<std::pair<std::string, Phase>, const RecordedSpan*> LastSpans(const StartRecord& r) {
  std::map<std::pair<std::string, Phase>, const RecordedSpan*> last;
  for (const auto& s : r.phases) last[{s.rank, s.phase}] = &s;
  return last;
}

std::optional<double> SpanSeconds(const RecordedSpan& s) {
  if (s.start_ms && s.end_ms) return std::max(0.0, (*s.end_ms - *s.start_ms) / 1000.0);
  if (s.end_ms && s.seconds) return std::max(0.0, *s.seconds);
  return std::nullopt;
}

}  // namespace

std::map<Phase, double> PhaseSeconds(const StartRecord& r) {
  std::map<Phase, double> out;
  for (const auto& [key, span] : LastSpans(r)) {
    if (key.second == Phase::kReady) continue;
    auto s = SpanSeconds(*span);
    if (!s) continue;
    auto [it, fresh] = out.emplace(key.second, *s);
    if (!fresh) it->second = std::max(it->second, *s);
  }
  return out;
}

std::map<Phase, double> PhaseEndOffsets(const StartRecord& r) {
  std::map<Phase, double> out;
  for (const auto& [key, span] : LastSpans(r)) {
    if (!span->end_ms) continue;
    double off = std::max(0.0, (*span->end_ms - r.started_ms) / 1000.0);
    auto [it, fresh] = out.emplace(key.second, off);
    if (!fresh) it->second = std::max(it->second, off);
  }
  return out;
}

std::optional<double> SecondsToReady(const StartRecord& r) {
  if (!r.ready_ms) return std::nullopt;
  return std::max(0.0, (*r.ready_ms - r.started_ms) / 1000.0);
}

StartRecord BuildRecord(const Verdict& v, const RecordContext& c) {
  StartRecord r;
  r.host = c.host;
  r.model = c.model;
  r.fingerprint = c.fingerprint;
  r.engine = v.engine;
  r.engine_version = c.engine_version;
  r.flags = c.flags;
  r.spinup_version = c.spinup_version;
  r.resident_bytes = c.resident_bytes;
  r.restarts = std::max({c.restarts, v.attempts - 1, 0});
  r.state = v.state;
  r.exit_status = c.exit_status;
  r.source = c.source;
  r.imported = c.imported;
  std::optional<int64_t> first;
  std::optional<int64_t> last;
  for (const auto& t : v.timeline) {
    r.phases.push_back(RecordedSpan{t.rank, t.phase, t.start_ms, t.end_ms, t.seconds});
    for (auto ms : {t.start_ms, t.end_ms}) {
      if (!ms) continue;
      if (!first || *ms < *first) first = ms;
      if (!last || *ms > *last) last = ms;
    }
    if (t.phase == Phase::kReady && (t.start_ms || t.end_ms)) {
      int64_t at = t.start_ms ? *t.start_ms : *t.end_ms;
      if (!r.ready_ms || at > *r.ready_ms) r.ready_ms = at;
    }
  }
  // A watch sees the server before its first log line: the earlier of the two is the start.
  r.started_ms =
      c.started_ms ? (first ? std::min(*c.started_ms, *first) : *c.started_ms) : first.value_or(0);
  r.ended_ms = c.ended_ms ? c.ended_ms : last;
  if (v.state == State::kReady && !r.ready_ms) r.ready_ms = r.ended_ms;
  if (v.state != State::kReady) r.ready_ms.reset();
  const Progress& p = v.progress;
  r.bytes_read = p.bytes_done;
  r.read_bytes_per_s = p.bytes_per_second;
  // The average rate over weight_load says more than the last instant's.
  if (p.bytes_done) {
    auto secs = PhaseSeconds(r);
    auto wl = secs.find(Phase::kWeightLoad);
    if (wl != secs.end() && wl->second > 0) r.read_bytes_per_s = *p.bytes_done / wl->second;
  }
  return r;
}

}  // namespace spinup
