// A phase's budget for this start (judge_budget.cc): a JIT inside the capture may take what a
// compile takes, but not silence long past the time its own bar said was left.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

// SGLang's capture on one rank, DeepGEMM's cold JIT inside it, its warm-up bar at `bar` last, and
// the writer's `date` `quiet_min` minutes after the capture began.
std::string JitInsideCapture(const std::string& bar, int quiet_min) {
  std::string log =
      "[2025-06-23 14:02:11 TP0] Init torch distributed begin.\n"
      "[2025-06-23 14:02:14 TP0] Load weight begin. avail mem=78.20 GB\n"
      "[2025-06-23 14:04:47 TP0] Load weight end. type=DeepseekV3ForCausalLM, avail mem=8.1 GB\n"
      "[2025-06-23 14:04:48 TP0] Memory pool end. avail mem=12.86 GB\n"
      "[2025-06-23 14:04:49 TP0] Capture cuda graph begin. This can take up to several minutes. "
      "avail mem=12.17 GB\n"
      "[2025-06-23 14:04:50 TP0] Entering DeepGEMM JIT Pre-Compile session. It may take a long "
      "time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`.\n"
      "[2025-06-23 14:08:03 TP0] Required memory for warmup: 0.1250GB, Available memory: "
      "12.05GB\n" +
      bar + "\n\n$ date\n";
  char date[64];
  std::snprintf(date, sizeof date, "Mon Jun 23 %02d:%02d:40 UTC 2025\n", 14 + (4 + quiet_min) / 60,
                (4 + quiet_min) % 60);
  return log + date;
}

TEST(JudgeBudget, SilenceLongPastAJitBarsTimeLeftIsAStall) {
  // 41% after 80 s: under two minutes were left, then 25 minutes of nothing.
  const Verdict v = testing::ExplainLog(JitInsideCapture(
      "DeepGEMM warmup:  41%|████      | 6718/16384 [01:20<01:55, 83.74it/s]", 29));
  EXPECT_EQ(v.state, State::kStalled) << v.headline;
  // The build inside the capture is where it stopped (AttemptFacts::jit_inside).
  EXPECT_EQ(v.phase, Phase::kCompile) << v.headline;
}

TEST(JudgeBudget, AJitBarWithLongToGoKeepsTheCompilesBudget) {
  // 2% after 80 s: over an hour was left at that rate; 25 minutes of quiet is within it.
  const Verdict v = testing::ExplainLog(JitInsideCapture(
      "DeepGEMM warmup:   2%|▏         | 328/16384 [01:20<1:05:20, 4.10it/s]", 29));
  EXPECT_EQ(v.state, State::kInProgress) << v.headline;
}

}  // namespace
}  // namespace spinup
