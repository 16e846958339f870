#include <gtest/gtest.h>

#include "spinup/startup.h"

namespace spinup {
namespace {

TEST(PhaseNames, RoundTripEveryPhase) {
  for (int i = 0; i < kPhaseCount; ++i) {
    auto phase = static_cast<Phase>(i);
    auto parsed = ParsePhase(PhaseName(phase));
    ASSERT_TRUE(parsed.has_value()) << PhaseName(phase);
    EXPECT_EQ(*parsed, phase);
  }
  EXPECT_EQ(PhaseName(Phase::kDistributedInit), "distributed_init");
  EXPECT_FALSE(ParsePhase("weights").has_value());
}

TEST(StateNames, RoundTrip) {
  EXPECT_EQ(StateName(State::kCrashLoop), "crash_loop");
  EXPECT_EQ(*ParseState("stalled"), State::kStalled);
  EXPECT_FALSE(ParseState("hung").has_value());
}

}  // namespace
}  // namespace spinup
