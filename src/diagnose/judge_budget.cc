// A phase's budget for this start: the engine's from the rules, grown with the checkpoint's size,
// with a lazily compiling phase's, or learned from earlier starts (docs/rules.md, "Budgets").
#include <algorithm>
#include <optional>

#include "diagnose/judge_steps.h"

namespace spinup::judge {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// The time the attempt's last progress, a bar's reading short of its end, said was left at its own
// rate ("6718/16384 [01:20<01:55"): elapsed × remaining / done.
std::optional<double> LastBarTimeLeft(const AttemptFacts& a) {
  if (!a.last_progress_ms) return std::nullopt;
  for (const BarState& s : a.bars) {
    if (s.last_advance_ms != a.last_progress_ms || !s.elapsed_s || s.n <= 0 || s.n >= s.total) {
      continue;
    }
    return *s.elapsed_s * static_cast<double>(s.total - s.n) / static_cast<double>(s.n);
  }
  return std::nullopt;
}

}  // namespace

PhaseBudget Context::Budget(Phase p) const {
  PhaseBudget b = rules.Budget(st.engine, p);
  std::optional<uint64_t> ckpt = opt.checkpoint_bytes ? opt.checkpoint_bytes : st.checkpoint_bytes;
  if (!ckpt) ckpt = st.estimated_checkpoint_bytes;
  // A fixed part (the process, the model's set-up) and the reading of every byte.
  if ((p == Phase::kDownload || p == Phase::kWeightLoad) && ckpt)
    b.normal_s += *ckpt / kGiB * b.per_gib_s;
  if (p == Phase::kWeightLoad && ckpt) {
    // A loader with a bar is judged from its last tick (a shard's worth); one that prints no
    // progress of its own, on the whole load, until a peer loaded the same checkpoint.
    const bool bar = attempt != nullptr &&
                     std::any_of(attempt->bars.begin(), attempt->bars.end(),
                                 [](const BarState& s) { return s.phase == Phase::kWeightLoad; });
    if (!bar && !SignalHolds(*this, "rank_behind")) {
      b.stall_s = std::max(b.stall_s, *ckpt / kGiB * b.stall_per_gib_s);
    }
  }
  // A later phase that compiles lazily (SGLang's DeepGEMM JIT inside the capture, "typically 10-20
  // mins" cold) may take what compiling takes; but where the JIT's own bar was the last thing
  // printed, silence long past the time it said was left is no JIT at work.
  if (attempt != nullptr && attempt->compile_hint_ms && p > Phase::kCompile &&
      Order(p) > Order(Phase::kCompile)) {
    const std::optional<int64_t> since = PhaseSince(*attempt, p);
    if (since && *attempt->compile_hint_ms >= *since) {
      const PhaseBudget compile = rules.Budget(st.engine, Phase::kCompile);
      double stall_s = compile.stall_s;
      if (const auto left = LastBarTimeLeft(*attempt)) {
        stall_s = std::min(stall_s, *left + std::max(300.0, 2 * *left));
      }
      b.normal_s = std::max(b.normal_s, compile.normal_s);
      b.stall_s = std::max(b.stall_s, stall_s);
    }
  }
  // The same build judged as compile (AttemptFacts::jit_inside): its bar's time left holds too.
  if (attempt != nullptr && p == Phase::kCompile && attempt->jit_inside) {
    if (const auto left = LastBarTimeLeft(*attempt))
      b.stall_s = std::min(b.stall_s, *left + std::max(300.0, 2 * *left));
  }
  if (opt.learned != nullptr) {
    if (auto it = opt.learned->find(p); it != opt.learned->end()) {
      b.normal_s = it->second.slow_s;
      b.stall_s = it->second.stall_s;
    }
  }
  if (opt.stall_after_s) b.stall_s = *opt.stall_after_s;
  return b;
}

}  // namespace spinup::judge
