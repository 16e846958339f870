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

std::vector<MetricFamily> MetricsSink::Collect() const {
  std::lock_guard lock(mu_);
  const int64_t now = now_ms_();
  using Labels = std::vector<std::pair<std::string, std::string>>;
  auto base = [&](Labels extra = {}) {
    Labels l = {{"model", config_.model}, {"host", config_.host}};
    for (auto& e : extra) l.push_back(std::move(e));
    return l;
  };
  std::vector<MetricFamily> out;
  // `family` hands out pointers into `out`: room for every family up front keeps them valid.
  out.reserve(32);
  auto family = [&](std::string name, std::string help, MetricType type = MetricType::kGauge) {
    out.push_back(MetricFamily{std::move(name), std::move(help), type, {}});
    return &out.back().samples;
  };

  family("spinup_info", "Always 1; labels say which spinup and engine watch this startup.")
      ->push_back({base({{"version", config_.version},
                         {"engine", verdict_ ? verdict_->engine : std::string()}}),
                   1});

  // Enum-style: every state is present, 1 for the current one, so a change is visible as 1 -> 0.
  {
    auto* s = family("spinup_startup_state",
                     "1 for the startup's current state (starting, progressing, slow, stalled, "
                     "crashed, crash_loop, ready, ...), 0 for the others.");
    State current = verdict_ ? verdict_->state : State::kUnknown;
    for (State st : kAllStates) {
      s->push_back({base({{"state", std::string(StateName(st))}}), st == current ? 1.0 : 0.0});
    }
  }
  family("spinup_ready", "1 when the server is ready (engine ready line or health probe 200).")
      ->push_back({base(), verdict_ && verdict_->state == State::kReady ? 1.0 : 0.0});
  if (verdict_ && verdict_->first_request_seconds) {
    family("spinup_first_request_seconds",
           "Seconds the first one-token request took to be served (--probe generate).")
        ->push_back({base(), *verdict_->first_request_seconds});
  }
  if (verdict_ && verdict_->warm) {
    family("spinup_warm_bytes", "Checkpoint bytes --warm brought into the page cache so far.")
        ->push_back({base(), static_cast<double>(verdict_->warm->bytes_done)});
  }
  family("spinup_restarts_total",
         "Restarts of the server seen by spinup (systemd NRestarts, relaunch banners).",
         MetricType::kCounter)
      ->push_back({base(), static_cast<double>(restarts_)});
  family("spinup_log_events_total", "Log lines that matched an engine rule.", MetricType::kCounter)
      ->push_back({base(), static_cast<double>(log_events_)});

  if (verdict_) {
    const Verdict& v = *verdict_;
    {
      auto* s = family("spinup_phase",
                       "1 for each rank's current phase, 0 for its other phases (rank \"\" is the "
                       "main process).");
      auto* idx = family("spinup_phase_index",
                         "Each rank's current phase as its position in startup order (launch=0 "
                         "... ready=9); compare ranks and nodes with it.");
      for (const auto& r : v.ranks) {
        for (int p = 0; p < kPhaseCount; ++p) {
          Phase ph = static_cast<Phase>(p);
          s->push_back({base({{"rank", r.rank}, {"phase", std::string(PhaseName(ph))}}),
                        ph == r.phase ? 1.0 : 0.0});
        }
        idx->push_back({base({{"rank", r.rank}}), static_cast<double>(static_cast<int>(r.phase))});
      }
    }
    {
      // The last entry per (rank, phase) wins: a restart's timeline replaces the earlier attempt's.
      std::map<std::pair<std::string, Phase>, double> secs;
      for (const auto& t : v.timeline) {
        std::optional<double> d = t.seconds;
        if (!d && t.start_ms) d = Seconds(t.end_ms ? *t.end_ms : now, *t.start_ms);
        if (d) secs[{t.rank, t.phase}] = std::max(0.0, *d);
      }
      auto* s = family("spinup_phase_seconds",
                       "Seconds each rank spent in each phase (still growing for the running "
                       "phase).");
      for (const auto& [key, d] : secs) {
        s->push_back(
            {base({{"rank", key.first}, {"phase", std::string(PhaseName(key.second))}}), d});
      }
    }
    if (v.phase_seconds) {
      family("spinup_current_phase_seconds", "Seconds the startup has been in its current phase.")
          ->push_back({base({{"phase", std::string(PhaseName(v.phase))}}), *v.phase_seconds});
    }
    if (v.budget_seconds) {
      family("spinup_phase_budget_seconds",
             "The current phase's budget (from the budget table); longer without progress is "
             "stalled.")
          ->push_back({base({{"phase", std::string(PhaseName(v.phase))}}), *v.budget_seconds});
    }
    if (v.stalled_seconds) {
      family("spinup_stalled_seconds", "Seconds since the last progress signal of any kind.")
          ->push_back({base(), *v.stalled_seconds});
    }
    const Progress& p = v.progress;
    std::optional<uint64_t> total = p.bytes_total;
    if (!total && sample_) total = sample_->checkpoint_bytes;
    std::optional<uint64_t> done = p.bytes_done;
    if (!done && sample_) done = sample_->checkpoint_resident_bytes;
    if (total) {
      family("spinup_checkpoint_bytes", "Total size of the checkpoint's shards.")
          ->push_back({base(), static_cast<double>(*total)});
    }
    if (done) {
      family("spinup_checkpoint_read_bytes",
             "Bytes of the checkpoint read so far (reads, file offsets or page-cache residency).")
          ->push_back({base(), static_cast<double>(*done)});
    }
    if (p.bytes_per_second) {
      family("spinup_read_bytes_per_second", "Current checkpoint read rate.")
          ->push_back({base(), *p.bytes_per_second});
    }
    if (predicted_eta_s_) {
      family("spinup_eta_seconds",
             "Predicted seconds until ready (from this host's startup history).")
          ->push_back({base(), *predicted_eta_s_});
    } else if (p.eta_seconds) {
      family("spinup_eta_seconds", "Estimated seconds until the checkpoint is read.")
          ->push_back({base(), *p.eta_seconds});
    }
    if (!v.findings.empty()) {
      auto* s = family("spinup_finding", "1 for each known cause that fits the evidence.");
      for (const auto& f : v.findings) s->push_back({base({{"id", f.id}}), 1});
    }
  }
  if (!expected_phase_s_.empty()) {
    auto* s = family("spinup_expected_phase_seconds",
                     "Each phase's expected seconds, learned from this host's earlier starts.");
    for (const auto& [phase, secs] : expected_phase_s_) {
      s->push_back({base({{"phase", std::string(PhaseName(phase))}}), secs});
    }
  }
  if (first_time_ms_) {
    family("spinup_startup_seconds", "Seconds since the startup began (first event seen).")
        ->push_back({base(), std::max(0.0, Seconds(now, *first_time_ms_))});
  }
  if (last_update_ms_) {
    family("spinup_last_verdict_timestamp_seconds", "Unix time of the last verdict.")
        ->push_back({base(), Seconds(*last_update_ms_)});
  }
  if (sample_ && sample_->gpu_available) {
    auto* used = family("spinup_gpu_memory_used_bytes", "GPU memory in use per device (NVML).");
    auto* total = family("spinup_gpu_memory_total_bytes", "GPU memory per device (NVML).");
    for (const auto& g : sample_->gpus) {
      used->push_back(
          {base({{"gpu", std::to_string(g.index)}}), static_cast<double>(g.used_bytes)});
      total->push_back(
          {base({{"gpu", std::to_string(g.index)}}), static_cast<double>(g.total_bytes)});
    }
  }
  return out;
}

}  // namespace spinup
