#include "live/stall_stage.h"

namespace spinup {

void AttachStallEvidence(Verdict& v, const StallEvidence& e) {
  if (!e.behind.empty()) v.evidence.insert(v.evidence.begin(), e.behind);
  v.stall_evidence = e;
}

StallStage::StallStage(proc::GatherOptions options, Gather gather)
    : options_(std::move(options)), gather_(std::move(gather)) {
  if (!gather_) gather_ = proc::GatherStallEvidence;
  options_.cancelled = [this] { return cancel_.load(); };
}

StallStage::~StallStage() {
  cancel_ = true;
  Join();
}

void StallStage::Join() {
  if (thread_.joinable()) thread_.join();
}

void StallStage::OnSample(const Sample& sample) { last_sample_ = sample; }

void StallStage::Apply(Verdict& v, int64_t now_ms) {
  if (v.attempts != attempt_) {  // a restart: a stall of the new attempt is gathered again
    attempt_ = v.attempts;
    if (triggered_) {
      cancel_ = true;
      Join();
      cancel_ = false;
      std::lock_guard lock(mu_);
      evidence_.reset();
    }
    triggered_ = false;
  }
  if (v.state == State::kStalled && !triggered_) {
    triggered_ = true;
    std::vector<proc::GatherTarget> targets;
    Sample sample = last_sample_.value_or(Sample{});
    targets = proc::StallTargets(sample);
    auto run = [this, targets, ranks = v.ranks, sample, now_ms] {
      StallEvidence e = gather_(targets, ranks, options_);
      e.time_ms = now_ms;
      // The GPUs as NVML saw them in the sample that showed the stall.
      e.gpu_available = sample.gpu_available;
      e.gpus = sample.gpus;
      if (!sample.gpu_available && !sample.gpu_message.empty())
        e.notes.push_back(sample.gpu_message);
      std::lock_guard lock(mu_);
      evidence_ = std::move(e);
    };
    try {
      thread_ = std::thread(run);
    } catch (const std::system_error&) {
      run();  // no thread to spare: gather here (bounded by total_limit)
    }
  }
  if (v.state != State::kStalled) return;
  std::lock_guard lock(mu_);
  if (evidence_) AttachStallEvidence(v, *evidence_);
}

void StallStage::Finish(Verdict& v, int64_t now_ms) {
  Verdict scratch = v;
  Apply(scratch, now_ms);  // a stall first seen now is gathered too
  Join();
  Apply(v, now_ms);
}

}  // namespace spinup
