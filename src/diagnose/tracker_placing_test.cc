// Where the tracker places a start that an excerpt shows only in part: the phase that follows an
// ended one, and a rank that failed with its own phase lines cut.
#include <gtest/gtest.h>

#include "diagnose/tracker.h"

namespace spinup {
namespace {

constexpr int64_t kT0 = 1773057600000;  // 2026-03-09 12:00:00

LogEvent Event(LogEvent::Kind kind, std::optional<Phase> phase, std::string rank, std::string text,
               int64_t t = kT0) {
  LogEvent e;
  e.kind = kind;
  e.phase = phase;
  e.time_ms = t;
  e.rank = std::move(rank);
  e.rule_id = "test.rule";
  e.text = std::move(text);
  return e;
}

const PhaseSpan* OpenSpan(const AttemptFacts& a, const std::string& rank) {
  for (auto it = a.timeline.rbegin(); it != a.timeline.rend(); ++it) {
    if (it->rank == rank && !it->ended) return &*it;
  }
  return nullptr;
}

StartupTracker VllmTracker() {
  StartupTracker t;
  t.SetPhaseOrder({Phase::kLaunch, Phase::kDistributedInit, Phase::kWeightLoad, Phase::kCompile,
                   Phase::kKvCache, Phase::kCudaGraph, Phase::kHttpStart, Phase::kReady});
  return t;
}

// vLLM's "Model loading took ..." ends the load and also names what follows (the profile run):
// that phase has no line of its own yet, so it stays implicit.
TEST(TrackerPlacing, AHintOnTheEndLineKeepsTheNextPhaseImplicit) {
  StartupTracker t = VllmTracker();
  const std::string end = "Model loading took 15.27 GiB and 3.92 seconds";
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kWeightLoad, "TP0", "Starting to load"));
  auto e = Event(LogEvent::Kind::kPhaseEnd, Phase::kWeightLoad, "TP0", end, kT0 + 1000);
  e.elapsed_seconds = 3.92;
  t.OnLogEvent(e);
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kKvCache, "TP0", end, kT0 + 1000));
  const AttemptFacts& a = *t.state().current();
  ASSERT_NE(OpenSpan(a, "TP0"), nullptr);
  EXPECT_EQ(OpenSpan(a, "TP0")->phase, Phase::kKvCache);
  EXPECT_TRUE(OpenSpan(a, "TP0")->implicit);
  EXPECT_EQ(a.opened_after, Phase::kWeightLoad);
}

// The engine's ready line, then its HTTP server starting (vLLM's "init engine ... took", then
// "Starting vLLM API server"), then the server's own ready line: one HTTP start span between the
// engine and the server, and ready from the server's line on (a second engine-ready line in
// between, "Available routes are:", does not split it).
TEST(TrackerPlacing, AnHttpStartAfterTheEngineReadyLineIsNotReadyYet) {
  StartupTracker t = VllmTracker();
  auto ready = [&](int64_t at, std::string text) {
    auto e = Event(LogEvent::Kind::kReady, std::nullopt, "", std::move(text), at);
    e.engine_only = true;
    t.OnLogEvent(e);
  };
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kCudaGraph, "", "Capturing", kT0));
  ready(kT0 + 1000, "init engine (profile, create kv cache, warmup model) took 44.51 seconds");
  EXPECT_TRUE(t.state().current()->ready);
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kHttpStart, "", "Starting vLLM API server",
                     kT0 + 2000));
  EXPECT_FALSE(t.state().current()->ready);
  ready(kT0 + 3000, "Available routes are:");
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kHttpStart, "",
                     "Started server process [1]", kT0 + 4000));
  ready(kT0 + 5000, "Application startup complete.");
  const AttemptFacts& a = *t.state().current();
  EXPECT_TRUE(a.ready);
  ASSERT_EQ(a.timeline.size(), 3u);
  EXPECT_EQ(a.timeline[1].phase, Phase::kHttpStart);
  EXPECT_EQ(a.timeline[1].start_ms, kT0 + 1000);
  EXPECT_EQ(a.timeline[1].end_ms, kT0 + 5000);
  EXPECT_EQ(a.timeline[2].phase, Phase::kReady);
  EXPECT_EQ(a.timeline[2].start_ms, kT0 + 5000);
}

// An info line of the phase a rank was only guessed to be in ("Available KV cache memory" after
// "torch.compile takes ... in total") is a line of its own: the span is no longer implicit.
TEST(TrackerPlacing, AnInfoLineOfTheGuessedPhaseMakesItsSpanExplicit) {
  StartupTracker t = VllmTracker();
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kCompile, "TP0", "Using cache directory"));
  auto e = Event(LogEvent::Kind::kPhaseEnd, Phase::kCompile, "TP0", "torch.compile takes 37 s",
                 kT0 + 37000);
  e.elapsed_seconds = 37;
  t.OnLogEvent(e);
  ASSERT_NE(OpenSpan(*t.state().current(), "TP0"), nullptr);
  EXPECT_TRUE(OpenSpan(*t.state().current(), "TP0")->implicit);
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kKvCache, "TP0",
                     "Available KV cache memory: 8.10 GiB", kT0 + 42000));
  const PhaseSpan* open = OpenSpan(*t.state().current(), "TP0");
  ASSERT_NE(open, nullptr);
  EXPECT_EQ(open->phase, Phase::kKvCache);
  EXPECT_FALSE(open->implicit);
}

// A line of the next phase itself, even in the same second, opens it for real.
TEST(TrackerPlacing, ALineOfItsOwnInTheSameSecondOpensThePhase) {
  StartupTracker t = VllmTracker();
  auto e =
      Event(LogEvent::Kind::kPhaseEnd, Phase::kWeightLoad, "TP0", "Loading model weights took");
  t.OnLogEvent(e);
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kKvCache, "TP0", "Memory profiling takes 4 s"));
  const AttemptFacts& a = *t.state().current();
  ASSERT_NE(OpenSpan(a, "TP0"), nullptr);
  EXPECT_EQ(OpenSpan(a, "TP0")->phase, Phase::kKvCache);
  EXPECT_FALSE(OpenSpan(a, "TP0")->implicit);
  EXPECT_FALSE(a.opened_after.has_value());
}

// Rank 1 failed with its phase lines cut; rank 0 then ends loading: rank 1 failed loading.
TEST(TrackerPlacing, ARankWithoutPhaseLinesFailedInThePhaseAPeerEndsAfterIt) {
  StartupTracker t = VllmTracker();
  t.OnLogEvent(Event(LogEvent::Kind::kError, std::nullopt, "TP1", "RuntimeError: boom"));
  auto end =
      Event(LogEvent::Kind::kPhaseEnd, Phase::kWeightLoad, "TP0", "Model loading took", kT0 + 2000);
  end.elapsed_seconds = 20;
  t.OnLogEvent(end);
  const AttemptFacts& a = *t.state().current();
  EXPECT_EQ(a.unplaced_rank, "TP1");
  EXPECT_EQ(a.unplaced_peer_phase, Phase::kWeightLoad);
}

// Its own traceback's frames say more than a peer's progress, and its own progress clears both.
TEST(TrackerPlacing, TheFailedRanksOwnFramesAndProgress) {
  StartupTracker t = VllmTracker();
  t.OnLogEvent(Event(LogEvent::Kind::kError, std::nullopt, "TP1", "Traceback"));
  t.OnLogEvent(Event(LogEvent::Kind::kFrame, Phase::kKvCache, "TP1", "in profile_run"));
  t.OnLogEvent(Event(LogEvent::Kind::kFrame, Phase::kWeightLoad, "TP0", "in load_model"));
  EXPECT_EQ(t.state().current()->unplaced_frame, Phase::kKvCache);
  t.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kCudaGraph, "TP1", "Capturing"));
  EXPECT_TRUE(t.state().current()->unplaced_rank.empty());
  EXPECT_FALSE(t.state().current()->unplaced_frame.has_value());
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// vLLM's data-parallel engines each print the engine banner: one start, not a restart; the same
// engine's banner again, or any banner after a crash, is a new attempt. Which ranks are such
// engines is the engine's data ("ranks.independent"); without it a second banner is a restart.
TEST(TrackerPlacing, DataParallelEngineBannersAreOneStart) {
  for (const bool told : {false, true}) {
    StartupTracker t = VllmTracker();
    if (told) t.SetIndependentRanks({"DP"});
    t.OnLogEvent(
        Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP0", "Initializing"));
    t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kDistributedInit, "EngineCore_DP0", "r 0"));
    t.OnLogEvent(
        Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP1", "Initializing"));
    EXPECT_EQ(t.state().attempts.size(), told ? 1u : 2u);
  }
  StartupTracker t = VllmTracker();
  t.SetIndependentRanks({"DP"});
  t.OnLogEvent(
      Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP0", "Initializing"));
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kDistributedInit, "EngineCore_DP0", "rank 0"));
  t.OnLogEvent(
      Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP1", "Initializing"));
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kDistributedInit, "EngineCore_DP1", "rank 1"));
  EXPECT_EQ(t.state().attempts.size(), 1u);
  t.OnLogEvent(
      Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP0", "Initializing"));
  EXPECT_EQ(t.state().attempts.size(), 2u);
  t.OnLogEvent(Event(LogEvent::Kind::kInfo, Phase::kDistributedInit, "EngineCore_DP0", "rank 0"));
  t.OnLogEvent(Event(LogEvent::Kind::kFatal, std::nullopt, "EngineCore_DP0", "failed to start"));
  t.OnLogEvent(
      Event(LogEvent::Kind::kAttemptStart, std::nullopt, "EngineCore_DP1", "Initializing"));
  EXPECT_EQ(t.state().attempts.size(), 3u);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A pinned frame (set-up code that runs before its phase's lines: TGI's shard sets up
// torch.distributed inside "Starting shard") names where the first failure was raised; once a
// decisive line has followed frames, a later pinned frame is a peer's consequence.
TEST(TrackerPlacing, APinnedFrameCountsOnlyInTheFirstFailure) {
  auto pinned = [](std::string rank) {
    auto e = Event(LogEvent::Kind::kFrame, Phase::kDistributedInit, std::move(rank),
                   "in init_process_group");
    e.pinned = true;
    return e;
  };
  StartupTracker first = VllmTracker();
  first.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kWeightLoad, "shard0", "Starting"));
  first.OnLogEvent(Event(LogEvent::Kind::kFatal, std::nullopt, "", "Error when initializing"));
  first.OnLogEvent(Event(LogEvent::Kind::kFrame, Phase::kWeightLoad, "", "in get_model"));
  first.OnLogEvent(pinned(""));
  first.OnLogEvent(Event(LogEvent::Kind::kError, std::nullopt, "", "DistBackendError: NCCL"));
  EXPECT_EQ(first.state().current()->pinned_phase, Phase::kDistributedInit);

  StartupTracker later = VllmTracker();
  later.OnLogEvent(Event(LogEvent::Kind::kPhaseBegin, Phase::kWeightLoad, "shard1", "Starting"));
  later.OnLogEvent(Event(LogEvent::Kind::kFrame, Phase::kWeightLoad, "", "in get_sharded"));
  later.OnLogEvent(Event(LogEvent::Kind::kError, std::nullopt, "", "OutOfMemoryError: CUDA"));
  later.OnLogEvent(pinned(""));
  EXPECT_FALSE(later.state().current()->pinned_phase.has_value());
}

}  // namespace
}  // namespace spinup
