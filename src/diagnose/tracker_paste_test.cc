// Shapes of a pasted log that must not change how many starts it holds: a banner or a restart
// line printed twice in a row (two handlers of one logger, or stdout and a tee'd copy both
// captured), a run's beginning pasted after its excerpt, the shell command above a journal paste.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "diagnose/tracker.h"

namespace spinup {
namespace {

constexpr int64_t kT0 = 1773057600000;  // 2026-03-09 12:00:00

LogEvent Line(LogEvent::Kind kind, std::string rule, std::optional<int64_t> t,
              std::optional<Phase> phase = std::nullopt, std::string text = "line") {
  LogEvent e;
  e.kind = kind;
  e.rule_id = std::move(rule);
  e.time_ms = t;
  e.phase = phase;
  e.text = std::move(text);
  return e;
}

LogEvent Banner(std::optional<int64_t> t, std::string rule = "sglang.server_args") {
  return Line(LogEvent::Kind::kAttemptStart, std::move(rule), t, std::nullopt, "banner");
}

// The middle of a run, without its banner: distributed init, then a rank's death.
void CrashedExcerpt(StartupTracker& t, int64_t at) {
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "sglang.dist_begin", at, Phase::kDistributedInit));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", at + 6000));
}

TEST(TrackerPaste, AStampedBannerTwiceAfterTheExcerptIsItsBeginning) {
  StartupTracker t;
  CrashedExcerpt(t, kT0 + 14000);
  t.OnLogEvent(Banner(kT0));  // stamped before the excerpt: its beginning, pasted after it
  t.OnLogEvent(Banner(kT0));
  ASSERT_EQ(t.state().attempts.size(), 1u);
  EXPECT_TRUE(t.state().attempts.back().crashed);
  EXPECT_TRUE(t.state().attempts.back().banner);
}

TEST(TrackerPaste, ATimelessBannerTwiceWaitsForTheStampedLine) {
  StartupTracker t;
  CrashedExcerpt(t, kT0 + 14000);
  t.OnLogEvent(Banner(std::nullopt, "generic.cuda_banner"));
  t.OnLogEvent(Banner(std::nullopt, "generic.cuda_banner"));
  t.OnLogEvent(Banner(kT0));
  ASSERT_EQ(t.state().attempts.size(), 1u);
  EXPECT_TRUE(t.state().attempts.back().crashed);
}

// The container's banner waits for a time; the server's first stamped line (a fact about the
// nodes, read before the banner rule on that same line) places it before the excerpt; the
// server's own banner that follows is that same beginning, not a restart.
TEST(TrackerPaste, BannersOfABeginningPastedAfterTheExcerptAreOneStart) {
  StartupTracker t;
  CrashedExcerpt(t, kT0 + 14000);
  t.OnLogEvent(Banner(std::nullopt, "generic.cuda_banner"));
  t.OnLogEvent(Line(LogEvent::Kind::kInfo, "multi_node.nnodes", kT0));
  t.OnLogEvent(Banner(kT0));
  ASSERT_EQ(t.state().attempts.size(), 1u);
  EXPECT_TRUE(t.state().attempts.back().crashed);
}

TEST(TrackerPaste, ARestartWhoseBannerIsPrintedTwiceIsOneMoreStart) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0));
  CrashedExcerpt(t, kT0 + 1000);
  t.OnLogEvent(Banner(kT0 + 60000));
  t.OnLogEvent(Banner(kT0 + 60000));
  CrashedExcerpt(t, kT0 + 61000);
  EXPECT_EQ(t.state().attempts.size(), 2u);
}

// Only a copy right behind it: the same banner again after other lines is a restart.
TEST(TrackerPaste, TheSameBannerAfterADeathIsARestart) {
  StartupTracker t;
  t.OnLogEvent(Banner(std::nullopt));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", std::nullopt));
  t.OnLogEvent(Banner(std::nullopt));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", std::nullopt));
  EXPECT_EQ(t.state().attempts.size(), 2u);
}

UnitEvent Restart(int n) {
  UnitEvent e;
  e.kind = UnitEvent::Kind::kRestartScheduled;
  e.unit = "sglang.service";
  e.restarts = n;
  e.text = "sglang.service: Scheduled restart job, restart counter is at " + std::to_string(n);
  return e;
}

TEST(TrackerPaste, ARestartLinePrintedTwiceIsOneRestart) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0));
  CrashedExcerpt(t, kT0 + 1000);
  t.OnUnitEvent(Restart(1));
  t.OnUnitEvent(Restart(1));
  t.OnLogEvent(Banner(kT0 + 60000));
  CrashedExcerpt(t, kT0 + 61000);
  EXPECT_EQ(t.state().attempts.size(), 2u);
  EXPECT_EQ(t.state().restarts, 1);
}

TEST(TrackerPaste, EachRestartCounterOpensAnAttempt) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0));
  CrashedExcerpt(t, kT0 + 1000);
  t.OnUnitEvent(Restart(1));
  CrashedExcerpt(t, kT0 + 61000);
  t.OnUnitEvent(Restart(2));
  EXPECT_EQ(t.state().attempts.size(), 3u);
  EXPECT_EQ(t.state().restarts, 2);
}

UnitEvent Started() {
  UnitEvent e;
  e.kind = UnitEvent::Kind::kStarting;
  e.unit = "sglang.service";
  e.text = "Started sglang.service.";
  return e;
}

// "$ journalctl -u sglang" above the entries: a line, but no run of the unit.
TEST(TrackerPaste, TheCommandAboveAJournalPasteIsNoStart) {
  StartupTracker t;
  t.OnLogActivity(std::nullopt);
  UnitEvent started = Started();
  started.time_ms = kT0;
  t.OnUnitEvent(started);
  CrashedExcerpt(t, kT0 + 1000);
  EXPECT_EQ(t.state().attempts.size(), 1u);
}

TEST(TrackerPaste, AStampedLineBeforeTheUnitStartsIsAnEarlierRun) {
  StartupTracker t;
  t.OnLogActivity(kT0 - 60000);
  UnitEvent started = Started();
  started.time_ms = kT0;
  t.OnUnitEvent(started);
  EXPECT_EQ(t.state().attempts.size(), 2u);
}

LogEvent NodeBanner(int64_t t, int node) {
  return Line(LogEvent::Kind::kAttemptStart, "sglang.server_args", t, std::nullopt,
              "server_args=ServerArgs(tp_size=16, nnodes=2, node_rank=" + std::to_string(node) +
                  ", dist_init_addr='10.0.0.1:5000')");
}

// A multi-node job's logs pasted one after the other: the second node's banner, stamped within
// the first node's lines, is the same start seen from there; the same node's banner after its
// crash is a restart, and so is another node's stamped after the start's last line.
size_t AttemptsWithASecondBanner(int64_t second_at, int second_node) {
  StartupTracker t;
  t.OnLogEvent(NodeBanner(kT0, 0));
  CrashedExcerpt(t, kT0 + 10000);
  t.OnLogEvent(NodeBanner(second_at, second_node));
  CrashedExcerpt(t, second_at + 10000);
  return t.state().attempts.size();
}

TEST(TrackerPaste, AnotherNodesBannerWithinTheStartIsTheSameStart) {
  EXPECT_EQ(AttemptsWithASecondBanner(kT0 + 1000, 1), 1u);
  EXPECT_EQ(AttemptsWithASecondBanner(kT0 + 60000, 0), 2u);
  EXPECT_EQ(AttemptsWithASecondBanner(kT0 + 60000, 1), 2u);
}

// An error quoted above the log that printed it: with a person's line first it is no start of
// its own; without one it is a restart's tail cut from the top of the log. A lone line that names
// no exception is the writer's remark ("Got a NCCL error") whatever came before it.
size_t AttemptsWithAnErrorAbove(bool in_report,
                                std::string text = "RuntimeError: NCCL error: unhandled error") {
  StartupTracker t;
  LogEvent quote =
      Line(LogEvent::Kind::kFatal, "generic.exception", std::nullopt, std::nullopt, text);
  quote.in_report = in_report;
  t.OnLogEvent(quote);
  LogEvent banner = Banner(kT0);
  banner.in_report = in_report;
  t.OnLogEvent(banner);
  CrashedExcerpt(t, kT0 + 10000);
  return t.state().attempts.size();
}

TEST(TrackerPaste, AnErrorQuotedAboveTheLogIsNoAttempt) {
  EXPECT_EQ(AttemptsWithAnErrorAbove(true), 1u);
  EXPECT_EQ(AttemptsWithAnErrorAbove(false), 2u);
  EXPECT_EQ(AttemptsWithAnErrorAbove(false, "[TP0] torch.OutOfMemoryError: CUDA out of memory"),
            2u);
  EXPECT_EQ(AttemptsWithAnErrorAbove(false, "Got a NCCL error"), 1u);
  EXPECT_EQ(AttemptsWithAnErrorAbove(false, "vllm 0.9.0 on 4 GPUs: NCCL error so it is broken?"),
            1u);
}

// "^C" has no time of its own: the teardown's first stamped line says when the stop came.
TEST(TrackerPaste, AnUntimedStopTakesTheNextStampedLinesTime) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0));
  t.OnLogEvent(
      Line(LogEvent::Kind::kPhaseBegin, "sglang.dist_begin", kT0 + 1000, Phase::kDistributedInit));
  LogEvent stop = Line(LogEvent::Kind::kStop, "generic.ctrl_c", kT0 + 1000);
  stop.time_inferred = true;
  t.OnLogEvent(stop);
  t.OnLogActivity(kT0 + 1'800'000, /*own_time=*/false);  // an arrival time is not the line's
  EXPECT_EQ(t.state().attempts.back().stop_ms, kT0 + 1000);
  t.OnLogActivity(kT0 + 1'900'000, /*own_time=*/true);
  t.OnLogActivity(kT0 + 2'000'000, /*own_time=*/true);  // only the first says when
  EXPECT_EQ(t.state().attempts.back().stop_ms, kT0 + 1'900'000);
}

// "$ docker logs -f vllm" then "^C": the viewer was stopped, the server went on; a command at the
// next prompt ends the viewer, so a later "^C" stops what that command runs.
TEST(TrackerPaste, ACtrlCAfterALogViewerStopsTheViewerNotTheServer) {
  StartupTracker t;
  t.OnLogEvent(Line(LogEvent::Kind::kInfo, "generic.log_viewer", std::nullopt));
  t.OnLogEvent(Banner(kT0));
  t.OnLogEvent(
      Line(LogEvent::Kind::kPhaseBegin, "sglang.load_begin", kT0 + 1000, Phase::kWeightLoad));
  t.OnLogEvent(Line(LogEvent::Kind::kStop, "generic.ctrl_c", kT0 + 1000));
  EXPECT_FALSE(t.state().attempts.back().stop_requested);
  EXPECT_EQ(t.state().attempts.size(), 1u);

  t.OnLogEvent(Line(LogEvent::Kind::kInfo, "generic.log_viewer", std::nullopt));
  t.OnLogEvent(Line(LogEvent::Kind::kStop, "generic.shell_stop", std::nullopt));  // ends it
  t.OnLogEvent(Line(LogEvent::Kind::kStop, "generic.ctrl_c", kT0 + 2000));
  EXPECT_TRUE(t.state().attempts.back().stop_requested);
}

// trtllm-build's last line pasted above Triton's log: the build that made the engine, not a start
// of its own; a start that failed before its own banner still is one.
TEST(TrackerPaste, AFinishedEngineBuildAboveTheServersBannerIsNoAttempt) {
  StartupTracker t;
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseEnd, "trtllm.engine_build_end", kT0, Phase::kCompile));
  t.OnLogEvent(Banner(kT0 + 60'000, "host.triton_start"));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "trtllm.error", kT0 + 61'000));
  EXPECT_EQ(t.state().attempts.size(), 1u);
  EXPECT_EQ(t.state().crashed_attempts, 1);

  StartupTracker u;
  u.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "sglang.load_begin", kT0, Phase::kWeightLoad));
  u.OnLogEvent(Banner(kT0 + 60'000, "host.triton_start"));
  EXPECT_EQ(u.state().attempts.size(), 2u);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// systemd's Started after a failed run with no restart scheduled in between (a person's
// `systemctl start` after editing the unit) begins a start by hand, not a turn of a loop.
TEST(TrackerPaste, AUnitStartedAgainWithoutASchedulerIsByHand) {
  StartupTracker t;
  UnitEvent started = Started();
  started.time_ms = kT0;
  t.OnUnitEvent(started);
  CrashedExcerpt(t, kT0 + 1000);
  started.time_ms = kT0 + 300'000;
  t.OnUnitEvent(started);
  CrashedExcerpt(t, kT0 + 301'000);
  ASSERT_EQ(t.state().attempts.size(), 2u);
  EXPECT_TRUE(t.state().attempts.back().manual);
  // After systemd's own restart it is the manager's.
  StartupTracker loop;
  started.time_ms = kT0;
  loop.OnUnitEvent(started);
  CrashedExcerpt(loop, kT0 + 1000);
  loop.OnUnitEvent(Restart(1));
  started.time_ms = kT0 + 60'000;
  loop.OnUnitEvent(started);
  CrashedExcerpt(loop, kT0 + 61'000);
  ASSERT_EQ(loop.state().attempts.size(), 2u);
  EXPECT_FALSE(loop.state().attempts.back().manual);
}

// A later start begun by lines without times (a shell prompt, its args) is dated by its first
// stamped line, not by the last line of the start before it.
TEST(TrackerPaste, AnUntimedRestartBeginsAtItsFirstStampedLine) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0));
  t.OnLogEvent(
      Line(LogEvent::Kind::kPhaseBegin, "sglang.dist_begin", kT0 + 1000, Phase::kDistributedInit));
  t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", kT0 + 2000));
  t.OnLogEvent(Line(LogEvent::Kind::kAttemptStart, "manual.shell_prompt", std::nullopt));
  LogEvent args = Banner(kT0 + 2000);
  args.time_inferred = true;  // SGLang 0.3's server_args: the time is the line before's
  t.OnLogEvent(args);
  ASSERT_EQ(t.state().attempts.size(), 2u);
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "sglang.dist_begin", kT0 + 1'800'000,
                    Phase::kDistributedInit));
  const AttemptFacts& a = t.state().attempts.back();
  ASSERT_TRUE(a.start_ms.has_value());
  EXPECT_EQ(*a.start_ms, kT0 + 1'800'000);
  for (const PhaseSpan& s : a.timeline) {
    ASSERT_TRUE(s.start_ms.has_value());
    EXPECT_GE(*s.start_ms, kT0 + 1'800'000) << PhaseName(s.phase);
  }
}

// Supervisors restart a failed server within minutes: a banner an hour after the last start died,
// with no restart counted, is a person's retry, not a turn of a loop.
TEST(TrackerPaste, AStartLongAfterTheLastDiedIsByHand) {
  auto second_by_hand = [](int64_t gap_ms) {
    StartupTracker t;
    t.OnLogEvent(Banner(kT0));
    CrashedExcerpt(t, kT0 + 1000);
    t.OnLogEvent(Banner(kT0 + 7000 + gap_ms));
    EXPECT_EQ(t.state().attempts.size(), 2u);
    return t.state().attempts.back().manual;
  };
  EXPECT_TRUE(second_by_hand(50 * 60'000));
  EXPECT_FALSE(second_by_hand(2 * 60'000));
}

// A line without a time of its own was printed after the last stamped line before it, even where
// an earlier part of the paste (another program's clock) ran later: it takes that line's time.
TEST(TrackerPaste, AnUntimedLineTakesTheStampedLineBeforeIt) {
  StartupTracker t;
  t.OnLogEvent(Banner(kT0 + 600'000));  // a script's later clock, pasted first
  t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "sglang.load_begin", kT0, Phase::kWeightLoad));
  LogEvent bar = Line(LogEvent::Kind::kProgress, "generic.tqdm", std::nullopt);
  bar.bar = "Loading safetensors checkpoint shards";
  bar.progress_n = 1;
  bar.progress_total = 10;
  t.OnLogEvent(bar);
  const AttemptFacts& a = t.state().attempts.back();
  ASSERT_TRUE(a.last_progress_ms.has_value());
  EXPECT_EQ(*a.last_progress_ms, kT0);
}

// A reply quotes the comment it answers ("> " before each line: a run that crashed), then pastes
// the replier's own run: the quoted run is another's, not an earlier attempt of this start.
TEST(TrackerPaste, AQuotedRunAboveTheRepliersOwnIsNotAnAttempt) {
  for (const bool quoted : {true, false}) {
    StartupTracker t;
    LogEvent banner = Banner(kT0);
    LogEvent fatal = Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", kT0 + 6000);
    banner.quoted = fatal.quoted = quoted;
    t.OnLogEvent(banner);
    t.OnLogEvent(fatal);
    t.OnLogEvent(Banner(kT0 + 600000));
    t.OnLogEvent(Line(LogEvent::Kind::kReady, "sglang.ready", kT0 + 660000));
    EXPECT_EQ(t.state().attempts.size(), quoted ? 1u : 2u) << quoted;
    EXPECT_EQ(t.state().crashed_attempts, quoted ? 0 : 1) << quoted;
    EXPECT_TRUE(t.state().attempts.back().ready) << quoted;
  }
}

// A death on an untimed line takes the latest time seen before it; the same death stamped two
// minutes later (the rank's own report of it) is that death again, not a restart's.
TEST(TrackerPaste, AnUntimedDeathThenItsStampedReportIsOneStart) {
  for (const bool untimed : {true, false}) {
    StartupTracker t;
    t.OnLogEvent(Banner(kT0));
    t.OnLogEvent(Line(LogEvent::Kind::kPhaseBegin, "sglang.dist_begin", kT0 + 1000,
                      Phase::kDistributedInit));
    const std::optional<int64_t> first = untimed ? std::nullopt : std::optional(kT0 + 1000);
    t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", first, std::nullopt,
                      "NCCL error"));
    t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", kT0 + 128000,
                      std::nullopt, "NCCL error"));
    EXPECT_EQ(t.state().attempts.size(), untimed ? 1u : 2u) << untimed;
  }
}

// Slurm cancels the step after srun said one of its tasks failed: srun's teardown of a crash,
// which stays a crash; the same cancel with no failure reported before it is a stop.
TEST(TrackerPaste, SlurmsCancelAfterAFailedTaskKeepsTheCrash) {
  for (const bool task_failed : {true, false}) {
    StartupTracker t;
    t.OnLogEvent(Banner(kT0));
    t.OnLogEvent(Line(LogEvent::Kind::kFatal, "sglang.scheduler_exception", kT0 + 1000));
    if (task_failed) t.OnLogEvent(Line(LogEvent::Kind::kFatal, "slurm.task_failed", kT0 + 2000));
    t.OnLogEvent(Line(LogEvent::Kind::kStop, "slurm.scancel", kT0 + 3000));
    EXPECT_EQ(t.state().attempts.back().crashed, task_failed) << task_failed;
  }
}

}  // namespace
}  // namespace spinup
