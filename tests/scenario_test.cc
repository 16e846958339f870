// Synthetic startup logs, one per failure class of issue 10 (tests/data/scenarios, written from
// the engines' sources and ../shared/docs, not from corpus logs): each is explained and replayed
// through watch's path, and both must give the expected outcome, phase and first cause. Unlike the
// corpus suite this one needs nothing outside the checkout.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "corpus_eval.h"
#include "diagnose/startup_session.h"
#include "logs/csv_export.h"
#include "test_util.h"

namespace spinup {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const RuleSet& Rules() {
  static RuleSet* rules = new RuleSet(std::move(LoadRules({})).value());
  return *rules;
}

fs::path Dir() { return testing::SourceDir() / "tests" / "data" / "scenarios"; }

const json& Expectations() {
  static const json* e = [] {
    std::ifstream in(Dir() / "expect.json");
    return new json(json::parse(in));
  }();
  return *e;
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const auto& [name, v] : Expectations().items()) {
    if (v.is_object()) names.push_back(name);
  }
  return names;
}

bool Matches(const std::string& want, const std::string& got) { return want == "*" || want == got; }

class Scenario : public ::testing::TestWithParam<std::string> {};

TEST_P(Scenario, ExplainAndWatchGiveTheExpectedVerdict) {
  const json& want = Expectations().at(GetParam());
  const std::string text = testing::ReadFile(Dir() / (GetParam() + ".log"));
  const std::string cause = want["cause"].is_null() ? "" : want["cause"].get<std::string>();
  const corpus::Judged e = corpus::Explain(Rules(), text);
  EXPECT_EQ(e.outcome, want["outcome"].get<std::string>()) << e.headline;
  EXPECT_TRUE(Matches(want["phase"].get<std::string>(), e.phase)) << e.phase << ": " << e.headline;
  EXPECT_TRUE(Matches(cause, e.first_cause)) << "cause " << e.first_cause << ": " << e.headline;
  // No stall and no phase longer than the log itself (+ rounding).
  const double span = e.log_seconds.value_or(0) + 1;
  EXPECT_LE(e.stalled_seconds.value_or(0), span) << e.headline;
  EXPECT_LE(e.phase_seconds.value_or(0), span) << e.headline;
  // Live, the same lines at the same times give the same outcome and phase.
  const corpus::Judged w = corpus::WatchReplay(Rules(), text);
  EXPECT_EQ(w.outcome, e.outcome) << w.headline;
  EXPECT_EQ(w.phase, e.phase) << w.headline;
}

// How users paste a log into an issue or a terminal: none of it may change the verdict.
std::string EachLine(const std::string& text, const std::string& before, const std::string& after) {
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    size_t nl = text.find('\n', from);
    if (nl == std::string::npos) nl = text.size();
    out += before + text.substr(from, nl - from) + after + "\n";
    from = nl + 1;
  }
  return out;
}

// A wrapper around a log that already has one (stern, kubectl, k9s, a markdown quote) is nested;
// one level of each is what users paste, and what the parser strips (JSON lines count as a format,
// not a wrapper: compose's prefix before them is read).
// A log already behind a wrapper: compose's own output ("vllm-1  | ...") is not wrapped again, as
// compose prefixes only its containers' lines (a person's commands after it keep none).
bool AlreadyWrapped(const std::string& name, const std::string& text) {
  if (name.rfind("w_", 0) == 0 || (!text.empty() && text[0] == '>')) return true;
  // A log system's export is a file of its own: no container's output.
  if (name.rfind("rt31_datadog", 0) == 0 || name.rfind("rt31_splunk", 0) == 0) return true;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    if (spinup::ReadCsvHeader(std::string_view(text).substr(at, end - at))) return true;
    at = end + 1;
  }
  const std::string_view first = std::string_view(text).substr(0, text.find('\n'));
  const size_t bar = first.find(" | ");
  if (bar == std::string_view::npos) return false;
  const std::string_view head = first.substr(0, bar);
  const size_t blank = head.find(' ');
  return blank != std::string_view::npos && blank > 0 &&
         head.find_first_not_of(' ', blank) == std::string_view::npos;
}

TEST_P(Scenario, PastingDoesNotChangeTheVerdict) {
  const std::string text = testing::ReadFile(Dir() / (GetParam() + ".log"));
  const corpus::Judged base = corpus::Explain(Rules(), text);
  std::vector<std::pair<std::string, std::string>> pasted = {
      {"crlf", EachLine(text, "", "\r")},
      {"trailing blanks", EachLine(text, "", "    ")},
      {"markdown fence", "Here is the log:\n\n```text\n" + text + "```\n\nAny idea?\n"},
      {"markdown quote", "> ```\n" + EachLine(text, "> ", "") + "> ```\n"},
      {"details block", "<details><summary>log</summary>\n\n```\n" + text + "```\n</details>\n"},
      {"indented code block", "The log:\n\n" + EachLine(text, "    ", "")},
      {"tab-indented", EachLine(text, "\t", "")},
      // How it was run, pasted after the log: a prompt that printed nothing started nothing.
      {"command after", text +
                            "\n$ pip list | grep vllm\nvllm    0.8.4\n\n$ CUDA_VISIBLE_DEVICES=0,1 "
                            "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
  };
  // A prefix or padding on every fragment of a terminal's wrap cannot happen: compose prefixes
  // a line before a terminal cuts it, and a wrap's fragments fill the terminal.
  const bool terminal_wrapped = GetParam().rfind("wrap", 0) == 0;
  if (!AlreadyWrapped(GetParam(), text) && !terminal_wrapped)
    pasted.emplace_back("compose", EachLine(text, "vllm-1  | ", ""));
  for (const auto& [how, log] : pasted) {
    const corpus::Judged j = corpus::Explain(Rules(), log);
    EXPECT_EQ(j.outcome, base.outcome) << how << ": " << j.headline;
    EXPECT_EQ(j.phase, base.phase) << how << ": " << j.headline;
    EXPECT_EQ(j.first_cause, base.first_cause) << how << ": " << j.headline;
  }
}

TEST(Scenarios, EveryLogHasAnExpectationAndBack) {
  size_t logs = 0;
  for (const auto& f : fs::directory_iterator(Dir())) {
    if (f.path().extension() != ".log") continue;
    ++logs;
    EXPECT_TRUE(Expectations().contains(f.path().stem().string())) << f.path();
  }
  EXPECT_EQ(logs, Names().size());
  EXPECT_GE(logs, 50u);
}

INSTANTIATE_TEST_SUITE_P(Synthetic, Scenario, ::testing::ValuesIn(Names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace spinup
