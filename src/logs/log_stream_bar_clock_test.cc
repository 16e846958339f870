// A frozen progress bar's redraws: when its own clock says time went by (log_stream.h NewBarValue).
#include <gtest/gtest.h>

#include <vector>

#include "logs/log_stream.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

// A frozen bar redrawn at the same reading is no new reading, until its own clock has moved on by a
// minute: then the redraw is passed on (same n) so that its clock can date an untimed paste.
TEST(LogStream, FrozenBarIsPassedOnOnceItsClockMovesOn) {
  LogStream s(testing::BuiltinRules(), LogStreamOptions{});
  std::vector<LogEvent> progress;
  s.OnEvent([&](const LogEvent& e) {
    if (e.kind == LogEvent::Kind::kProgress) progress.push_back(e);
  });
  s.Feed(
      "model-00011-of-00030.safetensors:  38%|###8      | 1.77G/4.66G [00:21<08:12, 5.87MB/s]\n");
  s.Feed("model-00011-of-00030.safetensors:  38%|###8      | 1.77G/4.66G [00:50<?, 0.00B/s]\n");
  ASSERT_EQ(progress.size(), 1u);  // 29 s on its clock: a redraw
  s.Feed("model-00011-of-00030.safetensors:  38%|###8      | 1.77G/4.66G [27:18<?, 0.00B/s]\n");
  ASSERT_EQ(progress.size(), 2u);
  EXPECT_EQ(progress[1].progress_n, progress[0].progress_n);
  ASSERT_TRUE(progress[1].elapsed_seconds.has_value());
  EXPECT_DOUBLE_EQ(*progress[1].elapsed_seconds, 27 * 60 + 18);
  s.Feed("model-00011-of-00030.safetensors:  38%|###8      | 1.77G/4.66G [27:40<?, 0.00B/s]\n");
  EXPECT_EQ(progress.size(), 2u);  // 22 s more: a redraw again
}

}  // namespace
}  // namespace spinup
