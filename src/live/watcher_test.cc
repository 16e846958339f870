#include "live/watcher.h"

#include "live/startup_model.h"

#include <gtest/gtest.h>

#include "live_fakes.h"

namespace spinup {
namespace {

using testing::KeywordModel;
using testing::RecordingSink;
using testing::ScriptedSource;

class FakeSampler : public SampleSource {
 public:
  Sample Take(int64_t now_ms) override {
    Sample s;
    s.time_ms = now_ms;
    ProcessSample p;
    p.pid = 42;
    p.cpu_seconds = cpu;
    s.processes.push_back(p);
    s.checkpoint_bytes = 1000;
    s.checkpoint_resident_bytes = resident;
    return s;
  }
  bool Gone() const override { return gone; }
  double cpu = 0;
  uint64_t resident = 0;
  bool gone = false;
};

struct Rig {
  explicit Rig(WatchOptions o, int64_t stall_ms = 1000)
      : model(stall_ms), watcher(o, clock, model, &sampler, {&sink}) {
    auto s = std::make_unique<ScriptedSource>();
    source = s.get();
    watcher.AddSource(std::move(s));
  }
  FakeClock clock;
  KeywordModel model;
  FakeSampler sampler;
  RecordingSink sink;
  Watcher watcher;
  ScriptedSource* source = nullptr;
};

TEST(WatcherTest, LinesBecomeEventsAndReadyEndsTheWatch) {
  Rig rig({});
  rig.source->pending = "loading\npartial";
  EXPECT_FALSE(rig.watcher.Pump());
  EXPECT_EQ(rig.model.lines, std::vector<std::string>{"loading"});
  ASSERT_EQ(rig.sink.events.size(), 1u);
  EXPECT_FALSE(rig.watcher.Tick().has_value());
  rig.source->pending = " line\nserver READY\n";
  EXPECT_TRUE(rig.watcher.Pump());  // ready is decisive: evaluate at once
  auto end = rig.watcher.Evaluate();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->exit_code, 0);
  EXPECT_EQ(rig.model.lines.back(), "server READY");
  EXPECT_EQ(rig.model.lines[1], "partial line");
  rig.watcher.Finish(*end);
  EXPECT_TRUE(rig.sink.finished);
  EXPECT_EQ(rig.sink.final_verdict.state, State::kReady);
}

TEST(WatcherTest, DefaultStopsAtCrashButNotAtStall) {
  Rig rig({});
  rig.source->pending = "begin\n";
  rig.watcher.Pump();
  rig.clock.AdvanceMs(5000);
  auto end = rig.watcher.Tick();
  EXPECT_FALSE(end.has_value());
  EXPECT_EQ(rig.watcher.last_verdict().state, State::kStalled);
  rig.source->pending = "FATAL: CUDA out of memory\n";
  rig.watcher.Pump();
  end = rig.watcher.Evaluate();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->exit_code, 1);
}

TEST(WatcherTest, UntilVerdictStopsAtStalledWithExitThree) {
  WatchOptions o;
  o.until = Until::kVerdict;
  Rig rig(o);
  rig.source->pending = "begin\n";
  rig.watcher.Pump();
  EXPECT_FALSE(rig.watcher.Tick().has_value());
  rig.clock.AdvanceMs(600);
  rig.sampler.cpu = 1;  // CPU grew: progress, not stalled
  EXPECT_FALSE(rig.watcher.Tick().has_value());
  rig.clock.AdvanceMs(1500);
  auto end = rig.watcher.Tick();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->exit_code, 3);
  EXPECT_EQ(end->reason, "stalled");
}

TEST(WatcherTest, UntilReadyIgnoresCrash) {
  WatchOptions o;
  o.until = Until::kReady;
  Rig rig(o);
  rig.source->pending = "FATAL\n";
  rig.watcher.Pump();
  EXPECT_FALSE(rig.watcher.Evaluate().has_value());
}

TEST(WatcherTest, TimeoutEndsWithFour) {
  WatchOptions o;
  o.timeout_s = 2;
  Rig rig(o, 100000);
  rig.source->pending = "x\n";
  rig.watcher.Pump();
  EXPECT_FALSE(rig.watcher.Tick().has_value());
  rig.clock.AdvanceMs(2500);
  auto end = rig.watcher.Tick();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->exit_code, 4);
  EXPECT_EQ(end->reason, "timeout");
}

TEST(WatcherTest, OnceReportsInProgressAsFive) {
  WatchOptions o;
  o.once = true;
  Rig rig(o);
  rig.source->pending = "x\n";
  rig.watcher.Pump();
  auto end = rig.watcher.Tick();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->exit_code, 5);
}

TEST(WatcherTest, MeasuredProgressReachesTheVerdict) {
  // Folded once, by the session's tracker; the watcher only passes samples on.
  StartupModelConfig config;
  auto model = SessionStartupModel::Create(config);
  ASSERT_TRUE(model.ok());
  FakeClock clock;
  FakeSampler sampler;
  RecordingSink sink;
  Watcher watcher({}, clock, **model, &sampler, {&sink});
  sampler.resident = 100;
  watcher.Tick();
  clock.AdvanceMs(1000);
  sampler.resident = 300;
  watcher.Tick();
  const auto& p = watcher.last_verdict().progress;
  ASSERT_TRUE(p.bytes_done.has_value());
  EXPECT_EQ(*p.bytes_done, 200u);  // the 100 bytes cached before the start are not progress
  EXPECT_EQ(*p.bytes_total, 1000u);
  ASSERT_TRUE(p.bytes_per_second.has_value());
  EXPECT_DOUBLE_EQ(*p.bytes_per_second, 200.0);
  ASSERT_TRUE(p.eta_seconds.has_value());
  EXPECT_DOUBLE_EQ(*p.eta_seconds, 4.0);
  EXPECT_EQ(sink.samples.size(), 2u);
}

TEST(WatcherTest, SourceEndFlushesThePartialLine) {
  Rig rig({});
  rig.source->pending = "no newline at end";
  rig.source->done = true;
  rig.watcher.Pump();
  EXPECT_TRUE(rig.watcher.all_sources_done());
  EXPECT_EQ(rig.model.lines, std::vector<std::string>{"no newline at end"});
}

TEST(ExitCodeForStateTest, Documented) {
  EXPECT_EQ(ExitCodeForState(State::kReady), 0);
  EXPECT_EQ(ExitCodeForState(State::kCrashed), 1);
  EXPECT_EQ(ExitCodeForState(State::kCrashLoop), 1);
  EXPECT_EQ(ExitCodeForState(State::kStalled), 3);
  EXPECT_EQ(ExitCodeForState(State::kProgressing), 5);
  EXPECT_EQ(ExitCodeForState(State::kSlow), 5);
}

}  // namespace
}  // namespace spinup
