#include "logs/csv_export.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(CsvExport, HeadersThatNameAMessageAndATime) {
  auto dd = ReadCsvHeader("Date,Host,Service,Status,Message");
  ASSERT_TRUE(dd);
  EXPECT_EQ(dd->count, 5);
  EXPECT_EQ(dd->time, 0);
  EXPECT_EQ(dd->message, 4);
  auto cw = ReadCsvHeader("@timestamp,@message,@logStream\r");
  ASSERT_TRUE(cw);
  EXPECT_EQ(cw->message, 1);
  auto splunk = ReadCsvHeader("\"_time\",\"host\",\"source\",\"_raw\"");
  ASSERT_TRUE(splunk);
  EXPECT_EQ(splunk->message, 3);
  EXPECT_TRUE(ReadCsvHeader("> Date,Host,Service,Status,Message"));
  EXPECT_TRUE(ReadCsvHeader("    Date,Host,Service,Status,Message"));
  // A log line, a sentence, a header without a message column: no header.
  EXPECT_FALSE(ReadCsvHeader("INFO 08-18 18:00:00 [core.py:1] a,b"));
  EXPECT_FALSE(ReadCsvHeader("Date,Host,Service"));
  EXPECT_FALSE(ReadCsvHeader("message"));
  EXPECT_FALSE(ReadCsvHeader(""));
}

TEST(CsvExport, RowsGiveTheMessageAndItsTime) {
  const CsvColumns dd = *ReadCsvHeader("Date,Host,Service,Status,Message");
  std::string message;
  std::string_view time;
  ASSERT_TRUE(ReadCsvRow(
      "2025-08-18T18:00:53.555Z,a100,vllm,error,\"  File \"\"/x/gpu_model_runner.py\"\", line "
      "2496, in capture_model\"",
      dd, &message, &time));
  EXPECT_EQ(time, "2025-08-18T18:00:53.555Z");
  EXPECT_EQ(message, "  File \"/x/gpu_model_runner.py\", line 2496, in capture_model");
  // Unquoted, commas and all (the exporter did not quote it).
  ASSERT_TRUE(
      ReadCsvRow("2025-08-18T18:00:00.000Z,a100,vllm,info,INFO a, b, c", dd, &message, &time));
  EXPECT_EQ(message, "INFO a, b, c");
  // A message column before others: the columns after it are counted from the end.
  const CsvColumns cw = *ReadCsvHeader("@timestamp,@message,@logStream");
  ASSERT_TRUE(ReadCsvRow("2025-06-03 14:21:23.866,Killed, by the kernel,sglang/q/5e2f", cw,
                         &message, &time));
  EXPECT_EQ(message, "Killed, by the kernel");
  EXPECT_EQ(time, "2025-06-03 14:21:23.866");
  // Too few columns: not a row of this export.
  EXPECT_FALSE(ReadCsvRow("just text", dd, &message, &time));
  EXPECT_FALSE(ReadCsvRow("", dd, &message, &time));
}

// Azure Log Analytics: the zone after the time column's name, its own message column names, and
// a US-style time with a comma and a 12-hour clock.
TEST(CsvExport, AzureLogAnalyticsExport) {
  const auto az = ReadCsvHeader(R"("TimeGenerated [UTC]","PodName","LogSource","LogMessage")");
  ASSERT_TRUE(az.has_value());
  EXPECT_EQ(az->time, 0);
  EXPECT_EQ(az->message, 3);
  CivilTime t;
  ASSERT_TRUE(ParseUsPortalTime("2/11/2025, 1:05:03.004 PM", t));
  EXPECT_EQ(t.year, 2025);
  EXPECT_EQ(t.month, 2);
  EXPECT_EQ(t.day, 11);
  EXPECT_EQ(t.hour, 13);
  EXPECT_EQ(t.millis, 4);
  ASSERT_TRUE(ParseUsPortalTime("12/31/2024 23:59:59", t));
  EXPECT_EQ(t.hour, 23);
  EXPECT_FALSE(ParseUsPortalTime("13/01/2025, 1:00:00 PM", t));
  EXPECT_FALSE(ParseUsPortalTime("2/11/2025, 13:05:03 PM", t));
  EXPECT_FALSE(ParseUsPortalTime("2/11/2025, 1:05:03 PM and more", t));
}

}  // namespace
}  // namespace spinup
