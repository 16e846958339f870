#include "logs/clock_reading.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

CivilTime At(int y, int mo, int d, int h, int mi, int s) {
  return CivilTime{.year = y, .month = mo, .day = d, .hour = h, .minute = mi, .second = s};
}

TEST(ClockReading, DateCommandInEachLocale) {
  EXPECT_EQ(ParseClockReading("Mon Jun  2 10:56:12 UTC 2025"), At(2025, 6, 2, 10, 56, 12));
  EXPECT_EQ(ParseClockReading("Wed Jul 2 15:31:44 CEST 2025"), At(2025, 7, 2, 15, 31, 44));
  EXPECT_EQ(ParseClockReading("Mon 02 Jun 2025 10:56:12 PM UTC"), At(2025, 6, 2, 22, 56, 12));
  EXPECT_EQ(ParseClockReading("Mon Jun  2 12:05:00 AM UTC 2025"), At(2025, 6, 2, 0, 5, 0));
  EXPECT_EQ(ParseClockReading("Mon  2 Jun 10:56:12 BST 2025"), At(2025, 6, 2, 10, 56, 12));
  EXPECT_EQ(ParseClockReading("Mon Jun  2 10:56:12 2025"), At(2025, 6, 2, 10, 56, 12));
  // de_DE: a two-letter day, the day's dot, German month names.
  EXPECT_EQ(ParseClockReading("Do 10. Apr 14:47:52 CEST 2025"), At(2025, 4, 10, 14, 47, 52));
  EXPECT_EQ(ParseClockReading("Mi 12. Mär 09:02:20 CET 2025"), At(2025, 3, 12, 9, 2, 20));
  EXPECT_EQ(ParseClockReading("So 5. Okt 23:59:59 CEST 2025"), At(2025, 10, 5, 23, 59, 59));
  EXPECT_FALSE(ParseClockReading("Do 10. Foo 14:47:52 CEST 2025").has_value());
  // ru_RU: the month in the genitive, the year before the time.
  EXPECT_EQ(ParseClockReading("Вт 03 дек 2024 15:17:42 MSK"), At(2024, 12, 3, 15, 17, 42));
  EXPECT_EQ(ParseClockReading("Пт 16 мая 2025 08:01:02 MSK"), At(2025, 5, 16, 8, 1, 2));
  EXPECT_FALSE(ParseClockReading("Вт 03 foo 2024 15:17:42 MSK").has_value());
}

// date(1) in zh_CN, ja_JP and ko_KR, and PowerShell's Get-Date in ko-KR.
TEST(ClockReading, DateCommandInCjkLocales) {
  EXPECT_EQ(ParseClockReading("2025年 02月 19日 星期三 14:38:02 CST"), At(2025, 2, 19, 14, 38, 2));
  EXPECT_EQ(ParseClockReading("2025年  2月 19日 水曜日 14:38:02 JST"), At(2025, 2, 19, 14, 38, 2));
  EXPECT_EQ(ParseClockReading("2025. 02. 19. (수) 14:38:02 KST"), At(2025, 2, 19, 14, 38, 2));
  EXPECT_EQ(ParseClockReading("2024년 6월 11일 화요일 오후 2:55:31"), At(2024, 6, 11, 14, 55, 31));
  EXPECT_FALSE(ParseClockReading("2025. 13. 19. (수) 14:38:02 KST"));
  EXPECT_FALSE(ParseClockReading("2025. 02. 19. done in 14:38:02 of it"));
}

// The zone a reading names, as an offset from UTC; none where it names none or an ambiguous one.
TEST(ClockReading, TheZoneAReadingNames) {
  EXPECT_EQ(ReadingZoneOffsetMinutes("Tue Feb 11 18:02:49 CET 2025"), 60);
  EXPECT_EQ(ReadingZoneOffsetMinutes("Tue Feb 11 10:14:06 PST 2025"), -480);
  EXPECT_EQ(ReadingZoneOffsetMinutes("Mon Jun  2 10:56:12 UTC 2025"), 0);
  EXPECT_EQ(ReadingZoneOffsetMinutes("2025-06-02 10:56:12 +0800"), 480);
  EXPECT_EQ(ReadingZoneOffsetMinutes("2025-06-02 10:56:12 -05:30"), -330);
  EXPECT_EQ(ReadingZoneOffsetMinutes("`date` -> Thu Jan  2 03:57:30 EST 2025, still stuck"), -300);
  EXPECT_FALSE(ReadingZoneOffsetMinutes("Wed Feb 19 14:38:02 CST 2025"));  // China or US Central
  EXPECT_FALSE(ReadingZoneOffsetMinutes("Mon Jun  2 10:56:12 2025"));
  EXPECT_FALSE(ReadingZoneOffsetMinutes("+99999 and -1"));
}

TEST(ClockReading, IsoForms) {
  EXPECT_EQ(ParseClockReading("2025-06-02T10:56:12+00:00"), At(2025, 6, 2, 10, 56, 12));
  EXPECT_EQ(ParseClockReading("2025-06-02T10:56:12,123456789+02:00"), At(2025, 6, 2, 10, 56, 12));
  EXPECT_EQ(ParseClockReading("  2025-06-02 10:56:12  "), At(2025, 6, 2, 10, 56, 12));
  EXPECT_EQ(ParseClockReading("2025-06-02 10:56:12 UTC"), At(2025, 6, 2, 10, 56, 12));
}

TEST(ClockReading, SystemctlStatusSaysWhenItWasTaken) {
  EXPECT_EQ(ParseClockReading(
                "     Active: active (running) since Mon 2025-06-02 08:00:00 UTC; 52min ago"),
            At(2025, 6, 2, 8, 52, 0));
  EXPECT_EQ(ParseClockReading("Active: activating (start) since Mon 2025-06-02 23:30:00 UTC; 1h "
                              "3min ago"),
            At(2025, 6, 3, 0, 33, 0));
  EXPECT_FALSE(ParseClockReading("Active: active (running) since Mon 2025-06-02 08:00:00 UTC"));
}

TEST(ClockReading, SlurmSaysWhenItEndedTheJob) {
  EXPECT_EQ(ParseClockReading("slurmstepd: error: *** STEP 88123.0 ON n7 CANCELLED AT "
                              "2025-01-14T03:12:40 DUE TO TIME LIMIT ***"),
            At(2025, 1, 14, 3, 12, 40));
  EXPECT_EQ(
      ParseClockReading("*** JOB 778812 ON gpu-node-111 CANCELLED AT 2025-05-21T09:38:31 ***"),
      At(2025, 5, 21, 9, 38, 31));
  EXPECT_FALSE(ParseClockReading("*** STEP 1.0 ON n7 CANCELLED AT 2025-01-14 ***"));
  EXPECT_FALSE(ParseClockReading("*** STEP 1.0 ON n7 CANCELLED AT 2025-13-14T03:12:40 ***"));
}

TEST(ClockReading, UptimeGivesATimeOfDay) {
  const auto t = ParseClockReading(" 14:53:27 up 6 days,  2:11,  2 users,  load average: 2.01");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->has_date());
  EXPECT_EQ(t->hour * 3600 + t->minute * 60 + t->second, 14 * 3600 + 53 * 60 + 27);
  EXPECT_FALSE(ParseClockReading("14:73:27 up 6 days,  2:11,  2 users"));
  EXPECT_FALSE(ParseClockReading("14:53:27 upgraded 3 packages"));
}

TEST(ClockReading, AReadingQuotedInASentence) {
  EXPECT_EQ(ParseReportedClock("(no output after this. `date` -> Thu Jun 20 08:47:02 UTC 2024)"),
            At(2024, 6, 20, 8, 47, 2));
  EXPECT_EQ(ParseReportedClock("Stuck like this; `date` now says Sun Sep 21 14:54:30 UTC 2025."),
            At(2025, 9, 21, 14, 54, 30));
  // The sentence goes on after a comma.
  EXPECT_EQ(ParseReportedClock("`kubectl exec p -- date` -> Tue Aug 12 04:52:10 UTC 2025, "
                               "nvidia-smi shows 100% util"),
            At(2025, 8, 12, 4, 52, 10));
  EXPECT_FALSE(ParseReportedClock("the date is wrong in the config"));
  EXPECT_FALSE(ParseReportedClock("updated the model on Mon Jun  2 10:56:12 UTC 2025"));
  EXPECT_FALSE(ParseReportedClock("date: Mon Jun  2 10:56:12 UTC 2025 and then it crashed"));
}

TEST(ClockReading, ATimeOfDayAPersonSaysItIsNow) {
  const auto stated = ParseReportedClock("--- stuck on that line. 4x RTX 6000 Ada. 20:41 now ---");
  ASSERT_TRUE(stated);
  EXPECT_FALSE(stated->has_date());
  EXPECT_EQ(stated->hour, 20);
  EXPECT_EQ(stated->minute, 41);
  const auto later = ParseReportedClock("still nothing, now it's 9:05");
  ASSERT_TRUE(later);
  EXPECT_EQ(later->hour, 9);
  EXPECT_FALSE(ParseReportedClock("Unknown error at 20:41, retrying"));
  EXPECT_FALSE(ParseReportedClock("27:41 now"));
  EXPECT_FALSE(ParseReportedClock("snow 20:41"));
}

// The other ways a person says when they looked (red-team round twenty-nine): "it's", a sentence
// that opens with "At", "at" after words about the log standing still; the latest time of several.
TEST(ClockReading, ATimeOfDayInOtherWords) {
  auto minutes = [](std::string_view line) {
    const auto t = ParseReportedClock(line);
    return t ? t->hour * 60 + t->minute : -1;
  };
  EXPECT_EQ(minutes("It's 09:31 and no new line."), 9 * 60 + 31);
  EXPECT_EQ(minutes("Pod started 15:03, it's 15:31 and no \"Init torch distributed ends\"."),
            15 * 60 + 31);
  EXPECT_EQ(minutes("Started 14:02, now it's 14:29 and nothing new."), 14 * 60 + 29);
  EXPECT_EQ(minutes("^ rank 3 never printed it. At 09:24 (date) still the same."), 9 * 60 + 24);
  EXPECT_EQ(minutes("still nothing at 09:31"), 9 * 60 + 31);
  EXPECT_EQ(minutes("that's all of `docker logs tgi` at 11:31. No 'Connected' line"), 11 * 60 + 31);
  // An event's time, not when the person looked.
  EXPECT_EQ(minutes("Started at 14:02 with tp=4"), -1);
  EXPECT_EQ(minutes("Unknown error at 20:41, retrying"), -1);
  EXPECT_EQ(minutes("Loading safetensors checkpoint shards: 37% | 60/163 [12:10<21:44"), -1);
  // top's header is uptime's reading.
  const auto top =
      ParseClockReading("top - 09:31:02 up 3 days,  2:11,  1 user,  load average: 0.1");
  ASSERT_TRUE(top);
  EXPECT_EQ(top->hour * 3600 + top->minute * 60 + top->second, 9 * 3600 + 31 * 60 + 2);
}

TEST(ClockReading, AnythingMoreIsALogLineOrNoReading) {
  EXPECT_FALSE(ParseClockReading("Mon Jun  2 10:56:12 UTC 2025 server started"));
  EXPECT_FALSE(ParseClockReading("2025-06-02 10:56:12 INFO ready"));
  EXPECT_FALSE(ParseClockReading("2025-06-02"));
  EXPECT_FALSE(ParseClockReading("Monday was the day we saw it fail at 10:56"));
  EXPECT_FALSE(ParseClockReading("Mon Jun 32 10:56:12 UTC 2025"));  // no such day
  EXPECT_FALSE(ParseClockReading("Mon Jun  2 25:56:12 UTC 2025"));  // no such hour
  EXPECT_FALSE(ParseClockReading("Mon Jun  2 13:56:12 PM UTC 2025"));
  EXPECT_FALSE(ParseClockReading("2025-13-02T10:56:12Z"));
  EXPECT_FALSE(ParseClockReading(""));
  EXPECT_FALSE(ParseClockReading(std::string(200, '9')));
}

}  // namespace
}  // namespace spinup
