#include "logs/pattern_matcher.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

namespace spinup {
namespace {

std::vector<int> Fast(const PatternMatcher& m, std::string_view message, int subset = 0) {
  std::vector<int> out;
  m.Match(message, &out, subset);
  return out;
}

std::vector<int> Every(const PatternMatcher& m, std::string_view message) {
  std::vector<int> out;
  m.MatchEveryRule(message, &out);
  return out;
}

// The scan looks up a 4-byte gram at every other offset of the message, and each atom is
// indexed by two neighbouring grams: an atom of the shortest indexed size (5 bytes) must be
// found at either parity, at both ends of the message, in any letter case.
TEST(PatternMatcher, ShortAtomIsFoundAtEveryOffsetInAnyCase) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"(?i)abcde\\d", "(?i)vwxyz!"}).ok());
  for (size_t pad = 0; pad < 10; ++pad) {
    for (std::string atom : {"abcde7", "ABCDE7", "aBcDe7"}) {
      const std::string front = std::string(pad, '.') + atom;
      const std::string back = atom + std::string(pad, '.');
      EXPECT_EQ(Fast(m, front), std::vector<int>{0}) << front;
      EXPECT_EQ(Fast(m, back), std::vector<int>{0}) << back;
    }
    const std::string shout = std::string(pad, ' ') + "VwXyZ!";
    EXPECT_EQ(Fast(m, shout), std::vector<int>{1}) << shout;
    EXPECT_EQ(Fast(m, shout), Every(m, shout));
  }
  EXPECT_TRUE(Fast(m, "abcd7").empty());
  EXPECT_TRUE(Fast(m, "bcde7").empty());
}

// Atoms that share most of their words ("loading safetensors using ..."): the index prefers
// grams the other atoms lack, and each atom must still be found on its own line only.
TEST(PatternMatcher, AtomsSharingWordsAreEachFound) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"Loading safetensors using runai .*streamer",
                         "Loading safetensors using instanttensor",
                         "Loading safetensors checkpoint shards: +\\d+%"})
                  .ok());
  EXPECT_EQ(Fast(m, "Loading safetensors using runai model streamer"), std::vector<int>{0});
  EXPECT_EQ(Fast(m, "Loading safetensors using instanttensor"), std::vector<int>{1});
  EXPECT_EQ(Fast(m, "Loading safetensors checkpoint shards:  50% Completed"), std::vector<int>{2});
  EXPECT_TRUE(Fast(m, "Loading safetensors").empty());
  EXPECT_TRUE(Fast(m, "Loading safetensors using something else").empty());
}

// A regex whose literals do not cover every match must never be skipped for lacking them: a
// branch without any literal runs the rule on every message.
TEST(PatternMatcher, BranchWithoutLiteralIsNeverSkipped) {
  PatternMatcher m;
  ASSERT_TRUE(
      m.Compile({"timeout after \\d+ s|^\\d{3}$", "(?i)cuda error: out of memory", "ab|cdefgh"})
          .ok());
  EXPECT_EQ(Fast(m, "404"), std::vector<int>{0});
  EXPECT_EQ(Fast(m, "timeout after 30 s"), std::vector<int>{0});
  EXPECT_EQ(Fast(m, "RuntimeError: CUDA ERROR: OUT OF MEMORY"), std::vector<int>{1});
  EXPECT_EQ(Fast(m, "xaby"), std::vector<int>{2});  // "ab" is too short to be an atom
  for (std::string_view msg : {"404", "4045", "timeout after s", "cuda error: out of memor", ""}) {
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

// The empty message (a line that is only a prefix) is answered from a list made at Compile.
TEST(PatternMatcher, EmptyMessageMatchesWhatRunningEveryRegexMatches) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"x*", "^$", "a", "^\\s*$"}).ok());
  EXPECT_EQ(Fast(m, ""), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(Fast(m, ""), Every(m, ""));
  EXPECT_EQ(Fast(m, "a"), (std::vector<int>{0, 2}));
}

TEST(PatternMatcher, SubsetAnswersForItsPatternsOnly) {
  PatternMatcher m;
  const std::vector<std::string> regexes = {"alpha beta", "^gamma",      "delta \\d+", "x*",
                                            "alpha",      "(?i)epsilon", "^gamma ray", "zeta|eta"};
  ASSERT_TRUE(m.Compile(regexes).ok());
  const std::vector<bool> keep = {true, false, true, true, false, true, false, true};
  const int subset = m.AddSubset(keep);
  EXPECT_GT(subset, 0);
  int nonempty = 0;
  for (std::string_view msg : {"alpha beta gamma", "gamma delta 5", "gamma ray", "", "zzz",
                               "EPSILON and alpha", "beta", "the zeta", "delta 7 alpha beta"}) {
    std::vector<int> want;
    for (int i : Every(m, msg)) {
      if (keep[static_cast<size_t>(i)]) want.push_back(i);
    }
    EXPECT_EQ(Fast(m, msg, subset), want) << msg;
    EXPECT_EQ(Fast(m, msg, 0), Every(m, msg)) << msg;
    nonempty += want.size() > 1;  // more than "x*", which matches everything
  }
  EXPECT_GE(nonempty, 4);
  EXPECT_TRUE(Fast(m, "alpha beta", 99).empty());
  EXPECT_TRUE(Fast(m, "alpha beta", -1).empty());
  // A new Compile drops the subsets: their ids name nothing until added again.
  ASSERT_TRUE(m.Compile({"alpha"}).ok());
  EXPECT_TRUE(Fast(m, "alpha", subset).empty());
  EXPECT_EQ(Fast(m, "alpha"), std::vector<int>{0});
}

}  // namespace
}  // namespace spinup
