#include "sink/metrics_sink.h"

#include <algorithm>
#include <utility>

namespace spinup {

namespace {

constexpr State kAllStates[] = {State::kStarting,  State::kProgressing, State::kInProgress,
                                State::kSlow,      State::kStalled,     State::kCrashed,
                                State::kCrashLoop, State::kReady,       State::kUnknown};

double Seconds(int64_t ms) { return static_cast<double>(ms) / 1000.0; }
// b..a in seconds; in double, so stamps from an untrusted stream cannot overflow.
double Seconds(int64_t a, int64_t b) {
  return (static_cast<double>(a) - static_cast<double>(b)) / 1000.0;
}

}  // namespace

MetricsSink::MetricsSink(MetricsConfig config, std::function<int64_t()> now_ms)
    : config_(std::move(config)), now_ms_(std::move(now_ms)) {}

void MetricsSink::OnLogEvent(const LogEvent& event) {
  std::lock_guard lock(mu_);
  ++log_events_;
  if (event.time_ms && (!first_time_ms_ || *event.time_ms < *first_time_ms_)) {
    first_time_ms_ = event.time_ms;
  }
}

void MetricsSink::OnSample(const Sample& sample) {
  std::lock_guard lock(mu_);
  if (!first_time_ms_ || sample.time_ms < *first_time_ms_) first_time_ms_ = sample.time_ms;
  sample_ = sample;
}

void MetricsSink::OnVerdict(const Verdict& verdict) {
  std::lock_guard lock(mu_);
  restarts_ = std::max(restarts_, verdict.restarts);
  for (const auto& t : verdict.timeline) {
    if (t.start_ms && (!first_time_ms_ || *t.start_ms < *first_time_ms_)) {
      first_time_ms_ = t.start_ms;
    }
  }
  verdict_ = verdict;
  last_update_ms_ = now_ms_();
}

void MetricsSink::Finish(const Verdict& verdict) { OnVerdict(verdict); }

void MetricsSink::SetExpectations(std::map<Phase, double> expected_phase_s,
                                  std::optional<double> eta_s) {
  std::lock_guard lock(mu_);
  expected_phase_s_ = std::move(expected_phase_s);
  predicted_eta_s_ = eta_s;
}

// Collect in named steps, each appending its families in the exposition's order. `Families` hands
// out pointers into the vector: room for every family up front keeps them valid.
class MetricsSink::Families {
 public:
  using Labels = std::vector<std::pair<std::string, std::string>>;
  explicit Families(const MetricsConfig& config) : config_(config) { out_.reserve(32); }

  // Every sample carries `model` and `host` first, then its own labels.
  Labels Base(Labels extra = {}) const {
    Labels l = {{"model", config_.model}, {"host", config_.host}};
    for (auto& e : extra) l.push_back(std::move(e));
    return l;
  }
  std::vector<MetricSample>* Add(std::string name, std::string help,
                                 MetricType type = MetricType::kGauge) {
    out_.push_back(MetricFamily{std::move(name), std::move(help), type, {}});
    return &out_.back().samples;
  }
  // A family with a single sample.
  void One(std::string name, std::string help, double value, Labels extra = {},
           MetricType type = MetricType::kGauge) {
    Add(std::move(name), std::move(help), type)->push_back({Base(std::move(extra)), value});
  }
  std::vector<MetricFamily> Take() { return std::move(out_); }

 private:
  const MetricsConfig& config_;
  std::vector<MetricFamily> out_;
};

std::vector<MetricFamily> MetricsSink::Collect() const {
  std::lock_guard lock(mu_);
  const int64_t now = now_ms_();
  Families f(config_);
  CollectState(f);
  if (verdict_) {
    CollectPhases(f, *verdict_, now);
    CollectProgress(f, *verdict_);
  }
  CollectHistoryAndClock(f, now);
  CollectGpus(f);
  return f.Take();
}

void MetricsSink::CollectState(Families& f) const {
  f.One("spinup_info", "Always 1; labels say which spinup and engine watch this startup.", 1,
        {{"version", config_.version}, {"engine", verdict_ ? verdict_->engine : std::string()}});
  // Enum-style: every state is present, 1 for the current one, so a change is visible as 1 -> 0.
  auto* s = f.Add("spinup_startup_state",
                  "1 for the startup's current state (starting, progressing, slow, stalled, "
                  "crashed, crash_loop, ready, ...), 0 for the others.");
  State current = verdict_ ? verdict_->state : State::kUnknown;
  for (State st : kAllStates) {
    s->push_back({f.Base({{"state", std::string(StateName(st))}}), st == current ? 1.0 : 0.0});
  }
  f.One("spinup_ready", "1 when the server is ready (engine ready line or health probe 200).",
        verdict_ && verdict_->state == State::kReady ? 1.0 : 0.0);
  if (verdict_ && verdict_->first_request_seconds) {
    f.One("spinup_first_request_seconds",
          "Seconds the first one-token request took to be served (--probe generate).",
          *verdict_->first_request_seconds);
  }
  if (verdict_ && verdict_->warm) {
    f.One("spinup_warm_bytes", "Checkpoint bytes --warm brought into the page cache so far.",
          static_cast<double>(verdict_->warm->bytes_done));
  }
  f.One("spinup_restarts_total",
        "Restarts of the server seen by spinup (systemd NRestarts, relaunch banners).",
        static_cast<double>(restarts_), {}, MetricType::kCounter);
  f.One("spinup_log_events_total", "Log lines that matched an engine rule.",
        static_cast<double>(log_events_), {}, MetricType::kCounter);
}

void MetricsSink::CollectPhases(Families& f, const Verdict& v, int64_t now) const {
  auto* s = f.Add("spinup_phase",
                  "1 for each rank's current phase, 0 for its other phases (rank \"\" is the "
                  "main process).");
  auto* idx = f.Add("spinup_phase_index",
                    "Each rank's current phase as its position in startup order (launch=0 "
                    "... ready=9); compare ranks and nodes with it.");
  for (const auto& r : v.ranks) {
    for (int p = 0; p < kPhaseCount; ++p) {
      Phase ph = static_cast<Phase>(p);
      s->push_back({f.Base({{"rank", r.rank}, {"phase", std::string(PhaseName(ph))}}),
                    ph == r.phase ? 1.0 : 0.0});
    }
    idx->push_back({f.Base({{"rank", r.rank}}), static_cast<double>(static_cast<int>(r.phase))});
  }
  // The last entry per (rank, phase) wins: a restart's timeline replaces the earlier attempt's.
  std::map<std::pair<std::string, Phase>, double> secs;
  for (const auto& t : v.timeline) {
    std::optional<double> d = t.seconds;
    if (!d && t.start_ms) d = Seconds(t.end_ms ? *t.end_ms : now, *t.start_ms);
    if (d) secs[{t.rank, t.phase}] = std::max(0.0, *d);
  }
  auto* ps = f.Add("spinup_phase_seconds",
                   "Seconds each rank spent in each phase (still growing for the running "
                   "phase).");
  for (const auto& [key, d] : secs) {
    ps->push_back(
        {f.Base({{"rank", key.first}, {"phase", std::string(PhaseName(key.second))}}), d});
  }
  const std::string phase(PhaseName(v.phase));
  if (v.phase_seconds) {
    f.One("spinup_current_phase_seconds", "Seconds the startup has been in its current phase.",
          *v.phase_seconds, {{"phase", phase}});
  }
  if (v.budget_seconds) {
    f.One("spinup_phase_budget_seconds",
          "The current phase's budget (from the budget table); longer without progress is "
          "stalled.",
          *v.budget_seconds, {{"phase", phase}});
  }
  if (v.stalled_seconds) {
    f.One("spinup_stalled_seconds", "Seconds since the last progress signal of any kind.",
          *v.stalled_seconds);
  }
}

void MetricsSink::CollectProgress(Families& f, const Verdict& v) const {
  const Progress& p = v.progress;
  std::optional<uint64_t> total = p.bytes_total;
  if (!total && sample_) total = sample_->checkpoint_bytes;
  std::optional<uint64_t> done = p.bytes_done;
  if (!done && sample_) done = sample_->checkpoint_resident_bytes;
  if (total) {
    f.One("spinup_checkpoint_bytes", "Total size of the checkpoint's shards.",
          static_cast<double>(*total));
  }
  if (done) {
    f.One("spinup_checkpoint_read_bytes",
          "Bytes of the checkpoint read so far (reads, file offsets or page-cache residency).",
          static_cast<double>(*done));
  }
  if (p.bytes_per_second) {
    f.One("spinup_read_bytes_per_second", "Current checkpoint read rate.", *p.bytes_per_second);
  }
  if (predicted_eta_s_) {
    f.One("spinup_eta_seconds", "Predicted seconds until ready (from this host's startup history).",
          *predicted_eta_s_);
  } else if (p.eta_seconds) {
    f.One("spinup_eta_seconds", "Estimated seconds until the checkpoint is read.", *p.eta_seconds);
  }
  if (!v.findings.empty()) {
    auto* s = f.Add("spinup_finding", "1 for each known cause that fits the evidence.");
    for (const auto& finding : v.findings) s->push_back({f.Base({{"id", finding.id}}), 1});
  }
}

void MetricsSink::CollectHistoryAndClock(Families& f, int64_t now) const {
  if (!expected_phase_s_.empty()) {
    auto* s = f.Add("spinup_expected_phase_seconds",
                    "Each phase's expected seconds, learned from this host's earlier starts.");
    for (const auto& [phase, secs] : expected_phase_s_) {
      s->push_back({f.Base({{"phase", std::string(PhaseName(phase))}}), secs});
    }
  }
  if (first_time_ms_) {
    f.One("spinup_startup_seconds", "Seconds since the startup began (first event seen).",
          std::max(0.0, Seconds(now, *first_time_ms_)));
  }
  if (last_update_ms_) {
    f.One("spinup_last_verdict_timestamp_seconds", "Unix time of the last verdict.",
          Seconds(*last_update_ms_));
  }
}

void MetricsSink::CollectGpus(Families& f) const {
  if (!sample_ || !sample_->gpu_available) return;
  auto* used = f.Add("spinup_gpu_memory_used_bytes", "GPU memory in use per device (NVML).");
  auto* total = f.Add("spinup_gpu_memory_total_bytes", "GPU memory per device (NVML).");
  for (const auto& g : sample_->gpus) {
    used->push_back(
        {f.Base({{"gpu", std::to_string(g.index)}}), static_cast<double>(g.used_bytes)});
    total->push_back(
        {f.Base({{"gpu", std::to_string(g.index)}}), static_cast<double>(g.total_bytes)});
  }
}

}  // namespace spinup
