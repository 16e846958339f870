#include "sink/html_report.h"

#include <gtest/gtest.h>

#include <re2/re2.h>

#include <sstream>

#include "fleet_fixtures.h"
#include "sink/event_replay.h"
#include "test_util.h"

namespace spinup {
namespace {

std::string ReportOf(const std::string& stream, std::string* warnings = nullptr) {
  std::istringstream in(stream);
  std::ostringstream warn;
  int64_t now = 0;
  HtmlReportSink sink({}, [&] { return now; });
  auto stats = ReplayEventStream(
      in, "events.jsonl", {&sink}, [&](int64_t t) { now = t; }, warn);
  EXPECT_TRUE(stats.ok()) << stats.status().message();
  if (warnings) *warnings = warn.str();
  return sink.Render();
}

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

TEST(HtmlReport, EscapeCoversMarkup) {
  EXPECT_EQ(HtmlEscape("<script>alert(\"x\")</script> & 'y'"),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
  EXPECT_EQ(HtmlEscape("\x1b[31mred"), "&#xFFFD;[31mred");
}

TEST(HtmlReport, LogTextIsEscapedEverywhere) {
  HtmlReportSink sink({}, [] { return int64_t{1'000'000}; });
  LogEvent e;
  e.kind = LogEvent::Kind::kError;
  e.time_ms = 999'000;
  e.rank = "TP0<img src=x onerror=alert(1)>";
  e.text = "RuntimeError: <script>alert('pwned')</script> see https://example.com/help";
  e.line_no = 42;
  sink.OnLogEvent(e);
  Verdict v;
  v.state = State::kCrashed;
  v.headline = "CRASHED <script>bad()</script>";
  v.errors = {"<script>also()</script>"};
  v.evidence = {"<b>bold</b>"};
  v.findings = {{"id<x>", "<i>title</i>", {"<e>"}, "fix <script>", "why <u>"}};
  v.ranks = {{"TP0<img src=x onerror=alert(1)>", Phase::kKvCache, 990'000}};
  v.timeline = {
      {"TP0<img src=x onerror=alert(1)>", Phase::kKvCache, 990'000, 999'000, std::nullopt, true}};
  sink.Finish(v);
  std::string html = sink.Render();
  // Only the report's own inline script; none of the log's.
  EXPECT_EQ(Count(html, "<script"), 1u) << html;
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<script>bad"), std::string::npos);
  EXPECT_EQ(html.find("<script>also"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>bold"), std::string::npos);
  EXPECT_NE(html.find("<b>Why:</b> why &lt;u&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;also()"), std::string::npos);
  // A URL inside log text is text, never a link or a fetch.
  EXPECT_NE(html.find("see https://example.com/help"), std::string::npos);
}

// Every src/href/url()/@import in the file must be local: a report opened on an air-gapped laptop
// or printed from a mail attachment must not fetch anything.
TEST(HtmlReport, SelfContainedNoNetworkReferences) {
  for (const auto& scenario : testing::ScenarioNames()) {
    std::string html = ReportOf(testing::ScenarioStream(scenario));
    re2::StringPiece input(html);
    std::string attr;
    static const RE2 kRemote(
        R"re((?i)((?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//|@import))re");
    EXPECT_FALSE(RE2::PartialMatch(input, kRemote, &attr)) << scenario << ": " << attr;
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("<script src"), std::string::npos);
  }
}

TEST(HtmlReport, VerdictOnTopAndOneBarPerRankAndPhase) {
  std::string warnings;
  std::string html = ReportOf(testing::ScenarioStream("hung_distributed_init", 4), &warnings);
  size_t verdict = html.find("id=\"verdict\"");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("id=\"timeline\""));
  EXPECT_LT(verdict, html.find("id=\"bytes\""));
  EXPECT_NE(html.find("data-state=\"stalled\""), std::string::npos);
  EXPECT_NE(html.find("NCCL_P2P_DISABLE=1"), std::string::npos);         // the fix
  EXPECT_NE(html.find("131 threads in futex wait"), std::string::npos);  // the evidence
  // Times come from the stream's events, also for the final verdict after trailing junk.
  EXPECT_EQ(html.find("1970-01-01"), std::string::npos);
  EXPECT_NE(html.find("from 2025-11-29"), std::string::npos);
  for (int r = 0; r < 4; ++r) {
    for (const char* ph : {"launch", "distributed_init"}) {
      std::string key = "data-rank=\"TP" + std::to_string(r) + "\" data-phase=\"" + ph + "\"";
      EXPECT_EQ(Count(html, key), 1u) << key;
    }
  }
  EXPECT_EQ(Count(html, "data-phase=\"weight_load\""), 0u);
  // The stalled phase is marked slow on every rank.
  EXPECT_EQ(Count(html, "class=\"bar slow\""), 4u);
  // Damaged lines of the stream were reported with file:line, not fatal.
  EXPECT_NE(warnings.find("events.jsonl:"), std::string::npos);
  EXPECT_NE(warnings.find("unknown event type 'hologram'"), std::string::npos);
  EXPECT_NE(warnings.find("not a JSON object"), std::string::npos);
}

TEST(HtmlReport, BytesCurveAndGpuSeriesDrawn) {
  std::string html = ReportOf(testing::ScenarioStream("healthy", 2));
  EXPECT_NE(html.find("data-state=\"ready\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"bytes read\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"read rate (right axis)\""), std::string::npos);
  EXPECT_NE(html.find("storage rate"), std::string::npos);
  EXPECT_NE(html.find("data-series=\"GPU 0\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"GPU 1\""), std::string::npos);
  EXPECT_NE(html.find("140.0 GB"), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
}

TEST(HtmlReport, WithoutGpuSaysSoAndWithoutTimelineStillRenders) {
  HtmlReportSink sink({}, [] { return int64_t{5000}; });
  Sample s;
  s.time_ms = 4000;
  s.gpu_message = "GPU: no NVML";
  sink.OnSample(s);
  Verdict v;
  v.state = State::kStarting;
  sink.Finish(v);
  std::string html = sink.Render();
  EXPECT_NE(html.find("GPU: no NVML"), std::string::npos);
  EXPECT_NE(html.find("No phase timeline was seen."), std::string::npos);
  EXPECT_NE(html.find("data-state=\"starting\""), std::string::npos);
}

TEST(EventReplay, StreamWithoutVerdictIsAnError) {
  std::istringstream in("{\"time\":1,\"type\":\"signal\",\"time_ms\":1}\n");
  std::ostringstream warn;
  HtmlReportSink sink({}, [] { return int64_t{0}; });
  auto r = ReplayEventStream(
      in, "x.jsonl", {&sink}, [](int64_t) {}, warn);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("x.jsonl"), std::string::npos);
}

// Found by report_replay_fuzz: a number where a string or a bool belongs must not throw.
TEST(EventReplay, WrongTypesInOptionalKeysAreTolerated) {
  std::istringstream in(
      "{\"time\":1,\"type\":\"progress\",\"source\":5}\n"
      "{\"time\":2,\"type\":\"verdict\",\"state\":\"ready\",\"phase\":\"ready\","
      "\"final\":\"yes\"}\n");
  std::ostringstream warn;
  HtmlReportSink sink({}, [] { return int64_t{0}; });
  auto r = ReplayEventStream(
      in, "x.jsonl", {&sink}, [](int64_t) {}, warn);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->saw_final);
  ASSERT_TRUE(sink.data().verdict.has_value());
  EXPECT_EQ(sink.data().verdict->state, State::kReady);
}

TEST(EventReplay, CutShortStreamFinishesWithLastVerdict) {
  std::string stream = testing::ScenarioStream("healthy", 2);
  // Drop the final verdict and what follows it.
  stream = stream.substr(0, stream.rfind("\"final\":true"));
  stream = stream.substr(0, stream.rfind('\n') + 1);
  std::istringstream in(stream);
  std::ostringstream warn;
  HtmlReportSink sink({}, [] { return int64_t{0}; });
  auto r = ReplayEventStream(
      in, "x.jsonl", {&sink}, [](int64_t) {}, warn);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->saw_final);
  ASSERT_TRUE(sink.data().verdict.has_value());
  EXPECT_EQ(sink.data().verdict->phase, Phase::kHttpStart);
}

TEST(ReportCommand, WritesFileAndWarnsWithFileAndLine) {
  testing::TempDir dir;
  auto events = dir / "crash.jsonl";
  testing::WriteFile(events, testing::ScenarioStream("crash_kv_cache"));
  auto out = dir / "crash.html";
  auto r = testing::RunSpinup({"report", events.string(), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string html = testing::ReadFile(out);
  EXPECT_NE(html.find("data-state=\"crashed\""), std::string::npos);
  EXPECT_NE(html.find("CUDA out of memory"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(r.err.find(events.string() + ":"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out.string() + ".tmp"));

  auto missing = testing::RunSpinup({"report", (dir / "nope.jsonl").string(), "-o", out.string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.jsonl"), std::string::npos);

  auto to_stdout = testing::RunSpinup({"report", "-"}, testing::ScenarioStream("slow"));
  EXPECT_EQ(to_stdout.exit_code, 0);
  EXPECT_NE(to_stdout.out.find("<!DOCTYPE html>"), std::string::npos);
  EXPECT_NE(to_stdout.out.find("class=\"bar slow\""), std::string::npos);
}

// The header's name is the metrics' `model` label; --job, its old name, still parses but is hidden.
TEST(ReportCommand, ModelNamesTheHeaderAndJobIsItsHiddenOldName) {
  const std::string stream = testing::ScenarioStream("healthy", 2);
  auto by_model = testing::RunSpinup({"report", "-", "--model", "Llama-3-70B"}, stream);
  EXPECT_EQ(by_model.exit_code, 0) << by_model.err;
  EXPECT_NE(by_model.out.find(">model Llama-3-70B"), std::string::npos);
  EXPECT_EQ(by_model.out.find("job "), std::string::npos);
  auto by_job = testing::RunSpinup({"report", "-", "--job", "Llama-3-70B"}, stream);
  EXPECT_EQ(by_job.exit_code, 0) << by_job.err;
  EXPECT_EQ(by_job.out, by_model.out);
  auto help = testing::RunSpinup({"report", "--help"});
  EXPECT_NE(help.out.find("--model"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("--job"), std::string::npos) << help.out;
}

// Issue 11 item 20: a log of 200,000 ranks made a 31 MB report; it is capped like the JSON.
TEST(HtmlReport, ManyRanksAreCapped) {
  int64_t now = 0;
  HtmlReportSink sink({}, [&] { return now; });
  for (int i = 0; i < 200000; ++i) {
    LogEvent e;
    e.kind = LogEvent::Kind::kInfo;
    e.rank = "TP" + std::to_string(i);
    e.text = "loading weights on rank " + std::to_string(i);
    sink.OnLogEvent(e);
  }
  Verdict v;
  v.state = State::kInProgress;
  sink.Finish(v);
  EXPECT_LE(sink.data().last_line_by_rank.size(), 256u);
  std::string html = sink.Render();
  EXPECT_LT(html.size(), 2u << 20);
  EXPECT_NE(html.find("Only the first 256 ranks are shown"), std::string::npos);
}

// A replayed stream is untrusted: durations that add up past the largest double, or a subnormal
// one, made the chart's tick loop run forever (found by report_replay_fuzz). The axes stay small.
TEST(HtmlReport, AbsurdDurationsDrawFewTicks) {
  for (const char* seconds : {"1.7e308", "5e-324", "1e-310", "0"}) {
    std::string stream = std::string(R"({"time": 1, "type": "verdict", "state": "stalled", )") +
                         R"("phase": "launch", "attempts": 1, "timeline": [)" +
                         R"({"rank": "TP0", "phase": "launch", "seconds": )" + seconds + "}, " +
                         R"({"rank": "TP0", "phase": "weight_load", "seconds": )" + seconds + "}]}";
    std::string html = ReportOf(stream + "\n");
    EXPECT_NE(html.find("class=\"bar"), std::string::npos) << seconds;
    EXPECT_LT(Count(html, "class=\"tick\""), 40u) << seconds;
  }
}

}  // namespace
}  // namespace spinup
