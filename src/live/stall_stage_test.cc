#include "live/stall_stage.h"

#include <gtest/gtest.h>

#include <atomic>

#include "sink/html_stall.h"
#include "sink/json_codec.h"
#include "sink/live_format.h"
#include "sink/metrics_sink.h"

namespace spinup {
namespace {

Verdict Stalled(int attempts = 1) {
  Verdict v;
  v.state = State::kStalled;
  v.phase = Phase::kDistributedInit;
  v.attempts = attempts;
  v.ranks = {{"TP0", Phase::kWeightLoad, 1000}, {"TP1", Phase::kDistributedInit, 900}};
  v.evidence = {"no new log line for 5 min"};
  return v;
}

TEST(StallStage, GathersOnceWhenTheStateFirstBecomesStalled) {
  std::atomic<int> calls{0};
  std::vector<proc::GatherTarget> seen;
  StallStage stage({}, [&](const std::vector<proc::GatherTarget>& targets,
                           const std::vector<RankPhase>& ranks, const proc::GatherOptions&) {
    ++calls;
    seen = targets;
    StallEvidence e;
    e.behind = ranks.size() == 2 ? "TP1 has not left distributed_init" : "?";
    return e;
  });
  Sample s;
  s.gpu_available = true;
  s.gpus.push_back({});
  s.gpus.back().used_bytes = 42;
  ProcessSample p;
  p.pid = 7;
  p.cmdline = "sglang::scheduler_TP1";
  s.processes.push_back(p);
  stage.OnSample(s);

  Verdict progressing = Stalled();
  progressing.state = State::kProgressing;
  stage.Apply(progressing, 0);
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(progressing.stall_evidence);

  Verdict v = Stalled();
  stage.Finish(v, 10);  // waits for the gathering: the final verdict carries it
  EXPECT_EQ(calls, 1);
  ASSERT_TRUE(v.stall_evidence);
  EXPECT_EQ(v.evidence.front(), "TP1 has not left distributed_init");
  ASSERT_EQ(v.stall_evidence->gpus.size(), 1u);
  EXPECT_EQ(v.stall_evidence->gpus[0].used_bytes, 42u);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rank, "TP1");
  v = Stalled();
  stage.Apply(v, 20);
  EXPECT_EQ(calls, 1);  // once per attempt
  EXPECT_TRUE(v.stall_evidence);
}

TEST(StallEvidence, RoundTripsThroughJsonAndRenders) {
  Verdict v = Stalled();
  v.first_request_seconds = 0.5;
  StallEvidence e;
  e.time_ms = 123;
  e.behind = "TP1 has not left distributed_init; TP0 is waiting in all-reduce";
  RankStack r;
  r.rank = "TP0";
  r.pid = 7;
  r.source = "py-spy";
  r.stack = "Thread 7 (idle): \"MainThread\"\n    all_reduce (x.py:1)\n<script>";
  r.waiting_in = "all-reduce";
  r.wait_channels = {{"futex_wait_queue", 3}};
  r.notes = {"n"};
  e.ranks.push_back(r);
  e.gpus.push_back({});
  e.gather_seconds = 1.5;
  v.stall_evidence = e;
  v.warm = WarmStatus{"warming", 1, 2, 3, 4.0, "note"};
  auto back = VerdictFromJson(ToJson(v));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->stall_evidence);
  EXPECT_EQ(back->stall_evidence->behind, e.behind);
  ASSERT_EQ(back->stall_evidence->ranks.size(), 1u);
  EXPECT_EQ(back->stall_evidence->ranks[0].stack, r.stack);
  EXPECT_EQ(back->stall_evidence->ranks[0].wait_channels, r.wait_channels);
  EXPECT_EQ(back->stall_evidence->gpus.size(), 1u);
  EXPECT_EQ(back->first_request_seconds, 0.5);
  ASSERT_TRUE(back->warm);
  EXPECT_EQ(back->warm->note, "note");
  EXPECT_EQ(back->warm->checkpoint_bytes, 3u);

  std::string html = StallEvidenceHtml(e);
  EXPECT_NE(html.find("TP1 has not left distributed_init"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);  // escaped
  auto lines = StallEvidenceLines(e, 1);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "behind: " + e.behind);
  EXPECT_NE(lines[1].find("TP0 (pid 7): py-spy stack, waiting in all-reduce; threads: 3 in "
                          "futex_wait_queue"),
            std::string::npos)
      << lines[1];
}

TEST(LiveOnlyVerdictFields, ReachTheMetrics) {
  MetricsSink sink({"job", "host", "v"}, [] { return int64_t{0}; });
  Verdict v;
  v.state = State::kReady;
  sink.OnVerdict(v);
  std::string text = sink.Render();
  EXPECT_EQ(text.find("spinup_first_request_seconds"), std::string::npos);  // absent until served
  v.first_request_seconds = 0.25;
  v.warm = WarmStatus{"done", 1000, 1000, 1000, 1.0, ""};
  sink.OnVerdict(v);
  text = sink.Render();
  EXPECT_NE(text.find("spinup_first_request_seconds{model=\"job\",host=\"host\"} 0.25"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("spinup_warm_bytes{model=\"job\",host=\"host\"} 1000"), std::string::npos);
}

}  // namespace
}  // namespace spinup
