// systemd's facts about a unit (from the journal) through the watch: the Watcher hands them to the
// model between the lines they came between and puts the restart counter on every Sample (so the
// spinup_restarts_total metric sees it); the tracker splits attempts on them and the judge calls
// the loop crash_loop, even when no restart printed a launch banner.
#include <gtest/gtest.h>

#include "live/clock.h"
#include "live/startup_model.h"
#include "live/watcher.h"
#include "live_fakes.h"
#include "sink/metrics_exposition.h"
#include "sink/metrics_sink.h"

namespace spinup {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000;

UnitEvent Restart(int n) {
  UnitEvent e;
  e.kind = UnitEvent::Kind::kRestartScheduled;
  e.unit = "sglang.service";
  e.restarts = n;
  e.text =
      "sglang.service: Scheduled restart job, restart counter is at " + std::to_string(n) + ".";
  return e;
}

UnitEvent Exited(int status) {
  UnitEvent e;
  e.kind = UnitEvent::Kind::kProcessExited;
  e.unit = "sglang.service";
  e.exit_code = "exited";
  e.exit_status = status;
  e.clean = status == 0;
  e.text = "sglang.service: Main process exited, code=exited, status=" + std::to_string(status) +
           "/FAILURE";
  return e;
}

// A journal-like source: text with the manager's events placed in it.
class UnitSource : public LogSource {
 public:
  std::string Read() override {
    placed_ = std::exchange(next_events, {});
    return std::exchange(next_text, std::string());
  }
  std::vector<PlacedUnitEvent> TakeUnitEvents() override { return std::exchange(placed_, {}); }
  std::string Name() const override { return "unit"; }
  std::string next_text;
  std::vector<PlacedUnitEvent> next_events;

 private:
  std::vector<PlacedUnitEvent> placed_;
};

// Records lines and unit events in the order the model receives them.
class OrderModel : public testing::KeywordModel {
 public:
  void OnLogText(int source, std::string_view text, int64_t now_ms,
                 std::vector<LogEvent>& events) override {
    KeywordModel::OnLogText(source, text, now_ms, events);
    order.push_back("text:" + std::string(text));
  }
  void OnUnitEvent(const UnitEvent& e, int64_t, std::vector<LogEvent>&) override {
    order.push_back("unit:" + std::to_string(e.restarts));
  }
  std::vector<std::string> order;
};

class OneProcess : public SampleSource {
 public:
  Sample Take(int64_t now_ms) override {
    Sample s;
    s.time_ms = now_ms;
    s.processes.push_back(ProcessSample{});
    return s;
  }
};

TEST(UnitRestartsTest, WatcherFeedsEventsBetweenTheirLinesAndCountsRestartsOnSamples) {
  FakeClock clock(kT0);
  OrderModel model;
  OneProcess sampler;
  testing::RecordingSink rec;
  MetricsSink metrics({"job", "host", "test"}, [&] { return clock.NowMs(); });
  Watcher w({}, clock, model, &sampler, {&rec, &metrics});
  auto src = std::make_unique<UnitSource>();
  UnitSource* s = src.get();
  w.AddSource(std::move(src));

  s->next_text = "a\nb\nc\n";
  s->next_events = {{2, Restart(1)}, {4, Restart(2)}, {6, Restart(3)}};
  EXPECT_TRUE(w.Pump());  // a restart is decisive: judge at once
  EXPECT_EQ(model.order, (std::vector<std::string>{"text:a\n", "unit:1", "text:b\n", "unit:2",
                                                   "text:c\n", "unit:3"}));
  w.Tick();
  ASSERT_FALSE(rec.samples.empty());

  // An event past the text (bad offset) still comes after it.
  s->next_text = "d\n";
  s->next_events = {{999, Restart(0)}, {999, Restart(1)}};
  w.Pump();
  EXPECT_EQ(model.order.back(), "unit:1");
  EXPECT_EQ(model.order[model.order.size() - 3], "text:d\n");
}

// Restarts are folded once, in the tracker: the verdict carries them and the metrics render that.
TEST(UnitRestartsTest, RestartsAreCountedOnceFromTheVerdict) {
  FakeClock clock(kT0);
  StartupModelConfig c;
  c.session.reference_year = 2026;
  auto model = SessionStartupModel::Create(c);
  ASSERT_TRUE(model.ok());
  OneProcess sampler;
  MetricsSink metrics({"job", "host", "test"}, [&] { return clock.NowMs(); });
  Watcher w({}, clock, **model, &sampler, {&metrics});
  auto src = std::make_unique<UnitSource>();
  UnitSource* s = src.get();
  w.AddSource(std::move(src));
  s->next_text = "a\nb\nc\n";
  s->next_events = {{2, Restart(1)}, {4, Restart(2)}, {6, Restart(3)}};
  w.Pump();
  w.Tick();
  EXPECT_EQ(w.last_verdict().restarts, 3);
  auto parsed = ParseExposition(metrics.Render());
  ASSERT_TRUE(parsed.ok());
  ASSERT_NE(parsed->Find("spinup_restarts_total"), nullptr);
  EXPECT_EQ(parsed->Find("spinup_restarts_total")->value, 3);
  // A counter without a number counts one more restart; a lower counter (the unit was restarted
  // by hand) does not lower the count, and that restart is still a new attempt: five in all.
  s->next_text = "d\n";
  s->next_events = {{999, Restart(0)}, {999, Restart(1)}};
  w.Pump();
  w.Tick();
  EXPECT_EQ(w.last_verdict().restarts, 5);
  EXPECT_EQ(w.last_verdict().attempts, 6);
}

class ModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StartupModelConfig c;
    c.session.reference_year = 2026;
    auto m = SessionStartupModel::Create(c);
    ASSERT_TRUE(m.ok());
    model_ = std::move(*m);
  }
  void Lines(const std::string& text) {
    std::vector<LogEvent> ev;
    model_->OnLogText(0, text, now_, ev);
    now_ += 100;
  }
  void Unit(UnitEvent e) {
    std::vector<LogEvent> ev;
    e.time_ms = now_;
    model_->OnUnitEvent(e, now_, ev);
    ASSERT_EQ(ev.size(), 1u);  // one event for the sinks
    now_ += 100;
  }
  std::unique_ptr<SessionStartupModel> model_;
  int64_t now_ = kT0;
};

const char* const kImportTraceback =
    "Traceback (most recent call last):\n"
    "  File \"/opt/sglang/launch_server.py\", line 6, in <module>\n"
    "ImportError: libcudart.so.12: cannot open shared object file\n";

TEST_F(ModelTest, RestartsWithOnlyATracebackAreACrashLoop) {
  Lines(kImportTraceback);
  // Live, a traceback alone is not yet a crash (the process may still be up)...
  EXPECT_NE(model_->Evaluate(now_).state, State::kCrashed);
  Unit(Exited(1));
  Verdict v = model_->Evaluate(now_);
  EXPECT_EQ(v.state, State::kCrashed);  // ...systemd's exit entry makes it one
  for (int n = 1; n <= 3; ++n) {
    Unit(Restart(n));
    Lines(kImportTraceback);
    Unit(Exited(1));
  }
  v = model_->Evaluate(now_);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_EQ(v.attempts, 4);
  EXPECT_EQ(model_->session().state().restarts, 3);
  EXPECT_EQ(model_->session().state().crashed_attempts, 4);
  EXPECT_NE(v.headline.find("ImportError"), std::string::npos) << v.headline;
}

TEST_F(ModelTest, ARestartWithoutAnExitEntryStillEndsTheAttempt) {
  Lines(kImportTraceback);
  Unit(Restart(1));
  EXPECT_EQ(model_->session().state().crashed_attempts, 1);
  EXPECT_EQ(model_->session().state().total_attempts, 2);
  // One restart and a running second attempt: not a loop (yet).
  Verdict v = model_->Evaluate(now_);
  EXPECT_NE(v.state, State::kCrashLoop) << v.headline;
  Unit(Restart(2));
  v = model_->Evaluate(now_);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
  EXPECT_NE(v.headline.find("attempt 3 is scheduled"), std::string::npos) << v.headline;
}

TEST_F(ModelTest, CleanExitIsNotACrash) {
  Lines("Load weight begin. avail mem=78.00 GB\n");
  Unit(Exited(0));
  EXPECT_EQ(model_->session().state().crashed_attempts, 0);
}

TEST_F(ModelTest, SampleRestartsAloneMakeACrashedStartALoop) {
  // A sampler that knows systemd's counter (NRestarts) but no journal: the judge still counts.
  Lines("Load weight begin. avail mem=78.00 GB\n");
  Sample s;
  s.time_ms = now_;
  s.restarts = 2;
  s.exit_status = 1;
  model_->OnSample(s);
  Verdict v = model_->Evaluate(now_);
  EXPECT_EQ(v.state, State::kCrashLoop) << v.headline;
}

}  // namespace
}  // namespace spinup
