#include "logs/systemd_message.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(SystemdMessage, ReadsTheUnitsFacts) {
  auto exited =
      ParseSystemdMessage("vllm.service: Main process exited, code=exited, status=1/FAILURE");
  ASSERT_TRUE(exited);
  EXPECT_EQ(exited->kind, UnitEvent::Kind::kProcessExited);
  EXPECT_EQ(exited->unit, "vllm.service");

  auto restart =
      ParseSystemdMessage("vllm.service: Scheduled restart job, restart counter is at 3.");
  ASSERT_TRUE(restart);
  EXPECT_EQ(restart->kind, UnitEvent::Kind::kRestartScheduled);
  EXPECT_EQ(restart->restarts, 3);

  auto left_over = ParseSystemdMessage(
      "vllm.service: Found left-over process 9121 (python3) in control group while starting "
      "unit. Ignoring.");
  ASSERT_TRUE(left_over);
  EXPECT_EQ(left_over->kind, UnitEvent::Kind::kLeftOverProcess);
  EXPECT_EQ(left_over->unit, "vllm.service");
}

TEST(SystemdMessage, EventsCountAsTheirFactIds) {
  auto fact = [](std::string_view message) {
    auto e = ParseSystemdMessage(message);
    return e ? std::string(UnitFactId(*e)) : std::string("(no event)");
  };
  EXPECT_EQ(fact("vllm.service: Main process exited, code=exited, status=1/FAILURE"),
            unit_fact::kProcessExited);
  EXPECT_EQ(fact("vllm.service: Main process exited, code=killed, status=9/KILL"),
            unit_fact::kSigkill);
  EXPECT_EQ(fact("vllm.service: Main process exited, code=killed, status=4/ILL"),
            unit_fact::kSigill);
  EXPECT_EQ(fact("vllm.service: Main process exited, code=dumped, status=4/ILL"),
            unit_fact::kSigill);
  EXPECT_EQ(fact("vllm.service: Main process exited, code=exited, status=4/NOPERMISSION"),
            unit_fact::kProcessExited);
  EXPECT_EQ(fact("vllm.service: A process of this unit has been killed by the OOM killer."),
            unit_fact::kOomKilled);
  EXPECT_EQ(fact("vllm.service: Failed with result 'oom-kill'."), unit_fact::kFailed);
  EXPECT_EQ(fact("vllm.service: Main process exited, code=exited, status=0/SUCCESS"), "");
  EXPECT_EQ(fact("vllm.service: Scheduled restart job, restart counter is at 3."), "");
  for (auto id :
       {unit_fact::kProcessExited, unit_fact::kSigkill, unit_fact::kSigill, unit_fact::kFailed,
        unit_fact::kOomKilled, unit_fact::kStopping, unit_fact::kLeftOverProcess}) {
    EXPECT_TRUE(IsUnitFactId(id)) << id;
  }
  EXPECT_FALSE(IsUnitFactId("systemd.starting"));
}

// An unfiltered journal shows other units: sessions, timers, the distribution's housekeeping.
TEST(SystemdMessage, OtherUnitsStartsAreNotTheServers) {
  EXPECT_FALSE(ParseSystemdMessage("Started session-9.scope - Session 9 of User ops."));
  EXPECT_FALSE(ParseSystemdMessage("Started Session 9 of User ops."));
  EXPECT_FALSE(ParseSystemdMessage("Starting logrotate.service - Rotate log files..."));
  EXPECT_FALSE(ParseSystemdMessage("Starting Daily apt download activities..."));
  EXPECT_FALSE(ParseSystemdMessage("apt-daily.timer: Adding 7h 1min random time."));
  EXPECT_FALSE(
      ParseSystemdMessage("cron.service: Main process exited, code=exited, status=1/FAILURE"));
  auto server = ParseSystemdMessage("Started vllm.service - vLLM OpenAI server.");
  ASSERT_TRUE(server);
  EXPECT_EQ(server->kind, UnitEvent::Kind::kStarting);
  EXPECT_TRUE(ParseSystemdMessage("Starting SGLang inference server..."));
}

TEST(SystemdMessage, OtherLinesSayNothingAboutTheStart) {
  EXPECT_FALSE(ParseSystemdMessage("vllm.service: Consumed 1min 12.401s CPU time."));
  EXPECT_FALSE(ParseSystemdMessage(
      "vllm.service: This usually indicates unclean termination of a previous run, or service "
      "implementation deficiencies."));
  EXPECT_FALSE(ParseSystemdMessage(""));
}

}  // namespace
}  // namespace spinup
