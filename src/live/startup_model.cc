#include "live/startup_model.h"

#include <algorithm>

namespace spinup {

struct RulesStartupModel::Source {
  std::unique_ptr<LogStream> stream;
  std::string pending;  // text after the last line break, held until the line is complete
};

Result<std::unique_ptr<RulesStartupModel>> RulesStartupModel::Create(
    const StartupModelConfig& config) {
  auto rules = RuleSet::LoadEmbedded();
  if (!rules.ok()) return rules.status();
  for (const auto& path : config.rules_files) {
    Status st = rules->AddPath(path);
    if (!st.ok()) return st;
  }
  if (!config.rules_files.empty()) {
    Status st = rules->Compile();
    if (!st.ok()) return st;
  }
  return std::unique_ptr<RulesStartupModel>(new RulesStartupModel(config, std::move(*rules)));
}

RulesStartupModel::RulesStartupModel(const StartupModelConfig& config, RuleSet rules)
    : config_(config), rules_(std::move(rules)), judge_(rules_) {}

RulesStartupModel::~RulesStartupModel() = default;

RulesStartupModel::Source& RulesStartupModel::SourceAt(int source) {
  if (source < 0) source = 0;
  if (static_cast<size_t>(source) >= sources_.size())
    sources_.resize(static_cast<size_t>(source) + 1);
  auto& s = sources_[static_cast<size_t>(source)];
  if (!s) {
    s = std::make_unique<Source>();
    LogStreamOptions o;
    o.engine = config_.engine;
    o.reference_year = config_.reference_year;
    s->stream = std::make_unique<LogStream>(rules_, o);
    s->stream->OnEvent([this](const LogEvent& event) {
      LogEvent e = event;
      if (feeding_arrival_ || !e.time_ms) {
        e.time_ms = feeding_now_ms_;
      } else {
        *e.time_ms -= config_.local_utc_offset_s * 1000;
      }
      SyncEngine();
      tracker_.OnLogEvent(e);
      if (feeding_events_ != nullptr) feeding_events_->push_back(std::move(e));
    });
    s->stream->OnActivity([this](std::optional<int64_t> t, std::string_view) {
      if (feeding_arrival_ || !t) {
        t = feeding_now_ms_;
      } else {
        *t -= config_.local_utc_offset_s * 1000;
      }
      tracker_.OnLogActivity(t);
    });
  }
  return *s;
}

void RulesStartupModel::SyncEngine() {
  if (!engine_.empty()) return;
  for (const auto& s : sources_) {
    if (s && !s->stream->engine().empty()) {
      engine_ = s->stream->engine();
      tracker_.SetEngine(engine_);
      return;
    }
  }
}

void RulesStartupModel::OnLogText(int source, std::string_view text, int64_t now_ms,
                                  std::vector<LogEvent>& events) {
  Source& s = SourceAt(source);
  feeding_now_ms_ = now_ms;
  feeding_arrival_ = static_cast<size_t>(source) < stamp_on_arrival_.size() &&
                     stamp_on_arrival_[static_cast<size_t>(source)];
  feeding_events_ = &events;
  // Feed whole lines only ('\n', or '\r' of a progress bar redraw); keep the rest for later.
  s.pending.append(text);
  size_t cut = s.pending.find_last_of("\r\n");
  if (cut != std::string::npos) {
    s.stream->Feed(std::string_view(s.pending).substr(0, cut + 1));
    s.pending.erase(0, cut + 1);
  }
  if (s.pending.size() > (1u << 20)) {  // a runaway line: hand it over, the stream caps it
    s.stream->Feed(s.pending);
    s.pending.clear();
  }
  feeding_events_ = nullptr;
  SyncEngine();
}

void RulesStartupModel::OnSourceEnd(int source, int64_t now_ms, std::vector<LogEvent>& events) {
  Source& s = SourceAt(source);
  feeding_now_ms_ = now_ms;
  feeding_events_ = &events;
  if (!s.pending.empty()) s.stream->Feed(s.pending);
  s.pending.clear();
  s.stream->Finish();
  feeding_events_ = nullptr;
}

void RulesStartupModel::OnSample(const Sample& sample) { tracker_.OnSample(sample); }

void RulesStartupModel::OnUnitEvent(const UnitEvent& event, int64_t now_ms,
                                    std::vector<LogEvent>& events) {
  UnitEvent e = event;
  if (!e.time_ms) e.time_ms = now_ms;  // journal times are UTC already: no zone shift
  tracker_.OnUnitEvent(e);
  // For the sinks: what systemd said, as the log event it amounts to.
  LogEvent l;
  l.time_ms = e.time_ms;
  l.text = e.text;
  switch (e.kind) {
    case UnitEvent::Kind::kStarting:
      l.kind = LogEvent::Kind::kAttemptStart;
      l.rule_id = "systemd.starting";
      break;
    case UnitEvent::Kind::kRestartScheduled:
      l.kind = LogEvent::Kind::kAttemptStart;
      l.rule_id = "systemd.restart_scheduled";
      break;
    case UnitEvent::Kind::kProcessExited:
      l.kind = e.clean ? LogEvent::Kind::kInfo : LogEvent::Kind::kFatal;
      l.rule_id = "systemd.process_exited";
      break;
    case UnitEvent::Kind::kFailed:
      l.kind = LogEvent::Kind::kFatal;
      l.rule_id = "systemd.failed";
      break;
    case UnitEvent::Kind::kOomKilled:
      l.kind = LogEvent::Kind::kError;
      l.rule_id = "systemd.oom_killed";
      break;
  }
  events.push_back(std::move(l));
}

Verdict RulesStartupModel::Evaluate(int64_t now_ms) {
  JudgeOptions o;
  o.now_ms = now_ms;
  o.stall_after_s = config_.stall_after_s;
  o.live = true;
  Verdict v = judge_.Evaluate(tracker_.state(), o);
  return v;
}

}  // namespace spinup
