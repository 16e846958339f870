// Prefixes taught by a rules file: a new engine's lines are read through them (time, level, rank,
// message), they identify the engine, and bad ones are refused with their file and line.
#include "logs/line_prefixes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "logs/rules.h"

namespace spinup {
namespace {

const char* kToy = R"({"engine": "toy",
 "prefixes": [{"regex": "(?P<time>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ) (?P<level>[A-Z]+) \\[(?P<rank>w\\d+)\\] "}],
 "phase_order": ["launch", "weight_load", "ready"],
 "rules": [
  {"id": "toy.load", "regex": "^loading weights", "emit": "phase_begin", "phase": "weight_load"},
  {"id": "toy.ready", "regex": "^serving", "emit": "ready"}
 ]}
)";

Result<RuleSet> Toy() {
  RuleSet rs = std::move(RuleSet::LoadEmbedded()).value();
  if (Status st = rs.AddFile("toy.json", kToy); !st.ok()) return st;
  if (Status st = rs.Compile(); !st.ok()) return st;
  return rs;
}

TEST(LinePrefixes, AMatchGivesTimeLevelRankAndMessage) {
  auto rs = Toy();
  ASSERT_TRUE(rs.ok()) << rs.status().message();
  auto m = rs->prefixes().Match("2026-03-09T12:00:01Z INFO [w3] loading weights from /m");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m->engine, "toy");
  EXPECT_EQ(m->time, "2026-03-09T12:00:01Z");
  EXPECT_EQ(m->level, "INFO");
  EXPECT_EQ(m->rank, "w3");
  EXPECT_EQ(m->message, "loading weights from /m");
  // Anchored: the same text later in a line is not a prefix.
  EXPECT_FALSE(rs->prefixes().Match("x 2026-03-09T12:00:01Z INFO [w3] y").has_value());
}

TEST(LinePrefixes, ANewEnginesLogIsExplainedThroughItsPrefix) {
  auto rs = Toy();
  ASSERT_TRUE(rs.ok()) << rs.status().message();
  SessionOptions o;
  o.reference_year = 2026;
  StartupSession s(*rs, o);
  s.OnLogText(0,
              "2026-03-09T12:00:01Z INFO [w0] loading weights from /m\n"
              "2026-03-09T12:05:01Z INFO [w0] serving on :8000\n",
              std::nullopt);
  s.OnSourceEnd(0, std::nullopt);
  Verdict v = s.Evaluate(std::nullopt);
  EXPECT_EQ(v.engine, "toy");
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  ASSERT_FALSE(v.timeline.empty());
  EXPECT_EQ(v.timeline.front().phase, Phase::kWeightLoad);
  ASSERT_TRUE(v.timeline.front().seconds.has_value());
  EXPECT_DOUBLE_EQ(*v.timeline.front().seconds, 300);  // the prefix's time was read
  EXPECT_EQ(v.timeline.front().rank, "w0");
}

TEST(LinePrefixes, BadPrefixesAreRefusedWithTheirFile) {
  RuleSet a;
  Status st = a.AddFile("nameless.json", R"({"prefixes": [{"regex": "x "}]})");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nameless.json:1"), std::string::npos) << st.message();

  RuleSet b;
  ASSERT_TRUE(
      b.AddFile("group.json", R"({"engine": "toy", "prefixes": [{"regex": "(?P<when>\\d+) "}]})")
          .ok());
  st = b.Compile();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("unknown group \"when\""), std::string::npos) << st.message();

  RuleSet c;
  ASSERT_TRUE(
      c.AddFile("bad.json", R"({"engine": "toy", "prefixes": [{"regex": "(unclosed"}]})").ok());
  st = c.Compile();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad.json"), std::string::npos) << st.message();
}

// Match refuses a line by its first byte before running the regex: that must never refuse a line
// the regex matches (case folding, alternations, optional parts, a regex that matches nothing).
TEST(LinePrefixes, TheFirstByteTestRefusesOnlyLinesTheRegexRefuses) {
  const std::vector<std::string> regexes = {"\\[(?P<rank>gpu=\\d{1,3})\\] ",
                                            "(?i)worker(?P<rank>\\d+): ",
                                            "(?:a|zz|M)x? ",
                                            "x*y ",
                                            "(?P<level>[A-Z]+) ",
                                            "\\d+\\.\\d+ ",
                                            "(?:\\xff|\\x01)q ",
                                            "x?"};
  const std::vector<std::string> lines = {"",
                                          "[gpu=3] hi",
                                          "[gpu=33]",
                                          "Worker7: go",
                                          "WORKER7: go",
                                          "worker7: go",
                                          "a go",
                                          "zz go",
                                          "Mx go",
                                          "y go",
                                          "xxy go",
                                          "INFO msg",
                                          "12.5 s",
                                          "\xff"
                                          "q z",
                                          "\x01q z",
                                          "q",
                                          "x",
                                          " x"};
  for (const auto& re : regexes) {
    PrefixBook book;
    book.Add({"toy", re, "t.json:1"});
    ASSERT_TRUE(book.Compile().ok()) << re;
    RE2 direct("^(?:" + re + ")");
    for (const auto& line : lines) {
      re2::StringPiece whole;
      const bool want = direct.Match(line, 0, line.size(), RE2::ANCHOR_START, &whole, 1);
      auto got = book.Match(line);
      EXPECT_EQ(got.has_value(), want) << re << " on '" << line << "'";
      if (got && want) {
        EXPECT_EQ(got->message, std::string_view(line).substr(whole.size()));
      }
    }
  }
}

}  // namespace
}  // namespace spinup
