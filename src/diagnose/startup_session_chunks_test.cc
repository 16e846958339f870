// StartupSession::OnLogText takes text split anywhere (a file read in 1 MiB chunks, a pipe, a
// followed file): the events and the verdict must not depend on where the chunks end. The
// held partial line is completed and the whole lines are fed straight from the chunk.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "test_util.h"

namespace spinup {
namespace {

const RuleSet& Rules() {
  static RuleSet* rules = new RuleSet(std::move(LoadRules({})).value());
  return *rules;
}

struct Fed {
  std::vector<std::string> events;  // one line per event: what a sink sees
  std::string verdict;
};

Fed Feed(std::string_view log, size_t chunk) {
  SessionOptions o;
  o.reference_year = 2026;
  StartupSession s(Rules(), o);
  std::vector<LogEvent> events;
  for (size_t i = 0; i < log.size(); i += chunk) {
    s.OnLogText(0, log.substr(i, chunk), std::nullopt, &events);
  }
  s.OnSourceEnd(0, std::nullopt, &events);
  Fed r;
  for (const auto& e : events) {
    r.events.push_back(std::to_string(static_cast<int>(e.kind)) + " " + e.rule_id + " " +
                       std::to_string(e.line_no) + " " + e.rank + " " +
                       std::to_string(e.time_ms.value_or(-1)) + " " + e.text);
  }
  const Verdict v = s.Evaluate(std::nullopt);
  r.verdict = std::string(StateName(v.state)) + " " + std::to_string(v.attempts) + " " + v.headline;
  return r;
}

void ExpectChunkingDoesNotMatter(std::string_view log, const std::string& name) {
  const Fed whole = Feed(log, log.size() + 1);
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{61}, size_t{4096}}) {
    const Fed r = Feed(log, chunk);
    EXPECT_EQ(r.events, whole.events) << name << " in chunks of " << chunk;
    EXPECT_EQ(r.verdict, whole.verdict) << name << " in chunks of " << chunk;
  }
}

TEST(SessionChunks, RedrawsLongLinesAndAMissingLastNewline) {
  std::string log =
      "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70.00 GB\n"
      "Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]\r"
      "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:10<00:10, 5.00s/it]\r\n"
      "\r\n";
  log += std::string((1u << 20) + 300, 'x');  // longer than the held-line cap
  log += "\n[2026-03-09 12:00:30 TP0] Load weight end. elapsed=30.0 s, type=Qwen\n";
  log += "[2026-03-09 12:00:31 TP0] KV Cache is allocated.";  // no final newline
  const Fed whole = Feed(log, log.size() + 1);
  EXPECT_GE(whole.events.size(), 3u);
  ExpectChunkingDoesNotMatter(log, "synthetic");
}

TEST(SessionChunks, CorpusLogsGiveTheSameEventsInAnyChunking) {
  auto shared = testing::SharedDir();
  if (!shared || !std::filesystem::is_directory(*shared / "corpus")) {
    GTEST_SKIP() << "../shared/corpus is absent";
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(*shared / "corpus")) {
    if (entry.path().extension() != ".log") continue;
    ++files;
    ExpectChunkingDoesNotMatter(testing::ReadFile(entry.path()), entry.path().filename().string());
  }
  EXPECT_GE(files, 30);
}

}  // namespace
}  // namespace spinup
