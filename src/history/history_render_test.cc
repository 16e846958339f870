#include "history/history_render.h"

#include <gtest/gtest.h>

#include "history/history_test_util.h"

namespace spinup {
namespace {

using testing::MakeStart;

TEST(HistoryRenderTest, SparklineScalesBetweenMinAndMax) {
  EXPECT_EQ(Sparkline({1, 2, 3}), "▁▅█");
  EXPECT_EQ(Sparkline({5, 5}), "▄▄");
  EXPECT_EQ(Sparkline({}), "");
}

TEST(HistoryRenderTest, ListShowsPhasesMediansAndImports) {
  std::vector<StartRecord> starts;
  for (int i = 3; i >= 1; --i) {
    starts.push_back(MakeStart(i, i * 1'000'000, {{Phase::kWeightLoad, 100.0 * i}}));
  }
  starts[0].imported = true;
  std::string text = HistoryListText(starts);
  EXPECT_NE(text.find("ready*"), std::string::npos) << text;
  EXPECT_NE(text.find("weight_load       median 3 min 20 s  trend ▁▅█"), std::string::npos) << text;
  EXPECT_NE(text.find("imported from a pasted log"), std::string::npos);
  auto j = HistoryListJson(starts);
  EXPECT_EQ(j["starts"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["median_phase_seconds"]["weight_load"].get<double>(), 200);
  EXPECT_EQ(HistoryListText({}), "no starts recorded\n");
}

TEST(HistoryRenderTest, ReportDataRebuildsTheTimeline) {
  StartRecord r = MakeStart(7, 1'000'000, {{Phase::kDistributedInit, 2}, {Phase::kWeightLoad, 9}});
  ReportData d = StartReportData(r);
  ASSERT_TRUE(d.verdict);
  EXPECT_EQ(d.verdict->state, State::kReady);
  EXPECT_EQ(d.verdict->timeline.size(), r.phases.size());
  EXPECT_EQ(d.first_ms, r.started_ms);
  EXPECT_NE(RenderHtmlReport(d).find("weight_load"), std::string::npos);
}

}  // namespace
}  // namespace spinup
