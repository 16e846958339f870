// Loading a --rules file: linear in its size, with a documented regex length cap (issue 11,
// item 17). Line numbers in errors survive the linear lookup.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "logs/rules.h"

namespace spinup {
namespace {

std::string ManyRules(int n) {
  std::string out = "{\"engine\": \"toy\", \"rules\": [\n";
  for (int i = 0; i < n; ++i) {
    out += "  {\"id\": \"toy.r" + std::to_string(i) + "\", \"regex\": \"^line " +
           std::to_string(i) + " \", \"emit\": \"info\"}" + (i + 1 < n ? ",\n" : "\n");
  }
  return out + "]}\n";
}

// 100,000 rules: the old loader searched the whole file once per rule (about 5e11 byte
// comparisons here, hours); a linear one takes about a second. The suite's timeout is the check.
TEST(RulesLoad, HundredThousandRulesLoadInLinearTime) {
  RuleSet rs;
  Status st = rs.AddFile("many.json", ManyRules(100000));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(rs.FindRule("toy.r99999") >= 0, true);
}

TEST(RulesLoad, RegexOverTheCapIsRefusedWithItsLine) {
  std::string big(RuleSet::kMaxRuleRegexBytes + 1, 'a');
  std::string file =
      "{\"engine\": \"toy\", \"rules\": [\n"
      "  {\"id\": \"toy.ok\", \"regex\": \"^ok\", \"emit\": \"info\"},\n"
      "  {\"id\": \"toy.big\", \"regex\": \"" +
      big + "\", \"emit\": \"info\"}\n]}";
  RuleSet rs;
  Status st = rs.AddFile("big.json", file);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("big.json:3: rule \"toy.big\": regex of 16385 bytes is over the "
                              "16384-byte cap"),
            std::string::npos)
      << st.message();
  std::string cause =
      "{\"causes\": [{\"id\": \"c\", \"title\": \"t\", \"fix\": \"f\", \"when\": "
      "[{\"regex\": [\"" +
      big + "\"]}]}]}";
  EXPECT_FALSE(RuleSet().AddFile("cause.json", cause).ok());
  std::string at_cap(RuleSet::kMaxRuleRegexBytes, 'a');
  EXPECT_TRUE(RuleSet()
                  .AddFile("ok.json", "{\"rules\": [{\"id\": \"x\", \"regex\": \"" + at_cap +
                                          "\", \"emit\": \"info\"}]}")
                  .ok());
}

TEST(RulesLoad, ErrorsStillNameTheRightLineAndDuplicatesAreFound) {
  RuleSet rs;
  Status st = rs.AddFile("bad.json",
                         "{\"rules\": [\n"
                         "  {\"id\": \"a\", \"regex\": \"x\", \"emit\": \"info\"},\n"
                         "  {\"id\": \"b\", \"regex\": \"y\", \"emit\": \"nonsense\"}\n"
                         "]}");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad.json:3:"), std::string::npos) << st.message();

  RuleSet dup;
  ASSERT_TRUE(dup.AddFile("one.json",
                          "{\"rules\": [{\"id\": \"a\", \"regex\": \"x\", \"emit\": "
                          "\"info\"}]}")
                  .ok());
  Status d = dup.AddFile("two.json",
                         "{\"rules\": [{\"id\": \"a\", \"regex\": \"y\", \"emit\": \"info\"}]}");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.message().find("duplicate rule id \"a\""), std::string::npos) << d.message();
  Status same =
      RuleSet().AddFile("same.json",
                        "{\"rules\": [{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"info\"},\n"
                        "{\"id\": \"a\", \"regex\": \"y\", \"emit\": \"info\"}]}");
  EXPECT_FALSE(same.ok());
}

// "answer" marks an HTTP server's answer to a request: only a request_served rule has it.
TEST(RulesLoad, AnswerNeedsARequestServedRule) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("answer.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(
      load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"request_served\", \"answer\": true}")
          .ok());
  Status info = load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"info\", \"answer\": true}");
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.message().find("answer.json:2: rule \"b\": \"answer\" needs a request_served"),
            std::string::npos)
      << info.message();
  EXPECT_FALSE(
      load("{\"id\": \"c\", \"regex\": \"x\", \"emit\": \"request_served\", \"answer\": 1}").ok());
}

// "echo" marks a client's request echoed in the log: only a request_served rule has it.
TEST(RulesLoad, EchoNeedsARequestServedRule) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("echo.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(
      load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"request_served\", \"echo\": true}").ok());
  Status info = load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"info\", \"echo\": true}");
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.message().find("echo.json:2: rule \"b\": \"echo\" needs a request_served"),
            std::string::npos)
      << info.message();
  EXPECT_FALSE(
      load("{\"id\": \"c\", \"regex\": \"x\", \"emit\": \"request_served\", \"echo\": 1}").ok());
}

// "underlies" marks a cause whose evidence is the root of the errors around it (gpu_fault).
TEST(RulesLoad, UnderliesIsABooleanOfACause) {
  auto load = [](const std::string& flag) {
    RuleSet rules;
    Status s = rules.AddFile("u.json",
                             "{\"causes\": [{\"id\": \"x\", \"title\": \"t\", \"fix\": "
                             "\"f\"," +
                                 flag + " \"when\": [{\"regex\": [\"y\"]}]}]}");
    return std::make_pair(s, rules.causes().empty() ? false : rules.causes()[0].underlies);
  };
  EXPECT_TRUE(load("").first.ok());
  EXPECT_FALSE(load("").second);
  auto [status, underlies] = load(" \"underlies\": true,");
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(underlies);
  EXPECT_FALSE(load(" \"underlies\": 1,").first.ok());
  auto embedded = RuleSet::LoadEmbedded();
  ASSERT_TRUE(embedded.ok());
  for (const auto& c : embedded->causes()) {
    EXPECT_EQ(c.underlies, c.id == "gpu_fault" || c.id == "host_platform" || c.id == "dev_shm" ||
                               c.id == "orphan_processes")
        << c.id;
  }
}

// "pin" says where a failure is raised: only an error, fatal or frame rule with a phase has it.
TEST(RulesLoad, PinNeedsAnErrorRuleWithAPhase) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("pin.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"fatal\", \"phase\": \"launch\", "
                   "\"pin\": true}")
                  .ok());
  Status no_phase = load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"error\", \"pin\": true}");
  ASSERT_FALSE(no_phase.ok());
  EXPECT_NE(no_phase.message().find("pin.json:2: rule \"b\": \"pin\" needs an error, fatal or"),
            std::string::npos)
      << no_phase.message();
  EXPECT_FALSE(load("{\"id\": \"c\", \"regex\": \"x\", \"emit\": \"info\", \"phase\": "
                    "\"launch\", \"pin\": true}")
                   .ok());
  EXPECT_TRUE(load("{\"id\": \"e\", \"regex\": \"x\", \"emit\": \"frame\", \"phase\": "
                   "\"distributed_init\", \"pin\": true}")
                  .ok());
  EXPECT_FALSE(load("{\"id\": \"d\", \"regex\": \"x\", \"emit\": \"error\", \"phase\": "
                    "\"launch\", \"pin\": 1}")
                   .ok());
  // A phase_end line printed before the phase's last work; not one that reports a duration.
  EXPECT_TRUE(load("{\"id\": \"f\", \"regex\": \"x\", \"emit\": \"phase_end\", \"phase\": "
                   "\"kv_cache\", \"pin\": true}")
                  .ok());
  EXPECT_FALSE(load("{\"id\": \"g\", \"regex\": \"x (\\\\d+)\", \"emit\": \"phase_end\", "
                    "\"phase\": \"kv_cache\", \"elapsed\": 1, \"pin\": true}")
                   .ok());
}

// "role" marks a relay or a fallback by data, whatever the rule's id; it must fit the emit.
TEST(RulesLoad, RoleIsReadAndMustFitTheEmit) {
  auto load = [](const std::string& rule) {
    RuleSet rs;
    Status st = rs.AddFile("role.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
    return std::make_pair(st, std::move(rs));
  };
  auto [relay_ok, relay] = load(
      "{\"id\": \"toy.child_died\", \"regex\": \"x\", \"emit\": \"fatal\", \"role\": \"relay\"}");
  ASSERT_TRUE(relay_ok.ok()) << relay_ok.message();
  EXPECT_EQ(relay.rules()[static_cast<size_t>(relay.FindRule("toy.child_died"))].role,
            LogEvent::Role::kRelay);
  auto [fallback_ok, fallback] = load(
      "{\"id\": \"toy.forward\", \"regex\": \"x\", \"emit\": \"frame\", \"phase\": "
      "\"kv_cache\", \"role\": \"fallback\"}");
  ASSERT_TRUE(fallback_ok.ok()) << fallback_ok.message();
  EXPECT_EQ(fallback.rules()[static_cast<size_t>(fallback.FindRule("toy.forward"))].role,
            LogEvent::Role::kFallback);
  auto [plain_ok, plain] =
      load("{\"id\": \"fallback.named_so\", \"regex\": \"x\", \"emit\": \"fatal\"}");
  ASSERT_TRUE(plain_ok.ok()) << plain_ok.message();
  EXPECT_EQ(plain.rules()[static_cast<size_t>(plain.FindRule("fallback.named_so"))].role,
            LogEvent::Role::kDirect);
  Status fatal_fallback =
      load("{\"id\": \"f\", \"regex\": \"x\", \"emit\": \"fatal\", \"role\": \"fallback\"}").first;
  ASSERT_FALSE(fatal_fallback.ok());
  EXPECT_NE(
      fatal_fallback.message().find("role.json:2: rule \"f\": role \"fallback\" needs a frame"),
      std::string::npos)
      << fatal_fallback.message();
  Status unknown =
      load(
          "{\"id\": \"u\", \"regex\": \"x\", \"emit\": \"frame\", \"phase\": \"compile\", "
          "\"role\": \"weak\"}")
          .first;
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown role \"weak\""), std::string::npos)
      << unknown.message();
}

// "serving" marks a death only a server that was up prints (fatal) or a start that serves HTTP
// (attempt_start): no other rule has it.
TEST(RulesLoad, ServingNeedsAFatalOrBannerRule) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("serving.json",
                             "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(
      load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"fatal\", \"serving\": true}").ok());
  EXPECT_TRUE(
      load("{\"id\": \"s\", \"regex\": \"x\", \"emit\": \"attempt_start\", \"serving\": true}")
          .ok());
  const Status error =
      load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"error\", \"serving\": true}");
  EXPECT_NE(error.message().find(
                "serving.json:2: rule \"b\": \"serving\" needs a fatal or attempt_start rule"),
            std::string::npos)
      << error.message();
  EXPECT_FALSE(load("{\"id\": \"c\", \"regex\": \"x\", \"emit\": \"fatal\", \"serving\": 1}").ok());
}

// "node_ready" is a flag any rule may carry; anything but true or false is refused, naming the
// line.
TEST(RulesLoad, NodeReadyIsAFlag) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("node.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(
      load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"info\", \"node_ready\": true}").ok());
  const Status error =
      load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"info\", \"node_ready\": \"yes\"}");
  EXPECT_NE(error.message().find("node.json:2: \"node_ready\" must be true or false"),
            std::string::npos)
      << error.message();
}

// "in_process" marks an info rule: on any other kind it is refused, naming the line.
TEST(RulesLoad, InProcessNeedsAnInfoRule) {
  auto load = [](const std::string& rule) {
    return RuleSet().AddFile("inproc.json", "{\"engine\": \"toy\", \"rules\": [\n" + rule + "\n]}");
  };
  EXPECT_TRUE(
      load("{\"id\": \"a\", \"regex\": \"x\", \"emit\": \"info\", \"in_process\": true}").ok());
  const Status error =
      load("{\"id\": \"b\", \"regex\": \"x\", \"emit\": \"ready\", \"in_process\": true}");
  EXPECT_NE(error.message().find("inproc.json:2: rule \"b\": \"in_process\" needs an info rule"),
            std::string::npos)
      << error.message();
}

// "programs" is an object of two word lists; anything else is refused, naming the line.
TEST(RulesLoad, ProgramsAreTwoListsOfWords) {
  auto load = [](const std::string& programs) {
    return RuleSet().AddFile("p.json", "{\"engine\": \"toy\",\n\"programs\": " + programs + "}");
  };
  EXPECT_TRUE(load(R"({"engines": ["toyserve"], "others": ["Gateway"]})").ok());
  EXPECT_NE(load("[\"x\"]").message().find("p.json:2: \"programs\" must be an object"),
            std::string::npos);
  EXPECT_NE(load(R"({"servers": ["x"]})").message().find("unknown \"programs\" key \"servers\""),
            std::string::npos);
  EXPECT_NE(load(R"({"others": [""]})").message().find("1 to 64 characters"), std::string::npos);
  RuleSet rs;
  ASSERT_TRUE(rs.AddFile("p.json", R"({"programs": {"others": ["Gateway"]}})").ok());
  EXPECT_EQ(rs.knowledge().programs.others, std::vector<std::string>{"gateway"});
}

// "model_sizes" entries need a name and a plausible size; the longest name comes first.
TEST(RulesLoad, ModelSizesAreValidatedAndLongestFirst) {
  auto load = [](const std::string& sizes) {
    RuleSet rs;
    Status st = rs.AddFile("m.json", "{\"engine\": \"toy\",\n\"model_sizes\": " + sizes + "}");
    return std::make_pair(st, std::move(rs));
  };
  auto [ok, rs] =
      load(R"([{"name": "Fam-V2", "params_b": 236}, {"name": "fam-v2-lite", "params_b": 16}])");
  ASSERT_TRUE(ok.ok()) << ok.message();
  ASSERT_EQ(rs.knowledge().model_sizes.size(), 2u);
  EXPECT_EQ(rs.knowledge().model_sizes[0].name, "fam-v2-lite");
  EXPECT_EQ(rs.knowledge().model_sizes[1].name, "fam-v2");
  EXPECT_DOUBLE_EQ(rs.knowledge().model_sizes[1].bytes_per_weight, 2);
  EXPECT_NE(
      load(R"({"name": "x"})").first.message().find("m.json:2: \"model_sizes\" must be a list"),
      std::string::npos);
  EXPECT_NE(load(R"([{"name": "fam", "params_b": 0}])").first.message().find("params_b must be"),
            std::string::npos);
  EXPECT_NE(load(R"([{"name": "ab", "params_b": 7}])").first.message().find("3 to 64 characters"),
            std::string::npos);
}

// "explains" names causes: a typo would silently explain nothing, so it is refused.
TEST(RulesLoad, ACauseExplainsOnlyKnownCauses) {
  auto compile = [](const std::string& explains) {
    RuleSet rs;
    Status st = rs.AddFile("c.json", R"({"rules": [
      {"id": "t.shm", "regex": "shm is full here", "emit": "error"}],
      "causes": [
      {"id": "shm", "title": "t", "fix": "f", "explains": [")" +
                                         explains + R"("],
       "when": [{"rules": ["t.shm"]}]},
      {"id": "p2p", "title": "t", "fix": "f", "when": [{"rules": ["t.shm"]}]}]})");
    return st.ok() ? rs.Compile() : st;
  };
  EXPECT_TRUE(compile("p2p").ok());
  const Status bad = compile("p2q");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("cause \"shm\" explains unknown cause \"p2q\""), std::string::npos)
      << bad.message();
}

// A cause's and a condition's true/false keys are read by one helper: a string is refused, with
// the key named.
TEST(RulesLoad, CauseFlagsAreTrueOrFalse) {
  auto load = [](const std::string& cause_flag, const std::string& when_flag) {
    return RuleSet().AddFile("f.json", R"({"rules": [
      {"id": "t.x", "regex": "x happened", "emit": "error"}],
      "causes": [{"id": "c", "title": "t", "fix": "f", )" +
                                           cause_flag + R"( "when": [{"rules": ["t.x"], )" +
                                           when_flag + R"(}]}]})");
  };
  EXPECT_TRUE(load(R"("underlies": true,)", R"("consequence": true)").ok());
  const Status cause = load(R"("underlies": "yes",)", R"("consequence": true)");
  EXPECT_NE(cause.message().find("\"underlies\" must be true or false"), std::string::npos)
      << cause.message();
  const Status when = load("", R"("since_progress": 1)");
  EXPECT_NE(when.message().find("\"since_progress\" must be true or false"), std::string::npos)
      << when.message();
}

}  // namespace
}  // namespace spinup
