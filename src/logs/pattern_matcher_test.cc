#include "logs/pattern_matcher.h"

#include "logs/pattern_matcher_internal.h"

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

// Formulas over more atoms than a table holds: the atoms that let a rule through alone, a table
// over the others, or the atoms every match needs. Each must let every match through, whichever
// alternative or atom it comes by.
TEST(PatternMatcher, ManyAtomFormulasLetEveryMatchThrough) {
  PatternMatcher m;
  ASSERT_TRUE(
      m.Compile({
                    // needed atoms (", in ", ".py\", line ") and one of many paths
                    "/(?:alpha/(?:one|two|three|four)|beta/(?:five|six|seven)|gamma/eight)"
                    "[\\w/]*\\.py\", line \\d+, in ",
                    // five atoms alone, and a pair that only counts together
                    ", in (?:first_fn|second_fn|third_fn|fourth_fn|fifth_fn)\\s*$|"
                    "runner_file\\.py\", line \\d+, in (?:__init__|capture)\\s*$",
                    // seven alternatives of two atoms each: no atom alone, no atom needed
                    "(?:aaaaa1.*bbbbb1)|(?:aaaaa2.*bbbbb2)|(?:aaaaa3.*bbbbb3)|"
                    "(?:aaaaa4.*bbbbb4)|(?:aaaaa5.*bbbbb5)|(?:aaaaa6.*bbbbb6)|(?:aaaaa7.*bbbbb7)",
                })
          .ok());
  const std::vector<std::string> messages = {
      "File \"/x/beta/six/y.py\", line 12, in run",
      "File \"/x/gamma/eight.py\", line 1, in f",
      "File \"/x/delta/nine.py\", line 12, in run",
      "File \"/x/alpha/one.py\", line 12",
      "  File \"a.py\", line 3, in third_fn",
      "  File \"runner_file.py\", line 3, in capture",
      "  File \"runner_file.py\", line 3, in __init__  ",
      "  File \"other.py\", line 3, in __init__",
      "  File \"runner_file.py\", line 3, in run",
      "aaaaa4 then bbbbb4",
      "aaaaa4 then bbbbb5",
      "AAAAA7 AND BBBBB7",
      "bbbbb1 before aaaaa1",
  };
  int matched = 0;
  for (const auto& msg : messages) {
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
    matched += !Every(m, msg).empty();
  }
  EXPECT_EQ(matched, 6);
}

// A loose clause over an alternation is split: each top-level alternative keeps its own clause
// and regex. A flag group at the top level ("(?i)" before the first '|') reaches every
// alternative after it, so that regex must not be split; one inside a group stays there.
TEST(PatternMatcher, SplitAlternativesMatchAsTheWholeRegex) {
  PatternMatcher m;
  const std::string pairs =
      "alpha\\d+ bravo|charlie\\d+ delta|echoes\\d+ foxtrot|golfs\\d+ hotel|"
      "india\\d+ juliet|kilos\\d+ limas|mikes\\d+ novembers|oscar\\d+ papas";
  ASSERT_TRUE(m.Compile({pairs, "(?i)" + pairs, "(?:(?i)quebec\\d+ romeo)|(?:" + pairs + ")",
                         pairs + "|^\\d{3}$", pairs + "|\\Qzulu1|zulu2"})
                  .ok());
  const std::vector<std::pair<std::string, std::vector<int>>> cases = {
      {"alpha12 bravo", {0, 1, 2, 3, 4}},
      {"x oscar7 papas y", {0, 1, 2, 3, 4}},
      {"OSCAR7 PAPAS", {1}},
      {"QUEBEC1 ROMEO", {2}},
      {"quebec1 romeo", {2}},
      {"alpha bravo", {}},
      {"alpha1 delta", {}},
      {"charlie1 bravo and india juliet", {}},
      {"mikes2 novembers", {0, 1, 2, 3, 4}},
      {"404", {3}},
      {"zulu1|zulu2", {4}},
      {"zulu1 zulu2", {}},
      {"zulu2 alone", {}},
  };
  for (const auto& [msg, want] : cases) {
    EXPECT_EQ(Fast(m, msg), want) << msg;
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

// Any unanchored alternation is split, and an alternative of plain literals (maybe in a group of
// its own, maybe anchored) is a substring or prefix compare: exact, so letter case counts there
// though the atoms that select it are found in any case.
TEST(PatternMatcher, LiteralAlternativesAreCompared) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"(?:No route to host)|(?:Call to connect timeout)|connectFullMesh failed",
                         "(?:is (?:not|never) supported)|(?:^Fatal abort)|(?:Error: boom|Oops!)",
                         "(?:(?i)requires flash att)|(?:Unsupported dtype)|\\d+ devices lost"})
                  .ok());
  const std::vector<std::pair<std::string, std::vector<int>>> cases = {
      {"No route to host", {0}},
      {"no route to host", {}},
      {"x Call to connect timeout y", {0}},
      {"connectFullMesh failed: Call to connect timeout", {0}},
      {"Fatal abort now", {1}},
      {"x Fatal abort", {}},
      {"it is never supported", {1}},
      {"it is sometimes supported", {}},
      {"Oops! Error: boom", {1}},
      {"REQUIRES FLASH ATTention", {2}},
      {"unsupported dtype", {}},
      {"Unsupported dtype bf16", {2}},
      {"3 devices lost", {2}},
  };
  for (const auto& [msg, want] : cases) {
    EXPECT_EQ(Fast(m, msg), want) << msg;
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

// A regex of literal bytes and groups of literal alternatives, maybe ending in "$" or "\\s*$" (a
// traceback frame's rule), is a set of strings compared at the message's end: RE2's '$' is the
// text's end (not before a final newline) and its \s is [\t\n\f\r ].
TEST(PatternMatcher, LiteralSetsMatchAtTheEnd) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({", in (?:load_model|load_weights)\\s*$", "Started (?:server|worker)$",
                         "xyz(?:abcde|bcdef)yy\\s*$|(?:^Ready (?:now|soon)$)"})
                  .ok());
  const std::vector<std::pair<std::string, std::vector<int>>> cases = {
      {"  File \"a.py\", line 3, in load_model", {0}},
      {"  File \"a.py\", line 3, in load_weights \t\r\n", {0}},
      {"  File \"a.py\", line 3, in load_model()", {}},
      {"in load_weights", {}},
      {"x Started server", {1}},
      {"Started worker ", {}},
      {"Started worker\n", {}},
      {"xyzbcdefyy \f", {2}},
      {"xyzbcdefyy\v", {}},
      {"Ready soon", {2}},
      {"Ready soon!", {}},
      {"so Ready now", {}},
  };
  for (const auto& [msg, want] : cases) {
    EXPECT_EQ(Fast(m, msg), want) << msg;
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

// A formula over 7 to 10 atoms is a table of up to 1024 bits: every pair of a first word and a
// second word lets the regex run, one word alone does not need to.
TEST(PatternMatcher, WideTableLetsEveryPairThrough) {
  PatternMatcher m;
  const std::vector<std::string> first = {"alpha", "bravo", "charlie"};
  const std::vector<std::string> second = {"delta", "echos", "foxtrot", "golfs", "hotel", "india"};
  ASSERT_TRUE(m.Compile({"(?:alpha|bravo|charlie) (?:one |two )?"
                         "(?:delta|echos|foxtrot|golfs|hotel|india)"})
                  .ok());
  int matched = 0;
  for (const auto& a : first) {
    for (const auto& b : second) {
      for (const std::string& msg : {a + " " + b, "x " + a + " two " + b + " y", b + " " + a}) {
        EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
        matched += !Fast(m, msg).empty();
      }
    }
  }
  EXPECT_EQ(matched, 36);
  EXPECT_TRUE(Fast(m, "alpha one").empty());
  EXPECT_TRUE(Fast(m, "india hotel").empty());
}

// The scan hashes eight grams at once: each must be the hash the index was built with, for any
// bytes (letters in either case, punctuation, bytes >= 0x80).
TEST(PatternMatcher, EightGramHashesAtOnceAreTheOneAtATimeHashes) {
  std::vector<unsigned char> bytes(4096 + 18);
  uint32_t x = 12345;
  for (auto& b : bytes) {
    x = x * 1103515245u + 12345u;
    b = static_cast<unsigned char>(x >> 16);
  }
  const std::string_view words =
      "Loading Safetensors [rank0]: ERROR 12:01 torch.cuda.OutOfMemoryError";
  std::copy(words.begin(), words.end(), bytes.begin());
  int differing = 0;
  for (size_t at = 0; at + 18 <= bytes.size(); ++at) {
    uint16_t keys[8];
    pattern_internal::GramHash8(bytes.data() + at, keys);
    for (size_t j = 0; j < 8; ++j) {
      const unsigned want = pattern_internal::GramHash(bytes.data() + at + 2 * j);
      EXPECT_EQ(keys[j], want) << "at " << at << " lane " << j;
      differing += keys[j] != keys[0];
    }
  }
  EXPECT_GT(differing, 1000);  // the hashes are not all one number
}

// An anchored regex runs only on messages that start with one of its alternatives' leading
// literals; a quantifier takes the last byte back, and a top-level flag group keeps them all.
TEST(PatternMatcher, AnchoredRegexNeedsALeadingLiteral) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"^Waiting for scheduler|^Wait for \\d+ scheduler",
                         "^Init abc?d ends\\.(?: x)?", "^Capture cuda graph (?:bs|num) \\[",
                         "^Alpha(?i) \\d|^Bravo \\d", "^\\.venv/ \\d+"})
                  .ok());
  const std::vector<std::pair<std::string, std::vector<int>>> cases = {
      {"Waiting for scheduler 3", {0}},
      {"Wait for 12 scheduler", {0}},
      {"Waiting for application startup.", {}},
      {"Wait for it", {}},
      {"Init abd ends.", {1}},
      {"Init abcd ends. x", {1}},
      {"Init ab ends.", {}},
      {"Capture cuda graph bs [1, 2]", {2}},
      {"Capture cuda graph begin.", {}},
      {"Alpha 1", {3}},
      {"ALPHA 1", {}},
      {"bravo 2", {3}},
      {"Bravo 2", {3}},
      {".venv/ 7", {4}},
      {"xvenv/ 7", {}},
  };
  for (const auto& [msg, want] : cases) {
    EXPECT_EQ(Fast(m, msg), want) << msg;
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

// An anchored rule whose range pins too little ("^\\s*", "^(?:A|B)") is no longer listed under
// the message's first byte: one of its atoms occurring makes it a candidate, and its range and
// heads are still checked then. It must match exactly where running its regex does.
TEST(PatternMatcher, AnchoredRulesThatNeedAnAtomAreCandidates) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"^\\s*warnings\\.warn\\(", "^(?:Prefill|Decode) batch\\. #\\d+",
                         "warnings\\.warn\\(", "^\\S+ is not supported"})
                  .ok());
  const std::vector<std::pair<std::string, std::vector<int>>> cases = {
      {"  warnings.warn(", {0, 2}},
      {"warnings.warn(x)", {0, 2}},
      {"x warnings.warn(", {2}},
      {"\twarnings.WARN(", {}},
      {"Prefill batch. #3", {1}},
      {"Decode batch. #12", {1}},
      {"Decode batch. #", {}},
      {"xPrefill batch. #3", {}},
      {"fp8 is not supported", {3}},
      {" fp8 is not supported", {}},
      {"", {}},
  };
  for (const auto& [msg, want] : cases) {
    EXPECT_EQ(Fast(m, msg), want) << msg;
    EXPECT_EQ(Fast(m, msg), Every(m, msg)) << msg;
  }
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// An atom several rules share (", in ") is not looked for by the scan: the rarer atom beside it
// makes the rule a candidate, and then it is searched in that message (in any letter case, at
// either end, in one alternative but not the other). The answer is the regexes' own.
TEST(PatternMatcher, SharedAtomIsSearchedOnceARarerOneOccurs) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"/alpha_engine/runner\\.py\", line \\d+, in (?:\\w+)\\s*$",
                         "/beta_engine/loader\\.py\", line \\d+, in \\w+|, in gamma_step\\s*$",
                         ", in delta_step\\s*$", "Xylophone-Quartz .*(?i:, IN )"})
                  .ok());
  const std::vector<std::string> lines = {
      "  File \"/x/alpha_engine/runner.py\", line 12, in run",
      "  File \"/x/alpha_engine/runner.py\", line 12",
      "  FILE \"/X/ALPHA_ENGINE/RUNNER.PY\", LINE 3, IN run",
      "/alpha_engine/runner.py\", line 1, in f",
      "  File \"/x/beta_engine/loader.py\", line 7, in load",
      "  File \"/x/beta_engine/loader.py\" in load",
      "  File \"/x/other.py\", line 7, in gamma_step",
      "  File \"/x/other.py\", line 7, in delta_step",
      "gamma_step, in ",
      "Xylophone-Quartz then , In ",
      "Xylophone-Quartz then ,in ",
  };
  size_t matched = 0;
  for (const std::string& line : lines) {
    EXPECT_EQ(Fast(m, line), Every(m, line)) << line;
    matched += Every(m, line).size();
  }
  EXPECT_EQ(matched, 6u);  // every rule matches some line, and not every line matches
  for (int subset : {m.AddSubset({true, false, true, true}), m.AddSubset({false, true})}) {
    for (const std::string& line : lines) {
      std::vector<int> want = Every(m, line);
      std::erase_if(want, [&](int i) { return subset == 1 ? i == 1 : i != 1; });
      EXPECT_EQ(Fast(m, line, subset), want) << line;
    }
  }
}

// The bytes every match must hold are read off the regex's top level only: nothing from a group,
// a class, an optional byte, a repeat count or an escape's payload, and nothing at all where an
// alternation, case folding or a quote could make a byte unsure.
TEST(PatternMatcherRequiredBytes, OnlyBytesEveryMatchHolds) {
  using pattern_internal::RequiredBytes;
  EXPECT_EQ(RequiredBytes("^\\S+\\s+\\d+/\\d+\\s+(?:Error|Running)"), "/");
  EXPECT_EQ(RequiredBytes("a\\.b?c*d+(?:xy)[z]"), "a.d");
  EXPECT_EQ(RequiredBytes("alpha.{0,40}omega"), "alphomeg");
  EXPECT_EQ(RequiredBytes("x{2}y"), "y");
  EXPECT_EQ(RequiredBytes("[(]q(?:r|s)t"), "qt");  // a '(' inside a class opens no group
  EXPECT_EQ(RequiredBytes("a|b"), "");
  EXPECT_EQ(RequiredBytes("(?i)abc"), "");
  EXPECT_EQ(RequiredBytes("x(?i:y)z"), "");
  EXPECT_EQ(RequiredBytes("\\Qa.b\\E"), "");
  EXPECT_EQ(RequiredBytes("\\x41b"), "");
  EXPECT_EQ(RequiredBytes("\\pLb"), "");
}

// A candidate regex whose sure bytes a message lacks is no match, and one that holds them runs as
// before: the answer stays the one every regex run gives.
TEST(PatternMatcherRequiredBytes, MatchesAsEveryRegexRun) {
  PatternMatcher m;
  ASSERT_TRUE(m.Compile({"^\\S+\\s+\\d+/\\d+\\s+(?:Error|Running|Completed)\\s+([1-9]\\d*)",
                         "Completed \\| \\d+/\\d+ \\[|Loading weights took [\\d.]+ s"})
                  .ok());
  const std::vector<std::string> lines = {
      "vllm-0   0/1   Error   3   2m",    "vllm-0   0 of 1   Error   3   2m",
      "Running the server now",           "Completed | 3/7 [00:10<00:20]",
      "Completed | 3 of 7 [00:10<00:20]", "Loading weights took 12.5 s",
  };
  size_t matched = 0;
  for (const std::string& line : lines) {
    EXPECT_EQ(Fast(m, line), Every(m, line)) << line;
    matched += Every(m, line).size();
  }
  EXPECT_EQ(matched, 3u);
}

// An anchored regex's first steps are read off it only while each run's end is forced (its class
// and the next step's share no byte); a message that cannot start so is no match.
TEST(PatternMatcherLead, StepsEveryMatchStartsWith) {
  using pattern_internal::LeadAdmits;
  using pattern_internal::LeadItems;
  EXPECT_EQ(LeadItems("^\\S+\\s+\\d+/\\d+\\s+(?:Error|Running)").size(), 6u);
  EXPECT_EQ(LeadItems("^a\\d+?c?d").size(), 2u);  // 'c' may be absent: the steps stop before it
  EXPECT_TRUE(LeadItems("^abc\\.").empty());      // bytes alone: the match range says as much
  EXPECT_EQ(LeadItems("^\\d+x\\d+x\\d+x\\d+x\\d+x").size(), 8u);  // the first 8 steps
  EXPECT_TRUE(LeadItems("^\\w+\\d").empty());     // a digit is a word byte: \\w+ may end anywhere
  EXPECT_TRUE(LeadItems("^\\d+a(?m)b").empty());  // flags: not read
  EXPECT_TRUE(LeadItems("^\\d+a(?i)b").empty());
  EXPECT_TRUE(LeadItems("^\\d+a|^b").empty());
  EXPECT_TRUE(LeadItems("\\d+a").empty());
  const auto lead = LeadItems("^\\S+\\s+\\d+/");
  EXPECT_TRUE(LeadAdmits(lead, "vllm-0   0/1   Error"));
  EXPECT_FALSE(LeadAdmits(lead, "Loading safetensors: 1/2 Completed"));
  EXPECT_FALSE(LeadAdmits(lead, " vllm-0 0/1"));
  EXPECT_FALSE(LeadAdmits(lead, "vllm-0 0 of 1"));
}

}  // namespace
}  // namespace spinup
