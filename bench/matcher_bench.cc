// The rule matcher alone (RuleSet::Match, as LogStream calls it) on the messages of the corpus
// logs (../shared/corpus, or SPINUP_CORPUS) in name order, as bench/explain-throughput's log
// repeats them: each line parsed once, matched against the subset of the engine the first file
// shows (LogStream keeps the engine it detected first), a repeat of the previous message skipped
// as LogStream does. Reports bytes of message per second. Run from the repository root.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "logs/line_parser.h"
#include "logs/rules.h"

namespace {

namespace fs = std::filesystem;

struct Corpus {
  spinup::RuleSet rules;
  std::vector<std::string> texts;  // one per file: the storage the messages point into
  std::vector<std::pair<std::string_view, int>> messages;  // (message, subset)
  size_t bytes = 0;
};

// The engine whose rules match most of the file's lines (subset 0 holds every rule).
int GuessSubset(const spinup::RuleSet& rules, const std::vector<std::string_view>& msgs) {
  std::map<std::string, int> votes;
  std::vector<int> matched;
  for (std::string_view m : msgs) {
    rules.Match(m, &matched);
    for (int i : matched) {
      const auto& r = rules.rules()[static_cast<size_t>(i)];
      if (r.engine != "generic") ++votes[r.engine];
    }
  }
  std::string best = "generic";
  int most = 0;
  for (const auto& [engine, n] : votes) {
    if (n > most) most = n, best = engine;
  }
  return rules.EngineSubset(best);
}

const Corpus& Load() {
  static const Corpus* corpus = [] {
    auto* c = new Corpus;
    auto rules = spinup::RuleSet::LoadEmbedded();
    if (!rules.ok()) {
      std::fprintf(stderr, "matcher_bench: %s\n", rules.status().message().c_str());
      std::exit(1);
    }
    c->rules = std::move(rules).value();
    const char* env = std::getenv("SPINUP_CORPUS");
    const fs::path dir = env && *env ? env : "../shared/corpus";
    std::vector<fs::path> logs;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".log") logs.push_back(e.path());
    }
    std::sort(logs.begin(), logs.end());
    c->texts.reserve(logs.size());
    int subset = -1;
    for (const auto& path : logs) {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      c->texts.push_back(s.str());
      std::string_view text = c->texts.back();
      std::vector<std::string_view> msgs;
      while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        msgs.push_back(spinup::ParseLine(line).message);
      }
      if (subset < 0) subset = GuessSubset(c->rules, msgs);
      std::string_view last;
      for (std::string_view m : msgs) {
        if (m == last) continue;
        last = m;
        c->messages.emplace_back(m, subset);
        c->bytes += m.size();
      }
    }
    if (c->messages.empty()) {
      std::fprintf(stderr, "matcher_bench: no .log files in %s\n", dir.c_str());
      std::exit(1);
    }
    return c;
  }();
  return *corpus;
}

void BM_MatchCorpusMessages(benchmark::State& state) {
  const Corpus& c = Load();
  std::vector<int> matched;
  size_t hits = 0;
  for (auto _ : state) {
    for (const auto& [msg, subset] : c.messages) {
      c.rules.Match(msg, &matched, subset);
      hits += matched.size();
    }
  }
  benchmark::DoNotOptimize(hits);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.bytes));
  state.counters["messages"] = static_cast<double>(c.messages.size());
}
BENCHMARK(BM_MatchCorpusMessages)->Unit(benchmark::kMillisecond);

void BM_CompileEmbeddedRules(benchmark::State& state) {
  for (auto _ : state) {
    auto rules = spinup::RuleSet::LoadEmbedded();
    benchmark::DoNotOptimize(rules.ok());
  }
}
BENCHMARK(BM_CompileEmbeddedRules)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
