#include "live/journal_entry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spinup {
namespace {

// Keeps the "KEY=value" strings alive while the fields view them.
struct Entry {
  std::vector<std::string> data;
  JournalFields fields;
  Entry(const Entry&) = delete;
  explicit Entry(std::vector<std::string> items) : data(std::move(items)) {
    for (const auto& d : data) fields.Add(d);
  }
};

constexpr const char* kUnit = "sglang.service";

Entry Manager(std::vector<std::string> extra) {
  std::vector<std::string> d = {"_PID=1", "_SYSTEMD_UNIT=init.scope", "UNIT=sglang.service"};
  d.insert(d.end(), extra.begin(), extra.end());
  return Entry(d);
}

TEST(JournalEntryTest, NormalizesUnitNames) {
  EXPECT_EQ(NormalizeUnitName("sglang"), "sglang.service");
  EXPECT_EQ(NormalizeUnitName("sglang.service"), "sglang.service");
  EXPECT_EQ(NormalizeUnitName("llm@0.service"), "llm@0.service");
  EXPECT_EQ(NormalizeUnitName(""), "");
  EXPECT_LE(NormalizeUnitName(std::string(10000, 'a')).size(), 256u + 8u);
}

TEST(JournalEntryTest, TheUnitsOwnLinesAreLines) {
  Entry e({"_PID=4242", "_SYSTEMD_UNIT=sglang.service",
           "MESSAGE=[2026-11-29 10:00:00 TP0] Load weight begin. avail mem=78.50 GB"});
  auto f = ClassifyJournalEntry(e.fields, kUnit);
  ASSERT_TRUE(f.line);
  EXPECT_EQ(*f.line, "[2026-11-29 10:00:00 TP0] Load weight begin. avail mem=78.50 GB");
  EXPECT_FALSE(f.event);
}

TEST(JournalEntryTest, OtherUnitsAndTheManagerAboutOtherUnitsAreIgnored) {
  Entry other({"_PID=77", "_SYSTEMD_UNIT=cron.service", "MESSAGE=hello"});
  auto f = ClassifyJournalEntry(other.fields, kUnit);
  EXPECT_FALSE(f.line);
  EXPECT_FALSE(f.event);
  Entry mgr({"_PID=1", "_SYSTEMD_UNIT=init.scope", "UNIT=cron.service",
             "MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=4",
             "MESSAGE=cron.service: Scheduled restart job, restart counter is at 4."});
  f = ClassifyJournalEntry(mgr.fields, kUnit);
  EXPECT_FALSE(f.line);
  EXPECT_FALSE(f.event);
}

TEST(JournalEntryTest, WithoutAUnitEveryMessageIsALineAndThereAreNoEvents) {
  auto e = Manager({"MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=2",
                    "MESSAGE=sglang.service: Scheduled restart job, restart counter is at 2."});
  auto f = ClassifyJournalEntry(e.fields, "");
  ASSERT_TRUE(f.line);
  EXPECT_EQ(*f.line, "sglang.service: Scheduled restart job, restart counter is at 2.");
  EXPECT_FALSE(f.event);
}

TEST(JournalEntryTest, ScheduledRestartCarriesTheCounter) {
  auto e = Manager({"MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=3",
                    "MESSAGE=sglang.service: Scheduled restart job, restart counter is at 3."});
  e.fields.realtime_ms = 1700000000123;
  auto f = ClassifyJournalEntry(e.fields, kUnit);
  EXPECT_FALSE(f.line);  // the manager's words are not the server's log
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kRestartScheduled);
  EXPECT_EQ(f.event->restarts, 3);
  EXPECT_EQ(f.event->unit, kUnit);
  EXPECT_EQ(f.event->time_ms, 1700000000123);
  EXPECT_NE(f.event->text.find("restart counter is at 3"), std::string::npos);
}

TEST(JournalEntryTest, MalformedOrHugeCounterIsZeroNotAnError) {
  for (const char* n : {"N_RESTARTS=abc", "N_RESTARTS=-4", "N_RESTARTS=99999999999999999999",
                        "N_RESTARTS=3x", "N_RESTARTS="}) {
    auto e = Manager({"MESSAGE_ID=5eb03494b6584870a536b337290809b3", n});
    auto f = ClassifyJournalEntry(e.fields, kUnit);
    ASSERT_TRUE(f.event) << n;
    EXPECT_EQ(f.event->kind, UnitEvent::Kind::kRestartScheduled) << n;
    EXPECT_EQ(f.event->restarts, 0) << n;
  }
}

TEST(JournalEntryTest, MainProcessExitIsCleanOnlyForStatusZeroOrAStopSignal) {
  struct Case {
    const char* code;
    const char* status;
    bool clean;
  };
  for (const Case& c :
       {Case{"exited", "0", true}, Case{"exited", "1", false}, Case{"killed", "15", true},
        Case{"killed", "9", false}, Case{"dumped", "6", false}}) {
    auto e = Manager({"MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15",
                      std::string("EXIT_CODE=") + c.code, std::string("EXIT_STATUS=") + c.status,
                      "MESSAGE=sglang.service: Main process exited, code=x, status=y"});
    auto f = ClassifyJournalEntry(e.fields, kUnit);
    ASSERT_TRUE(f.event) << c.code << c.status;
    EXPECT_EQ(f.event->kind, UnitEvent::Kind::kProcessExited);
    EXPECT_EQ(f.event->exit_code, c.code);
    EXPECT_EQ(f.event->exit_status, std::stoi(c.status));
    EXPECT_EQ(f.event->clean, c.clean) << c.code << c.status;
  }
}

TEST(JournalEntryTest, OlderSystemdExitWithoutMessageIdStillCounts) {
  auto e = Manager({"EXIT_CODE=exited", "EXIT_STATUS=1",
                    "MESSAGE=sglang.service: Main process exited, code=exited, status=1/FAILURE"});
  auto f = ClassifyJournalEntry(e.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kProcessExited);
  EXPECT_FALSE(f.event->clean);
}

TEST(JournalEntryTest, ControlProcessExitAndBadStatusAreNotEvents) {
  auto control =
      Manager({"MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15", "EXIT_CODE=exited", "EXIT_STATUS=1",
               "MESSAGE=sglang.service: Control process exited, code=exited, "
               "status=1/FAILURE"});
  EXPECT_FALSE(ClassifyJournalEntry(control.fields, kUnit).event);
  auto bad = Manager(
      {"MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15", "EXIT_CODE=exited", "EXIT_STATUS=one"});
  EXPECT_FALSE(ClassifyJournalEntry(bad.fields, kUnit).event);
}

TEST(JournalEntryTest, FailureResultStartingAndOomKill) {
  auto failed = Manager({"MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c", "UNIT_RESULT=watchdog",
                         "MESSAGE=sglang.service: Failed with result 'watchdog'."});
  auto f = ClassifyJournalEntry(failed.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kFailed);
  EXPECT_EQ(f.event->result, "watchdog");

  auto starting = Manager({"MESSAGE_ID=7d4958e842da4a758f6c1cdc7b36dcc5",
                           "MESSAGE=Starting sglang.service - SGLang server..."});
  f = ClassifyJournalEntry(starting.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kStarting);

  auto oom = Manager({"MESSAGE_ID=fe6faa94e7774663a0da52717891d8ef",
                      "MESSAGE=sglang.service: A process of this unit has been killed by the OOM "
                      "killer."});
  f = ClassifyJournalEntry(oom.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kOomKilled);

  // A process of the previous run survived it (no MESSAGE_ID): a fact for orphan_processes.
  auto left_over =
      Manager({"MESSAGE=sglang.service: Found left-over process 4711 (python3) in "
               "control group while starting unit. Ignoring."});
  f = ClassifyJournalEntry(left_over.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kLeftOverProcess);

  // A stop job (systemctl stop or restart): the start ends stopped, as in pasted journalctl text.
  auto stopping = Manager({"MESSAGE_ID=de5b426a63be47a7b6ac3eaac82e2f6f",
                           "MESSAGE=Stopping sglang.service - SGLang server..."});
  f = ClassifyJournalEntry(stopping.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->kind, UnitEvent::Kind::kStopping);

  auto unknown = Manager({"MESSAGE_ID=0123456789abcdef0123456789abcdef", "MESSAGE=whatever"});
  f = ClassifyJournalEntry(unknown.fields, kUnit);
  EXPECT_FALSE(f.event);
  EXPECT_FALSE(f.line);
}

TEST(JournalEntryTest, UserManagerAboutAUserUnit) {
  Entry e({"_PID=1234", "_SYSTEMD_UNIT=user@1000.service", "USER_UNIT=sglang.service",
           "MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=2"});
  auto f = ClassifyJournalEntry(e.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_EQ(f.event->restarts, 2);
  Entry line({"_PID=99", "_SYSTEMD_USER_UNIT=sglang.service", "MESSAGE=hi"});
  EXPECT_TRUE(ClassifyJournalEntry(line.fields, kUnit).line);
}

TEST(JournalEntryTest, HugeMessagesAndFieldFloodsAreBounded) {
  std::vector<std::string> d = {"_PID=5", "_SYSTEMD_UNIT=sglang.service",
                                "MESSAGE=" + std::string(1 << 20, 'x')};
  for (int i = 0; i < 5000; ++i) d.push_back("F" + std::to_string(i) + "=v");
  d.push_back("no equals sign");
  d.push_back("=no key");
  Entry e(d);
  EXPECT_LE(e.fields.items.size(), kMaxJournalFields);
  auto f = ClassifyJournalEntry(e.fields, kUnit);
  ASSERT_TRUE(f.line);
  EXPECT_EQ(f.line->size(), kMaxJournalMessage);
  auto mgr =
      Manager({"MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c",
               "UNIT_RESULT=" + std::string(100000, 'r'), "MESSAGE=" + std::string(100000, 'm')});
  f = ClassifyJournalEntry(mgr.fields, kUnit);
  ASSERT_TRUE(f.event);
  EXPECT_LE(f.event->result.size(), 64u);
  EXPECT_LE(f.event->text.size(), 1024u);
}

TEST(JournalEntryTest, FieldsKeepTheFirstValueAndSplitAtTheFirstEquals) {
  JournalFields f;
  f.Add("MESSAGE=a=b");
  f.Add("MESSAGE=second");
  EXPECT_EQ(f.Get("MESSAGE"), "a=b");
  EXPECT_FALSE(f.Get("NOPE"));
}

}  // namespace
}  // namespace spinup
