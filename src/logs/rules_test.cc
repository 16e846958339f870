#include "logs/rules.h"

#include <gtest/gtest.h>

#include "logs/embedded_rules.h"
#include "test_util.h"

namespace spinup {
namespace {

TEST(RuleSet, EmbeddedRulesLoadAndCoverEveryKnownCause) {
  EXPECT_GE(EmbeddedRulesFiles().size(), 5u);
  auto r = RuleSet::LoadEmbedded();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GE(r->causes().size(), 19u);  // ../shared/docs/hang-causes.md rows 1-19
  auto engines = r->Engines();
  EXPECT_NE(std::find(engines.begin(), engines.end(), "sglang"), engines.end());
  EXPECT_NE(std::find(engines.begin(), engines.end(), "vllm"), engines.end());
  EXPECT_EQ(r->Budget("sglang", Phase::kDistributedInit).normal_s, 30);
  EXPECT_EQ(r->Budget("nosuch", Phase::kWeightLoad).normal_s, 120);
  EXPECT_GT(r->Budget("nosuch", Phase::kWeightLoad).per_gib_s, 0);
  std::vector<int> m;
  r->Match("Init torch distributed begin.", &m);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(r->rules()[static_cast<size_t>(m[0])].id, "sglang.dist_begin");
}

TEST(RuleSet, MalformedJsonNamesFileAndLine) {
  RuleSet rs;
  Status st = rs.AddFile("my.json", "{\n  \"rules\": [\n    {\"id\": \"a\",,}\n  ]\n}\n");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::kCorrupt);
  EXPECT_EQ(st.message().rfind("my.json:3: ", 0), 0u) << st.message();
}

TEST(RuleSet, SemanticErrorsNameTheRuleLine) {
  RuleSet rs;
  Status st = rs.AddFile("x.json",
                         "{\n\"engine\": \"e\",\n\"rules\": [\n"
                         "  {\"id\": \"e.ok\", \"regex\": \"a\", \"emit\": \"info\"},\n"
                         "  {\"id\": \"e.bad\", \"regex\": \"b\", \"emit\": \"phase_begin\", "
                         "\"phase\": \"nope\"}\n]}\n");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "x.json:5: unknown phase \"nope\"");

  RuleSet rs2;
  ASSERT_TRUE(
      rs2.AddFile(
             "y.json",
             "{\"rules\": [\n{\"id\": \"y.re\", \"regex\": \"(unclosed\", \"emit\": \"info\"}]}")
          .ok());
  st = rs2.Compile();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("y.json:2: rule \"y.re\": bad regex"), std::string::npos)
      << st.message();

  RuleSet rs3;
  st = rs3.AddFile("z.json",
                   "{\"rules\": [{\"id\": \"z\", \"regex\": \"a\", \"emit\": \"explode\"}]}");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("unknown emit"), std::string::npos);

  RuleSet rs4;
  st = rs4.AddFile("c.json",
                   "{\"causes\": [{\"id\": \"c\", \"title\": \"t\", \"fix\": \"f\", \"when\": "
                   "[{\"states\": [\"stalled\"]}]}]}");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("needs rules, regex, signals or slow_phases"), std::string::npos);
}

TEST(RuleSet, UserFileTeachesANewEngine) {
  auto r = RuleSet::LoadEmbedded();
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->AddFile("myengine.json", R"json({
    "engine": "myengine",
    "phase_order": ["launch", "weight_load", "ready"],
    "rules": [
      {"id": "my.load", "regex": "^LOADING (\\d+)", "emit": "phase_begin", "phase": "weight_load", "rank": 1, "rank_prefix": "gpu"},
      {"id": "my.ready", "regex": "^SERVING", "emit": "ready"}
    ],
    "budgets": [{"phase": "weight_load", "normal_s": 5, "stall_s": 10}],
    "causes": [{"id": "my.cause", "title": "t", "fix": "f", "when": [{"rules": ["my.load"], "states": ["stalled"]}]}]
  })json")
                  .ok());
  ASSERT_TRUE(r->Compile().ok());
  EXPECT_EQ(r->Budget("myengine", Phase::kWeightLoad).stall_s, 10);
  EXPECT_EQ(r->PhaseOrder("myengine").size(), 3u);
  std::vector<int> m;
  r->Match("LOADING 3", &m);
  ASSERT_EQ(m.size(), 1u);
}

TEST(RuleSet, AddPathReportsMissingFile) {
  RuleSet rs;
  Status st = rs.AddPath("/nonexistent/rules.json");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("/nonexistent/rules.json"), std::string::npos);
}

TEST(RuleSet, UnknownRuleInCauseIsAnError) {
  RuleSet rs;
  ASSERT_TRUE(rs.AddFile("c.json",
                         "{\"causes\": [{\"id\": \"c\", \"title\": \"t\", \"fix\": \"f\", "
                         "\"when\": [{\"rules\": [\"no.such\"]}]}]}")
                  .ok());
  Status st = rs.Compile();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("no.such"), std::string::npos);
}

}  // namespace
}  // namespace spinup
