#include "logs/rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "logs/embedded_rules.h"
#include "logs/line_parser.h"
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
  // (A cause's own pattern may match the line too: "cause." rules are evidence, not events.)
  std::erase_if(m,
                [&](int i) { return r->rules()[static_cast<size_t>(i)].id.starts_with("cause."); });
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(r->rules()[static_cast<size_t>(m[0])].id, "sglang.dist_begin");
}

// A rule no cheap test can pass over runs its regex on every line of every log: the shipped rules
// are each written so that FilteredRE2 finds an atom (5+ literal bytes every match holds) or, when
// anchored, a match range.
TEST(RuleSet, NoShippedRuleIsTriedOnEveryLine) {
  auto r = RuleSet::LoadEmbedded();
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int i : r->RulesTriedOnEveryLine()) {
    ADD_FAILURE() << r->rules()[static_cast<size_t>(i)].id << " /" << r->regex(i).pattern() << "/";
  }
  // The check itself can fail: a rule made of short words and character classes has no atom.
  auto loose = RuleSet::LoadEmbedded();
  ASSERT_TRUE(loose.ok());
  const char* short_words = R"({"rules": [
    {"id": "t.loose", "regex": "\\bab\\s+cd\\b", "emit": "error"}]})";
  ASSERT_TRUE(loose->AddFile("loose.json", short_words).ok());
  ASSERT_TRUE(loose->Compile().ok());
  EXPECT_EQ(loose->RulesTriedOnEveryLine().size(), 1u);
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

// "ranks" is engine knowledge: a file teaches its engine's coordinators and lockstep phases; an
// engine no file describes has neither, and a bad entry names its file.
TEST(RuleSet, RanksAreReadPerEngine) {
  auto r = RuleSet::LoadEmbedded();
  ASSERT_TRUE(r.ok());
  const EngineRanks vllm = r->knowledge().Ranks("vllm");
  EXPECT_EQ(vllm.coordinators, (std::vector<std::string>{"EngineCore", "APIServer"}));
  EXPECT_EQ(vllm.lockstep_from, Phase::kKvCache);
  EXPECT_EQ(vllm.independent, (std::vector<std::string>{"DP"}));
  EXPECT_TRUE(r->knowledge().Ranks("sglang").coordinators.empty());
  EXPECT_TRUE(r->knowledge().Ranks("tgi").independent.empty());
  EXPECT_TRUE(r->knowledge().Ranks("tgi").own_main);
  EXPECT_TRUE(r->knowledge().Ranks("trtllm").own_main);
  EXPECT_FALSE(vllm.own_main);
  EXPECT_FALSE(r->knowledge().Ranks("nobody").lockstep_from.has_value());
  ASSERT_TRUE(
      r->AddFile("my.json", R"({"engine": "vllm", "ranks": {"lockstep_from": "cuda_graph"}})")
          .ok());
  EXPECT_EQ(r->knowledge().Ranks("vllm").lockstep_from, Phase::kCudaGraph);  // the last file wins
  EXPECT_TRUE(r->knowledge().Ranks("vllm").coordinators.empty());

  for (const char* bad :
       {R"({"ranks": {"lockstep_from": "kv_cache"}})", R"({"engine": "e", "ranks": ["kv_cache"]})",
        R"({"engine": "e", "ranks": {"lockstep": "kv_cache"}})",
        R"({"engine": "e", "ranks": {"lockstep_from": "soon"}})",
        R"({"engine": "e", "ranks": {"coordinators": [""]}})",
        R"({"engine": "e", "ranks": {"independent": [""]}})",
        R"({"engine": "e", "ranks": {"independent": "DP", "lockstep_from": 3}})"}) {
    RuleSet rs;
    Status st = rs.AddFile("bad.json", bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("bad.json:"), std::string::npos) << st.message();
  }
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

// Match picks candidates with prefilters and literal shortcuts; MatchEveryRule runs every
// regex. They must agree on every message, whatever its case or where it starts; and each
// engine's subset must give that answer less the other engines' rules.
void ExpectSameMatches(const RuleSet& rs, std::string_view message, int* lines_matched) {
  std::vector<int> fast, every;
  rs.Match(message, &fast);
  rs.MatchEveryRule(message, &every);
  EXPECT_EQ(fast, every) << "message: " << message;
  if (!every.empty()) ++*lines_matched;
  std::vector<std::string> engines = rs.Engines();
  engines.push_back("no.such.engine");  // the generic rules alone
  for (const auto& engine : engines) {
    std::vector<int> want;
    for (int i : every) {
      const LogRule& r = rs.rules()[static_cast<size_t>(i)];
      if (r.engine == "generic" || r.engine == engine) want.push_back(i);
    }
    rs.Match(message, &fast, rs.EngineSubset(engine));
    EXPECT_EQ(fast, want) << "engine " << engine << ", message: " << message;
  }
}

void ExpectSameMatchesAllForms(const RuleSet& rs, std::string_view line, int* lines_matched) {
  std::string scratch;
  std::string_view clean = CleanLine(line, &scratch);
  std::string_view msg = ParseLine(clean).message;
  ExpectSameMatches(rs, line, lines_matched);
  ExpectSameMatches(rs, msg, lines_matched);
  std::string lower(msg), upper(msg);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ExpectSameMatches(rs, lower, lines_matched);
  ExpectSameMatches(rs, upper, lines_matched);
  // Every word start, so anchored rules meet text that is not at the line start.
  for (size_t i = 0; i < msg.size(); ++i) {
    if (msg[i] == ' ') ExpectSameMatches(rs, msg.substr(i + 1), lines_matched);
  }
  ExpectSameMatches(rs, msg.substr(0, msg.size() / 2), lines_matched);
}

TEST(RuleSet, FastMatchAgreesWithEveryRuleOnTheCorpus) {
  auto shared = testing::SharedDir();
  if (!shared || !std::filesystem::is_directory(*shared / "corpus")) {
    GTEST_SKIP() << "../shared/corpus is absent: the corpus match comparison is skipped";
  }
  auto rs = RuleSet::LoadEmbedded();
  ASSERT_TRUE(rs.ok()) << rs.status().message();
  int files = 0, matched = 0;
  for (const auto& entry : std::filesystem::directory_iterator(*shared / "corpus")) {
    if (entry.path().extension() != ".log") continue;
    ++files;
    std::string text = testing::ReadFile(entry.path());
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find_first_of("\r\n", start);
      if (end == std::string::npos) end = text.size();
      ExpectSameMatchesAllForms(*rs, std::string_view(text).substr(start, end - start), &matched);
      start = end + 1;
    }
  }
  EXPECT_GE(files, 30);
  EXPECT_GE(matched, 300);  // the comparison saw many lines that do match
}

// Shapes the fast path treats specially: plain literals (with escapes), anchored rules with
// tight, loose and no match ranges, case-insensitive rules, rules without usable atoms, a rule
// that matches the empty message.
constexpr const char* kAwkwardRules = R"json({"engine": "odd", "rules": [
    {"id": "odd.prefix", "regex": "^Plain \\(literal\\) \\[x\\]\\.", "emit": "info"},
    {"id": "odd.substr", "regex": "a\\.b\\|c\\/d", "emit": "info"},
    {"id": "odd.icase", "regex": "(?i)^hello world", "emit": "info"},
    {"id": "odd.icase_sub", "regex": "(?i)mixed CASE here", "emit": "info"},
    {"id": "odd.loose", "regex": "^\\s*spaced\\.out\\(", "emit": "info"},
    {"id": "odd.alt", "regex": "^(?:Zebra|Aardvark) says", "emit": "info"},
    {"id": "odd.dotstar", "regex": "^.*tail end$", "emit": "info"},
    {"id": "odd.short", "regex": "\\d+ GB", "emit": "info"},
    {"id": "odd.empty", "regex": "x*", "emit": "info"},
    {"id": "odd.toplevel_alt", "regex": "^first|second", "emit": "info"},
    {"id": "odd.end", "regex": "^done$", "emit": "info"},
    {"id": "odd.latin", "regex": "caf\u00e9 time", "emit": "info"},
    {"id": "odd.class_alt", "regex": "^q[(|]|zz top", "emit": "info"},
    {"id": "odd.both", "regex": "^Yak|^Gnu shout", "emit": "info"},
    {"id": "odd.posix", "regex": "^[[:digit:]]+ apples|pears", "emit": "info"},
    {"id": "odd.alt_group", "regex": "^(?:Foo bar|Baz qux\\.)", "emit": "info"},
    {"id": "odd.alt_mixed", "regex": "lit one|^lit two", "emit": "info"},
    {"id": "odd.two_groups", "regex": "^(ab)(cd)", "emit": "info"},
    {"id": "odd.flag_group", "regex": "^(?i:xyzzy|plugh)", "emit": "info"},
    {"id": "odd.and", "regex": "alpha.{0,40}omega|gamma ray", "emit": "info"},
    {"id": "odd.many", "regex": "one1|two22|three|four4|five5|sixsix|seven7|eight8", "emit": "info"}
  ]})json";

constexpr std::string_view kAwkwardMessages[] = {"",
                                                 "P",
                                                 "Plain (literal) [x].",
                                                 "Plain (literal) [x]",
                                                 "xx Plain (literal) [x].",
                                                 "plain (literal) [x].",
                                                 "say a.b|c/d now",
                                                 "a.b|c/",
                                                 "HELLO WORLD!",
                                                 "hello worl",
                                                 "Hello World",
                                                 "xHello World",
                                                 "some MIXED case HERE",
                                                 "   spaced.out(",
                                                 "spaced.out(",
                                                 "\tspaced.out(",
                                                 " x spaced.out(",
                                                 "Zebra says",
                                                 "Aardvark says hi",
                                                 "Moose says",
                                                 "Aardvark",
                                                 "the tail end",
                                                 "tail end",
                                                 "the tail end.",
                                                 "12 GB",
                                                 "GB",
                                                 "1 gb",
                                                 "first thing",
                                                 "a first",
                                                 "the second",
                                                 "done",
                                                 "done ",
                                                 "undone",
                                                 "caf\xc3\xa9 time",
                                                 "caf\xe9 time",
                                                 "\xff\xfe",
                                                 "Init torch distributed begin.",
                                                 "Init torch distributed begin",
                                                 "Load weight end. elapsed=3.5 s, x",
                                                 "Prefill batch. #new-seq: 1",
                                                 "  warnings.warn(",
                                                 "Decode batch.",
                                                 "the zz top",
                                                 "q(",
                                                 "q|",
                                                 "Yak",
                                                 "Gnu shout",
                                                 "x Gnu shout",
                                                 "12 apples",
                                                 "some pears",
                                                 "alpha only",
                                                 "only omega",
                                                 "alpha then omega",
                                                 "omega then alpha",
                                                 "a gamma ray",
                                                 "ALPHA OMEGA",
                                                 "seven7",
                                                 "eight8 x",
                                                 "sixsi",
                                                 "Foo bar",
                                                 "x Foo bar",
                                                 "Baz qux.",
                                                 "Baz qux",
                                                 "has lit one",
                                                 "lit two",
                                                 "has lit two",
                                                 "abcd",
                                                 "xabcd",
                                                 "XYZZY",
                                                 "Plugh!",
                                                 "a plugh"};

Result<RuleSet> AwkwardRuleSet() {
  auto rs = RuleSet::LoadEmbedded();
  if (!rs.ok()) return rs;
  if (auto st = rs->AddFile("odd.json", kAwkwardRules); !st.ok()) return st;
  if (auto st = rs->Compile(); !st.ok()) return st;
  return rs;
}

TEST(RuleSet, FastMatchAgreesWithEveryRuleOnAwkwardRegexes) {
  auto rs = AwkwardRuleSet();
  ASSERT_TRUE(rs.ok()) << rs.status().ToString();
  int matched = 0;
  for (std::string_view m : kAwkwardMessages) ExpectSameMatchesAllForms(*rs, m, &matched);
  EXPECT_GE(matched, 40);  // "x*" matches every message
}

TEST(RuleSet, FastMatchFindsAwkwardRegexesWhereTheyMatch) {
  auto rs = AwkwardRuleSet();
  ASSERT_TRUE(rs.ok()) << rs.status().ToString();
  std::vector<int> m;
  rs->Match("Zebra says", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.alt")), m.end());
  rs->Match("Plain (literal) [x]. more", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.prefix")), m.end());
  rs->Match("hello WORLD", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.icase")), m.end());
  rs->Match("alpha only", &m);
  EXPECT_EQ(std::find(m.begin(), m.end(), rs->FindRule("odd.and")), m.end());
  rs->Match("alpha, then omega", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.and")), m.end());
  rs->Match("Baz qux. done", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.alt_group")), m.end());
  rs->Match("x lit two", &m);
  EXPECT_EQ(std::find(m.begin(), m.end(), rs->FindRule("odd.alt_mixed")), m.end());
  rs->Match("the zz top", &m);
  EXPECT_NE(std::find(m.begin(), m.end(), rs->FindRule("odd.class_alt")), m.end());
  rs->Match("", &m);
  EXPECT_EQ(m, std::vector<int>{rs->FindRule("odd.empty")});
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// Per rule, on how many of `messages` its regex ran without matching.
std::vector<int> RegexRunsInVain(const RuleSet& rs, const std::vector<std::string>& messages) {
  std::vector<int> in_vain(rs.rules().size(), 0), matched, runs;
  for (const std::string& message : messages) {
    rs.Match(message, &matched, 0, &runs);
    for (int i : runs) {
      if (!std::binary_search(matched.begin(), matched.end(), i)) ++in_vain[static_cast<size_t>(i)];
    }
  }
  return in_vain;
}

// What a rule costs a log is how often its regex runs for nothing: the cheap tests in front of it
// (atoms, match ranges, needed bytes) should keep that rare. On the messages of the corpus's dev
// half (even case numbers), no rule may run its regex in vain on more than one line in 25, and
// all of them together on more than one run in two lines: a rule that does (an anchored rule
// whose start admits every "[" line, an atom in every vLLM server line) slows every log down.
TEST(RuleSet, NoShippedRuleRunsItsRegexInVainOnManyCorpusLines) {
  auto shared = testing::SharedDir();
  if (!shared || !std::filesystem::is_directory(*shared / "corpus")) {
    GTEST_SKIP() << "../shared/corpus is absent: the regex run count is skipped";
  }
  std::vector<std::string> messages;
  for (const auto& entry : std::filesystem::directory_iterator(*shared / "corpus")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".log" || name.size() < 3 || (name[2] - '0') % 2 != 0) continue;
    const std::string text = testing::ReadFile(entry.path());
    for (size_t start = 0; start < text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      messages.emplace_back(ParseLine(std::string_view(text).substr(start, end - start)).message);
      start = end + 1;
    }
  }
  ASSERT_GE(messages.size(), 400u);
  const int lines = static_cast<int>(messages.size());
  auto rs = RuleSet::LoadEmbedded();
  ASSERT_TRUE(rs.ok()) << rs.status().message();
  const std::vector<int> in_vain = RegexRunsInVain(*rs, messages);
  int total = 0;
  for (size_t i = 0; i < in_vain.size(); ++i) {
    total += in_vain[i];
    EXPECT_LE(in_vain[i], lines / 25) << rs->rules()[i].id << " ran its regex in vain on "
                                      << in_vain[i] << " of " << lines << " lines";
  }
  EXPECT_LE(total, lines / 3) << "every rule's regex together ran in vain " << total << " times on "
                              << lines << " lines";
  // The count can fail: a rule anchored at a start most messages share (a capital) runs often.
  const char* capital_start = R"({"rules": [
    {"id": "t.capital", "regex": "^[A-Z]\\w* .*\\b(?:ab|cd)\\s+ef", "emit": "error"}]})";
  ASSERT_TRUE(rs->AddFile("capital.json", capital_start).ok());
  ASSERT_TRUE(rs->Compile().ok());
  EXPECT_GT(RegexRunsInVain(*rs, messages).back(), lines / 25);
}

}  // namespace
}  // namespace spinup
