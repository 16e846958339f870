#include "live/ready_gate.h"

#include <fmt/format.h>

#include <mutex>

namespace spinup {

Result<ProbeMode> ParseProbeMode(std::string_view text) {
  if (text == "generate") return ProbeMode::kGenerate;
  if (text == "health") return ProbeMode::kHealth;
  if (text == "none") return ProbeMode::kNone;
  if (text == "auto" || text.empty()) return ProbeMode::kAuto;
  return Status::InvalidArgument("--probe: expected generate, health or none, got '" +
                                 std::string(text) + "'");
}

namespace {

class ThreadRunner final : public FirstRequestRunner {
 public:
  ~ThreadRunner() override { Stop(); }
  void Start(const proc::FirstRequestOptions& options) override {
    Stop();
    {
      std::lock_guard lock(mu_);
      answer_.reset();
    }
    probe_ = std::make_unique<proc::FirstRequestProbe>(options);
    try {
      thread_ = std::thread([this, p = probe_.get()] {
        auto a = p->Run();
        std::lock_guard lock(mu_);
        answer_ = std::move(a);
      });
    } catch (const std::system_error& e) {
      std::lock_guard lock(mu_);
      answer_ = proc::FirstRequestAnswer{};
      answer_->error = std::string("cannot start the probe's thread: ") + e.what();
    }
  }
  std::optional<proc::FirstRequestAnswer> Poll() override {
    std::lock_guard lock(mu_);
    return answer_;
  }
  void Stop() override {
    if (probe_) probe_->Stop();
    if (thread_.joinable()) thread_.join();
    probe_.reset();
  }

 private:
  std::mutex mu_;
  std::optional<proc::FirstRequestAnswer> answer_;
  std::unique_ptr<proc::FirstRequestProbe> probe_;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<FirstRequestRunner> MakeThreadFirstRequestRunner() {
  return std::make_unique<ThreadRunner>();
}

void ApplyFirstRequest(Verdict& v, const std::optional<proc::FirstRequestAnswer>& a,
                       double waited_s) {
  if (a && a->served) {
    v.first_request_seconds = a->seconds;
    v.evidence.push_back(fmt::format("the first request ({}, one token) was served in {:.2f} s",
                                     a->request, a->seconds));
    return;
  }
  v.phase = Phase::kWarmup;
  v.phase_seconds = waited_s;
  v.budget_seconds.reset();
  if (!a) {
    v.state = State::kProgressing;
    v.headline = fmt::format(
        "WARMUP: the health check passed; waiting {:.0f} s so far for the first request (one "
        "token) to be served",
        waited_s);
    v.evidence.push_back("ready means serving (--probe generate): one generation must succeed");
    return;
  }
  if (a->answered) {
    v.state = State::kCrashed;
    v.headline = "CRASHED in warmup: the first request failed: " + a->error;
    v.evidence.push_back(a->error);
    if (!a->body.empty()) v.errors.push_back(a->request + " answered: " + a->body);
  } else {
    v.state = State::kStalled;
    v.headline =
        "STALLED in warmup: the health check passed but the first request got no answer (" +
        a->error + ")";
    v.evidence.push_back(a->error);
  }
}

ReadyGate::ReadyGate(ProbeMode mode, proc::FirstRequestOptions base, std::string engine,
                     std::unique_ptr<FirstRequestRunner> runner)
    : mode_(mode), base_(std::move(base)), engine_(std::move(engine)), runner_(std::move(runner)) {}

ReadyGate::~ReadyGate() {
  if (runner_) runner_->Stop();
}

bool ReadyGate::Wanted(const Verdict& v) const {
  if (base_.port == 0 || !runner_) return false;
  if (mode_ == ProbeMode::kGenerate) return true;
  return mode_ == ProbeMode::kAuto && !(engine_.empty() ? v.engine : engine_).empty();
}

void ReadyGate::Apply(Verdict& v, int64_t now_ms) {
  if (!Wanted(v)) return;
  if (v.attempts != attempt_) {  // a restart: its own first request
    if (started_) runner_->Stop();
    attempt_ = v.attempts;
    started_ = false;
    answer_.reset();
  }
  if (started_ && !answer_ && !finished_) answer_ = runner_->Poll();
  // A failed first request stays the verdict of this attempt; a served one lets READY through.
  const bool failed = answer_ && !answer_->served;
  if (v.state != State::kReady && !failed) return;
  if (!started_ && !finished_) {
    proc::FirstRequestOptions o = base_;
    o.engine = engine_.empty() ? v.engine : engine_;
    runner_->Start(o);
    started_ = true;
    started_ms_ = now_ms;
    answer_ = runner_->Poll();
  }
  ApplyFirstRequest(v, answer_, static_cast<double>(now_ms - started_ms_) / 1000.0);
}

void ReadyGate::Finish(Verdict& v, int64_t now_ms) {
  // The watch ends: an answer that is not there now will not be waited for.
  if (started_ && !answer_) answer_ = runner_->Poll();
  if (runner_) runner_->Stop();
  finished_ = true;
  Apply(v, now_ms);
}

}  // namespace spinup
