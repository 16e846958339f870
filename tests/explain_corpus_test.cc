// The real-log measurement (docs/accuracy.md): every labelled log in ../shared/corpus is judged
// through `explain`'s path and replayed through `watch`'s, and compared with its label. A case
// either agrees or is a written disagreement (tests/data/corpus_disagreements.json, with the
// reason); agreement per half may not fall below its floor (tests/data/corpus_floors.json), which
// only goes up. Where ../shared is absent the suite says so and skips.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "corpus_eval.h"
#include "diagnose/startup_session.h"
#include "test_util.h"

namespace spinup {
namespace {

using nlohmann::json;

const RuleSet& Rules() {
  static RuleSet* rules = new RuleSet(std::move(LoadRules({})).value());
  return *rules;
}

json ReadData(const std::string& name) {
  std::ifstream in(testing::SourceDir() / "tests" / "data" / name);
  return json::parse(in);
}

struct Measured {
  corpus::Case c;
  corpus::Judged explained;
  corpus::Judged watched;
  corpus::Score score;
};

const std::vector<Measured>& Measure() {
  static const std::vector<Measured>* all = [] {
    auto* out = new std::vector<Measured>;
    auto shared = testing::SharedDir();
    if (!shared) return out;
    for (auto& c : corpus::LoadCases(*shared, testing::SourceDir())) {
      const std::string text = testing::ReadFile(*shared / "corpus" / c.file);
      Measured m{c, corpus::Explain(Rules(), text), corpus::WatchReplay(Rules(), text), {}};
      m.score = corpus::ScoreCase(c, m.explained);
      out->push_back(std::move(m));
    }
    return out;
  }();
  return *all;
}

std::string Describe(const Measured& m) {
  return m.c.file + ": label " + m.c.outcome + "/" + m.c.stuck_phase + ", spinup " +
         m.explained.outcome + "/" + m.explained.phase + " (slowest " + m.explained.slowest +
         ", cause " + m.explained.first_cause + "): " + m.explained.headline;
}

TEST(Corpus, EveryCaseAgreesOrIsAWrittenDisagreement) {
  if (Measure().empty())
    GTEST_SKIP() << "../shared/corpus is absent: the real-log suite is skipped";
  const json dis = ReadData("corpus_disagreements.json");
  for (const auto& m : Measure()) {
    if (!m.c.excerpt_supports) continue;
    const std::string key = m.c.file.substr(0, 3);
    const bool listed = dis.contains(key);
    if (m.score.phase_ok) {
      EXPECT_FALSE(listed) << "now agrees: remove it from corpus_disagreements.json: "
                           << Describe(m);
    } else {
      EXPECT_TRUE(listed) << "disagrees and is not written down: " << Describe(m);
      if (listed) {
        EXPECT_FALSE(dis[key].get<std::string>().empty()) << key;
      }
    }
  }
}

TEST(Corpus, AgreementPerHalfStaysAboveItsFloor) {
  if (Measure().empty()) GTEST_SKIP() << "../shared/corpus is absent";
  const json floors = ReadData("corpus_floors.json");
  for (const char* half : {"dev", "held_out"}) {
    int phase_ok = 0, cause_ok = 0;
    for (const auto& m : Measure()) {
      if (m.c.held_out() != (std::string(half) == "held_out") || !m.c.excerpt_supports) continue;
      phase_ok += m.score.phase_ok;
      cause_ok += m.score.cause_ok.value_or(false);
    }
    EXPECT_GE(phase_ok, floors[half]["outcome_phase"].get<int>()) << half;
    EXPECT_GE(cause_ok, floors[half]["first_cause"].get<int>()) << half;
  }
}

// One pipeline: `explain` and `watch --log` (replayed at the log's own timestamps) reach the same
// outcome, phase and attempt count on every real log.
TEST(Corpus, ExplainAndWatchAgreeOnEveryLog) {
  if (Measure().empty()) GTEST_SKIP() << "../shared/corpus is absent";
  for (const auto& m : Measure()) {
    EXPECT_EQ(m.watched.outcome, m.explained.outcome)
        << Describe(m) << " / watch: " << m.watched.headline;
    EXPECT_EQ(m.watched.phase, m.explained.phase) << Describe(m);
    EXPECT_EQ(m.watched.attempts, m.explained.attempts) << Describe(m);
  }
}

// No stall, and no phase, longer than the log: durations come from the log's own clock.
TEST(Corpus, NoStallLongerThanTheLog) {
  if (Measure().empty()) GTEST_SKIP() << "../shared/corpus is absent";
  for (const auto& m : Measure()) {
    const double span = m.explained.log_seconds.value_or(0) + 1;  // + rounding
    EXPECT_LE(m.explained.stalled_seconds.value_or(0), span) << Describe(m);
    EXPECT_LE(m.explained.phase_seconds.value_or(0), span) << Describe(m);
  }
}

// Unknown only where no engine line exists.
TEST(Corpus, UnknownOnlyWithoutAnEngine) {
  if (Measure().empty()) GTEST_SKIP() << "../shared/corpus is absent";
  for (const auto& m : Measure()) {
    if (m.explained.outcome == "unknown") {
      EXPECT_TRUE(m.explained.engine.empty()) << Describe(m);
    }
  }
}

TEST(Corpus, AnnotationsNameRealCasesAndKnownCauses) {
  if (Measure().empty()) GTEST_SKIP() << "../shared/corpus is absent";
  std::set<std::string> keys;
  for (const auto& m : Measure()) keys.insert(m.c.file.substr(0, 3));
  std::set<std::string> causes;
  for (const auto& c : Rules().causes()) causes.insert(c.id);
  for (const char* file :
       {"corpus_disagreements.json", "corpus_causes.json", "corpus_beyond_excerpt.json"}) {
    const json data = ReadData(file);
    for (const auto& [key, value] : data.items()) {
      if (key == "about") continue;
      EXPECT_TRUE(keys.count(key)) << file << ": " << key;
    }
  }
  const json causes_data = ReadData("corpus_causes.json");
  for (const auto& [key, value] : causes_data.items()) {
    if (key == "about") continue;
    for (const auto& id : value["causes"]) {
      EXPECT_TRUE(causes.count(id.get<std::string>())) << key << ": unknown cause " << id;
    }
  }
}

}  // namespace
}  // namespace spinup
