#include "history/recorder.h"

#include <fmt/format.h>
#include <algorithm>

#include "history/server_flags.h"

namespace spinup {

HistoryRecorder::HistoryRecorder(HistoryRecorderConfig config, std::function<int64_t()> now_ms,
                                 std::ostream& warn)
    : config_(std::move(config)), now_ms_(std::move(now_ms)), warn_(warn) {
  auto store = HistoryStore::Open(config_.path, config_.store);
  if (!store.ok()) {
    Warn(store.status().message() + " (this start is not recorded)");
    return;
  }
  store_ = std::move(*store);
  HistoryQuery q;
  q.model = config_.context.model;
  if (config_.context.fingerprint) q.header_hash = config_.context.fingerprint->header_hash;
  q.limit = config_.past_limit;
  // An empty model would match every start: learn from none rather than from the wrong ones.
  if (q.model.empty() && q.header_hash.empty()) return;
  auto past = store_->Recent(q);
  if (!past.ok()) {
    Warn(past.status().message() + " (no learned budgets)");
    return;
  }
  past_ = std::move(*past);
  const RecordContext& c = config_.context;
  book_ =
      LearnBudgets(past_, StartKey{c.host, c.model, c.fingerprint, "", c.engine_version, c.flags},
                   config_.learner);
}

void HistoryRecorder::Warn(const std::string& message) {
  warn_ << "spinup: history: " << message << "\n";
}

void HistoryRecorder::OnLogEvent(const LogEvent& e) {
  if (e.time_ms && (!first_ms_ || *e.time_ms < *first_ms_)) first_ms_ = e.time_ms;
  RecordContext& c = config_.context;
  if (c.engine_version.empty()) {
    if (auto v = EngineVersionFromLine(e.text)) c.engine_version = *v;
  }
  if (c.imported) {
    if (auto args = ServerArgsFromLine(e.text)) {
      if (c.model.empty()) c.model = args->model;
      if (c.flags == StartupFlags{}) c.flags = args->flags;
    }
  }
}

void HistoryRecorder::OnSample(const Sample& s) {
  RecordContext& c = config_.context;
  if (!c.started_ms || s.time_ms < *c.started_ms) c.started_ms = s.time_ms;
  if (!c.resident_bytes && s.checkpoint_resident_bytes) {
    c.resident_bytes = s.checkpoint_resident_bytes;  // at launch: the first sample that knew
  }
  if (!c.checkpoint_bytes && s.checkpoint_bytes) c.checkpoint_bytes = s.checkpoint_bytes;
  if (s.checkpoint_resident_bytes && s.checkpoint_bytes && *s.checkpoint_bytes > 0) {
    resident_fraction_ = std::min(1.0, static_cast<double>(*s.checkpoint_resident_bytes) /
                                           static_cast<double>(*s.checkpoint_bytes));
  }
  c.restarts = std::max(c.restarts, s.restarts);
  if (s.exit_status) c.exit_status = s.exit_status;
}

void HistoryRecorder::OnVerdict(const Verdict& v) {
  last_ = v;
  if (book_.empty()) return;
  PredictionInput in;
  in.phase = v.phase;
  in.phase_elapsed_s = v.phase_seconds.value_or(0);
  const int64_t now = now_ms_();
  std::optional<int64_t> start = config_.context.started_ms;
  if (first_ms_ && (!start || *first_ms_ < *start)) start = first_ms_;
  in.since_start_s = start ? std::max(0.0, (now - *start) / 1000.0) : 0.0;
  in.ready = v.state == State::kReady;
  if (v.phase == Phase::kWeightLoad) in.read_eta_s = v.progress.eta_seconds;
  in.resident_fraction = resident_fraction_;
  prediction_ = PredictReady(book_, in);
  if (listener_) listener_(*prediction_);
}

void HistoryRecorder::Finish(const Verdict& v) {
  OnVerdict(v);
  final_ = v;
}

StartRecord HistoryRecorder::Build() const {
  RecordContext c = config_.context;
  if (first_ms_ && (!c.started_ms || *first_ms_ < *c.started_ms)) c.started_ms = first_ms_;
  if (!c.ended_ms && !c.imported) c.ended_ms = now_ms_();
  const Verdict empty;
  return BuildRecord(final_ ? *final_ : last_ ? *last_ : empty, c);
}

std::optional<int64_t> HistoryRecorder::Commit(std::optional<int> exit_status) {
  if (!store_ || committed_) return std::nullopt;
  committed_ = true;
  if (exit_status) config_.context.exit_status = exit_status;
  StartRecord r = Build();
  auto id = store_->Add(r);
  if (!id.ok()) {
    Warn(id.status().message() + " (this start is not recorded)");
    return std::nullopt;
  }
  r.id = *id;
  RegressionReport rep = FindRegressions(r, past_, config_.learner);
  for (const auto& p : rep.phases) Warn("regression: " + p.text);
  if (rep.any() && !rep.changes.empty()) {
    Warn(fmt::format("changed since the last start of this model: {}",
                     fmt::join(rep.changes, "; ")));
  }
  return *id;
}

}  // namespace spinup
