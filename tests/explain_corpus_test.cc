// Every real log in ../shared/corpus is a case: the reported outcome and phase must match its
// label (labels.jsonl), through the same library path `spinup explain` uses. Where a label says
// more than the excerpt shows, the case is an expected disagreement with a written reason, and
// the test pins what the log itself supports instead (so it still fails if behaviour changes).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "diagnose/analyzer.h"
#include "logs/rules.h"
#include "test_util.h"

namespace spinup {
namespace {

struct Case {
  std::string file;
  std::string engine;
  std::string outcome;      // label outcome
  std::string stuck_phase;  // label phase ("" for null)
};

void PrintTo(const Case& c, std::ostream* os) { *os << (c.file.empty() ? "(no corpus)" : c.file); }

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  auto shared = testing::SharedDir();
  if (!shared) return cases;
  std::ifstream in(*shared / "corpus" / "labels.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    Case c;
    c.file = j.value("file", "");
    // The engine as the file name spells it (the label's own field is free text).
    auto d1 = c.file.find('-');
    auto d2 = c.file.find('-', d1 == std::string::npos ? 0 : d1 + 1);
    if (d1 != std::string::npos && d2 != std::string::npos)
      c.engine = c.file.substr(d1 + 1, d2 - d1 - 1);
    c.outcome = j.value("outcome", "");
    if (j.contains("stuck_phase") && j["stuck_phase"].is_string()) {
      c.stuck_phase = j["stuck_phase"].get<std::string>();
    }
    cases.push_back(c);
  }
  return cases;
}

// Label phase words → spinup's phase vocabulary (documented in docs/explain.md).
std::string MapPhase(const std::string& label) {
  static const std::map<std::string, std::string> m = {
      {"process_spawn", "launch"},  {"model_init", "weight_load"},  {"jit_compile", "compile"},
      {"torch_compile", "compile"}, {"kv_cache_alloc", "kv_cache"}, {"first_forward", "kv_cache"},
      {"http_warmup", "warmup"},    {"shard_start", "weight_load"},
  };
  auto it = m.find(label);
  return it == m.end() ? label : it->second;
}

// Cases where the label says more than the excerpt shows. `outcome` / `phase` pin what the log
// supports; empty means "agrees with the label".
struct Disagreement {
  std::string outcome;
  std::string phase;
  std::string reason;
};
const std::map<std::string, Disagreement>& Disagreements() {
  static const std::map<std::string, Disagreement> d = {
      {"005-sglang-slow_then_ready-jit_compile.log",
       {"in_progress", "",
        "the excerpt ends at 'Uvicorn running'; SGLang is ready only after its warm-up request "
        "('fired up' or a served request), which the excerpt does not show"}},
      {"008-sglang-ready-none.log",
       {"in_progress", "",
        "the excerpt ends during SGLang's own warm-up (/get_model_info poll), before 'fired up' or "
        "a served request"}},
      {"016-vllm-crashed-cuda_graph.log",
       {"in_progress", "",
        "the excerpt shows no error at all: it ends at 'Capturing cudagraphs for decoding'; the "
        "OOM is only in the thread's text"}},
      {"023-vllm-slow_then_ready-torch_compile.log",
       {"in_progress", "",
        "the excerpt ends at 'torch.compile takes 2222.52 s in total'; the engine-ready line is "
        "not in it"}},
      {"033-sglang-crashed-http_warmup.log",
       {"in_progress", "",
        "the excerpt ends at 'Application startup complete' with no error; the warm-up failure "
        "is only in the issue title"}},
      {"041-sglang-ready-none.log",
       {"in_progress", "",
        "the excerpt ends inside distributed init; the server's later readiness is only in the "
        "thread's text"}},
      {"058-sglang-ready-none.log",
       {"in_progress", "",
        "the excerpt ends after the scheduler's max_total_num_tokens line, before any HTTP line"}},
      {"031-sglang-crashed-model_init.log",
       {"", "launch",
        "no phase line precedes 'Scheduler hit an exception' and no traceback frame is pasted; "
        "the model_init phase comes from the issue title"}},
  };
  return d;
}

class CorpusTest : public ::testing::TestWithParam<Case> {};

TEST_P(CorpusTest, OutcomeAndPhaseMatchLabel) {
  const Case& c = GetParam();
  if (c.file.empty()) GTEST_SKIP() << "../shared/corpus is absent: the real-log suite is skipped";
  auto rules = RuleSet::LoadEmbedded();
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  LogStreamOptions opt;
  opt.reference_year = 2025;
  StartupAnalyzer an(*rules, opt);
  std::string text = testing::ReadFile(*testing::SharedDir() / "corpus" / c.file);
  ASSERT_FALSE(text.empty());
  an.FeedLog(text);
  an.FinishLog();
  Verdict v = an.Evaluate({});
  const std::string outcome(StateName(v.state));
  const std::string phase(PhaseName(v.phase));

  std::string slowest;
  double slowest_s = -1;
  bool any_slow = false;
  for (const auto& e : v.timeline) {
    any_slow |= e.slow;
    if (e.seconds && *e.seconds > slowest_s && e.phase != Phase::kReady) {
      slowest_s = *e.seconds;
      slowest = std::string(PhaseName(e.phase));
    }
  }
  SCOPED_TRACE(c.file + ": reported " + outcome + " in " + phase + " (slowest " + slowest +
               "): " + v.headline);

  const auto dit = Disagreements().find(c.file);
  const Disagreement* dis = dit == Disagreements().end() ? nullptr : &dit->second;
  const std::string want_phase = MapPhase(c.stuck_phase);

  // Outcome.
  if (dis && !dis->outcome.empty()) {
    EXPECT_EQ(outcome, dis->outcome) << "expected disagreement: " << dis->reason;
  } else if (c.outcome == "hung") {
    EXPECT_TRUE(outcome == "stalled" || outcome == "in_progress") << outcome;
  } else if (c.outcome == "slow_then_ready") {
    EXPECT_EQ(outcome, "ready");
    EXPECT_TRUE(any_slow) << "a slow_then_ready start must have a phase marked slow";
  } else if (c.outcome == "unknown") {
    EXPECT_TRUE(outcome == "unknown" || outcome == "in_progress") << outcome;
  } else {
    EXPECT_EQ(outcome, c.outcome);
  }

  // Phase: where it ended for hung/crashed starts; the slowest phase where the label names one
  // for starts that went on (ready, slow_then_ready, unknown).
  if (dis && !dis->phase.empty()) {
    EXPECT_EQ(phase, dis->phase) << "expected disagreement: " << dis->reason;
  } else if (!want_phase.empty()) {
    if (c.outcome == "hung" || c.outcome == "crashed" || c.outcome == "crash_loop") {
      EXPECT_EQ(phase, want_phase);
    } else {
      EXPECT_EQ(slowest, want_phase);
    }
  } else if (c.outcome == "ready" && (!dis || dis->outcome.empty())) {
    EXPECT_EQ(phase, "ready");
  }
  // Engine detection (TGI and TensorRT-LLM come from their rules files).
  static const std::map<std::string, std::string> engine_names = {{"tensorrt_llm", "trtllm"}};
  auto en = engine_names.find(c.engine);
  EXPECT_EQ(v.engine, en == engine_names.end() ? c.engine : en->second);
}

std::vector<Case> CasesOrPlaceholder() {
  auto cases = LoadCases();
  if (cases.empty()) cases.push_back(Case{});  // one skipped case says why
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  if (info.param.file.empty()) return "corpus_absent";
  std::string n = info.param.file.substr(0, info.param.file.find('.'));
  for (auto& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return "c" + n;
}

INSTANTIATE_TEST_SUITE_P(Shared, CorpusTest, ::testing::ValuesIn(CasesOrPlaceholder()), CaseName);

TEST(CorpusDisagreements, EveryDisagreementNamesARealCase) {
  auto cases = LoadCases();
  if (cases.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  std::set<std::string> files;
  for (const auto& c : cases) files.insert(c.file);
  for (const auto& [file, d] : Disagreements()) {
    EXPECT_TRUE(files.count(file)) << file;
    EXPECT_FALSE(d.reason.empty()) << file;
  }
}

}  // namespace
}  // namespace spinup
