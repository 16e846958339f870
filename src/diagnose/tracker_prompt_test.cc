// A shell prompt that runs the server (`$ vllm serve ...`) starts an attempt only once that start
// prints something: the command pasted after a log, to say how it was run, starts nothing.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "diagnose/tracker.h"

namespace spinup {
namespace {

constexpr int64_t kT0 = 1773057600000;  // 2026-03-09 12:00:00

LogEvent Line(LogEvent::Kind kind, std::string rule, std::optional<int64_t> t,
              std::optional<Phase> phase = std::nullopt) {
  LogEvent e;
  e.kind = kind;
  e.rule_id = std::move(rule);
  e.time_ms = t;
  e.phase = phase;
  e.text = "line";
  return e;
}

LogEvent Prompt() { return Line(LogEvent::Kind::kAttemptStart, "manual.shell_prompt", {}); }

// A start that loaded weights and died.
void CrashedStart(StartupTracker& t, int64_t at) {
  t.OnLogEvent(Line(LogEvent::Kind::kAttemptStart, "vllm.banner", at));
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "vllm.load", at + 1000, Phase::kWeightLoad));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "vllm.died", at + 2000));
}

TEST(TrackerPrompt, ACommandAfterTheLogStartsNothing) {
  StartupTracker t;
  CrashedStart(t, kT0);
  t.OnLogEvent(Prompt());
  t.OnLogEvent(Line(LogEvent::Kind::kInfo, "generic.env_fact", {}));  // pip list, nvidia-smi
  ASSERT_EQ(t.state().attempts.size(), 1u);
  EXPECT_TRUE(t.state().attempts.back().crashed);
  // Its hit is nobody's: the crashed start's own rule hits are unchanged.
  EXPECT_EQ(t.state().attempts.back().hits.count("manual.shell_prompt"), 0u);
}

TEST(TrackerPrompt, APromptThatPrintsIsAStartByHand) {
  StartupTracker t;
  CrashedStart(t, kT0);
  t.OnLogEvent(Prompt());
  t.OnLogEvent(Prompt());  // typed twice: the last one ran
  CrashedStart(t, kT0 + 60000);
  ASSERT_EQ(t.state().attempts.size(), 2u);
  EXPECT_TRUE(t.state().attempts.back().manual);
  EXPECT_EQ(t.state().attempts.back().banner_engine, "vllm");
}

// A prompt, an excerpt from the middle of a run, then a container banner stamped before the lines
// already seen: the run's beginning pasted after it, not a restart.
TEST(TrackerPrompt, AnEarlierBannerAfterAPromptedExcerptIsTheSameStart) {
  StartupTracker t;
  t.OnLogEvent(Prompt());
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "vllm.load", kT0 + 60000, Phase::kWeightLoad));
  t.OnLogEvent(Line(LogEvent::Kind::kAttemptStart, "generic.cuda_banner", {}));
  t.OnLogEvent(Line(LogEvent::Kind::kInfo, "vllm.config", kT0));
  EXPECT_EQ(t.state().attempts.size(), 1u);
}

}  // namespace
}  // namespace spinup
