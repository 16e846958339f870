#include "sink/metrics_exposition.h"

#include <gtest/gtest.h>

#include <cmath>

namespace spinup {
namespace {

TEST(MetricsExposition, EscapesLabelValues) {
  EXPECT_EQ(EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(EscapeLabelValue("plain"), "plain");
  EXPECT_EQ(EscapeHelp("x\\y\nz \"q\""), "x\\\\y\\nz \"q\"");
}

// Issue 11 item 18: one invalid UTF-8 label value (the default job label is a folder name) must
// not make Prometheus reject the whole scrape.
TEST(MetricsExposition, LabelValuesAreAlwaysValidUtf8) {
  EXPECT_EQ(EscapeLabelValue("caf\xe9"), "caf\xef\xbf\xbd");
  EXPECT_EQ(EscapeLabelValue("a\"b\xff\n"), "a\\\"b\xef\xbf\xbd\\n");
}

TEST(MetricsExposition, FormatsSpecialValues) {
  EXPECT_EQ(FormatMetricValue(std::nan("")), "NaN");
  EXPECT_EQ(FormatMetricValue(INFINITY), "+Inf");
  EXPECT_EQ(FormatMetricValue(-INFINITY), "-Inf");
  EXPECT_EQ(FormatMetricValue(42), "42");
  EXPECT_EQ(FormatMetricValue(250000000000.0), "250000000000");
  EXPECT_EQ(FormatMetricValue(0.25), "0.25");
}

TEST(MetricsExposition, WritesHelpTypeAndSamplesThatParseBack) {
  std::vector<MetricFamily> fams = {
      {"spinup_phase",
       "1 for the current phase\nsecond line \\ backslash",
       MetricType::kGauge,
       {{{{"job", "m"}, {"rank", "TP0"}, {"phase", "weight_load"}}, 1},
        {{{"job", "m"}, {"rank", "TP\"1\n\\"}, {"phase", "kv_cache"}}, 0}}},
      {"spinup_restarts_total", "restarts", MetricType::kCounter, {{{}, 3}}},
      {"spinup_empty", "never shown", MetricType::kGauge, {}},
  };
  std::string text = WriteExposition(fams);
  EXPECT_NE(text.find("# TYPE spinup_phase gauge\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE spinup_restarts_total counter\n"), std::string::npos);
  EXPECT_NE(text.find("spinup_phase{job=\"m\",rank=\"TP\\\"1\\n\\\\\",phase=\"kv_cache\"} 0\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("spinup_empty"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');

  auto parsed = ParseExposition(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->type.at("spinup_phase"), "gauge");
  EXPECT_EQ(parsed->type.at("spinup_restarts_total"), "counter");
  EXPECT_EQ(parsed->help.at("spinup_phase"), "1 for the current phase\nsecond line \\ backslash");
  ASSERT_EQ(parsed->samples.size(), 3u);
  const ParsedSample* odd = parsed->Find("spinup_phase", {{"phase", "kv_cache"}});
  ASSERT_NE(odd, nullptr);
  EXPECT_EQ(odd->labels.at("rank"), "TP\"1\n\\");
  EXPECT_EQ(odd->value, 0);
  const ParsedSample* restarts = parsed->Find("spinup_restarts_total");
  ASSERT_NE(restarts, nullptr);
  EXPECT_EQ(restarts->value, 3);
}

TEST(MetricsExposition, ParserRejectsWhatPrometheusRejects) {
  EXPECT_FALSE(ParseExposition("bad-name 1\n").ok());
  EXPECT_FALSE(ParseExposition("m{a=\"x} 1\n").ok());
  EXPECT_FALSE(ParseExposition("m{a=\"x\\q\"} 1\n").ok());
  EXPECT_FALSE(ParseExposition("m{a=x} 1\n").ok());
  EXPECT_FALSE(ParseExposition("m{a=\"x\"}\n").ok());
  EXPECT_FALSE(ParseExposition("m 1\n# TYPE m gauge\n").ok());
  EXPECT_FALSE(ParseExposition("# TYPE m gaugeish\n").ok());
  EXPECT_FALSE(ParseExposition("m{a=\"1\",a=\"2\"} 1\n").ok());
  EXPECT_TRUE(ParseExposition("# a comment\nm{a=\"1\"} 1 1700000000000\n").ok());
}

TEST(MetricsExposition, NameValidation) {
  EXPECT_TRUE(IsValidMetricName("spinup:rule_x"));
  EXPECT_FALSE(IsValidMetricName("1abc"));
  EXPECT_TRUE(IsValidLabelName("rank"));
  EXPECT_FALSE(IsValidLabelName("__name__"));
  EXPECT_FALSE(IsValidLabelName("a:b"));
}

}  // namespace
}  // namespace spinup
