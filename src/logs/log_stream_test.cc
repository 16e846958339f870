// Synthetic logs for every wrapper, encoding trouble, restarts, missing years, crash loops and
// --now, driven through the same StartupSession `spinup explain` uses.
#include "logs/log_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "diagnose/startup_session.h"
#include "logs/line_parser.h"

namespace spinup {
namespace {

const RuleSet& Rules() {
  static RuleSet* rules = [] {
    auto r = RuleSet::LoadEmbedded();
    EXPECT_TRUE(r.ok()) << r.status().message();
    return new RuleSet(std::move(r).value());
  }();
  return *rules;
}

Verdict Explain(const std::string& log, std::optional<int64_t> now = std::nullopt, int year = 2026,
                std::string engine = "") {
  SessionOptions opt;
  opt.reference_year = year;
  opt.engine = std::move(engine);
  StartupSession session(Rules(), opt);
  session.OnLogText(0, log, std::nullopt);
  session.OnSourceEnd(0, std::nullopt);
  return session.Evaluate(now);
}

const char* kSglangHang =
    "[2026-03-09 12:01:40] server_args=ServerArgs(model_path='m', tp_size=4)\n"
    "[2026-03-09 12:01:50 TP0] Init torch distributed begin.\n"
    "[2026-03-09 12:01:50 TP1] Init torch distributed begin.\n"
    "[2026-03-09 12:01:50 TP2] Init torch distributed begin.\n"
    "[2026-03-09 12:01:50 TP3] Init torch distributed begin.\n"
    "[2026-03-09 12:01:51 TP0] sglang is using nccl==2.21.5\n";

TEST(Explain, LogEndingInsidePhaseIsInProgressNotStalled) {
  Verdict v = Explain(kSglangHang);
  EXPECT_EQ(v.state, State::kInProgress);
  EXPECT_EQ(v.phase, Phase::kDistributedInit);
  EXPECT_EQ(v.engine, "sglang");
  EXPECT_FALSE(v.not_known.empty());
}

TEST(Explain, NowFarPastBudgetIsStalledWithHeadline) {
  Verdict v = Explain(kSglangHang, ParseTimeArg("2026-03-09 12:11:42"));
  EXPECT_EQ(v.state, State::kStalled);
  EXPECT_EQ(v.phase, Phase::kDistributedInit);
  EXPECT_EQ(v.headline,
            "STALLED in distributed_init on TP0\u2013TP3 for 9 min 52 s; normal is under 30 s");
  bool p2p = false;
  for (const auto& f : v.findings) p2p |= f.id == "nccl_p2p";
  EXPECT_TRUE(p2p);
}

TEST(Explain, LoadWeightBeginAloneIsInProgress) {
  Verdict v = Explain("[2026-03-09 12:01:50 TP0] Load weight begin. avail mem=70 GB\n");
  EXPECT_EQ(v.state, State::kInProgress);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
}

TEST(Explain, HeartbeatsInTheLogShowAStall) {
  std::string log =
      "(Worker_TP0 pid=400) INFO 08-29 04:16:14 [parallel_state.py:1] world_size=2 rank=0 "
      "local_rank=0 distributed_init_method=tcp://127.0.0.1:1 backend=nccl\n";
  for (int m = 17; m < 30; ++m) {
    log += "(EngineCore pid=300) WARNING 08-29 04:" + std::to_string(m) +
           ":14 [shm_broadcast.py:1] No available shared memory broadcast block found in 60 "
           "seconds.\n";
  }
  Verdict v = Explain(log);
  EXPECT_EQ(v.engine, "vllm");
  EXPECT_EQ(v.state, State::kStalled);
  EXPECT_EQ(v.phase, Phase::kDistributedInit);
}

TEST(Explain, SlowLoadThatKeepsProgressingIsNotStalled) {
  std::string log = "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n";
  for (int i = 1; i <= 20; ++i) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "[2026-03-09 12:%02d:00 TP0] Loading safetensors checkpoint shards:  %d%% "
                  "Completed | %d/40 [00:00<00:00, 60.0s/it]\n",
                  i, i * 100 / 40, i);
    log += buf;
  }
  Verdict v = Explain(log, ParseTimeArg("2026-03-09 12:22:00"));
  EXPECT_EQ(v.state, State::kInProgress);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
  EXPECT_EQ(v.progress.bar_n, 20);
  bool slow_reads = false;
  for (const auto& f : v.findings) slow_reads |= f.id == "slow_weight_reads";
  EXPECT_TRUE(slow_reads);
}

TEST(Explain, ReadyAndSlowPhaseMarked) {
  Verdict v = Explain(
      "[2026-03-09 12:00:00 TP0] Load weight begin. avail mem=70 GB\n"
      "[2026-03-09 12:05:00 TP0] Load weight end. type=X, avail mem=10 GB\n"
      "[2026-03-09 12:05:01 TP0] Memory pool end. avail mem=2 GB\n"
      "[2026-03-09 12:05:02 TP0] Capture cuda graph begin. This can take up to several minutes.\n"
      "[2026-03-09 12:05:12 TP0] Capture cuda graph end. Time elapsed: 10.00 s\n"
      "[2026-03-09 12:05:13] INFO:     Uvicorn running on http://0.0.0.0:30000\n"
      "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n");
  EXPECT_EQ(v.state, State::kReady);
  EXPECT_EQ(v.phase, Phase::kReady);
  bool weight_slow = false, graph_slow = true;
  for (const auto& e : v.timeline) {
    if (e.phase == Phase::kWeightLoad) weight_slow = e.slow;
    if (e.phase == Phase::kCudaGraph) {
      graph_slow = e.slow;
      ASSERT_TRUE(e.seconds);
      EXPECT_DOUBLE_EQ(*e.seconds, 10.0);
    }
  }
  EXPECT_TRUE(weight_slow);
  EXPECT_FALSE(graph_slow);
}

TEST(Explain, RequestServedCountsAsReady) {
  Verdict v = Explain(
      "INFO 03-09 12:05:13 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000\n"
      "INFO 03-09 12:05:20 [logger.py:1] 127.0.0.1:1 - \"POST /v1/completions HTTP/1.1\" 200 OK\n");
  EXPECT_EQ(v.state, State::kReady);
}

// SGLang's own warm-up request is not serving: ready needs "fired up" (or a later request), and
// a crash in the warm-up is a crash in warmup.
TEST(Explain, SglangWarmupRequestIsNotReady) {
  const std::string up =
      "[2026-03-09 12:05:13] INFO:     Uvicorn running on http://0.0.0.0:30000\n"
      "[2026-03-09 12:05:20] INFO:     127.0.0.1:1 - \"POST /generate HTTP/1.1\" 200 OK\n";
  Verdict warm = Explain(up);
  EXPECT_EQ(warm.state, State::kInProgress);
  EXPECT_EQ(warm.phase, Phase::kWarmup);
  Verdict crashed = Explain(up +
                            "[2026-03-09 12:05:21] Initialization failed. warmup error: Traceback "
                            "(most recent call last):\n");
  EXPECT_EQ(crashed.state, State::kCrashed);
  EXPECT_EQ(crashed.phase, Phase::kWarmup);
  Verdict ready = Explain(up + "[2026-03-09 12:05:21] The server is fired up and ready to roll!\n");
  EXPECT_EQ(ready.state, State::kReady);
}

TEST(Explain, CrashLoopAcrossRestarts) {
  // Each restart prints the same lines a minute later (the same lines with the same times are the
  // paste copied twice: one start).
  auto attempt = [](int minute) {
    const std::string at = "[2026-03-09 12:0" + std::to_string(minute) + ":";
    return at + "00] server_args=ServerArgs(model_path='m')\n" + at +
           "10 TP0] Load weight begin. avail mem=70 GB\n" + at +
           "20 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
           "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n";
  };
  Verdict one = Explain(attempt(0));
  EXPECT_EQ(one.state, State::kCrashed);
  EXPECT_EQ(one.attempts, 1);
  Verdict twice = Explain(attempt(0) + attempt(0));
  EXPECT_EQ(twice.state, State::kCrashed);
  EXPECT_EQ(twice.attempts, 1);
  Verdict v = Explain(attempt(0) + attempt(1) + attempt(2));
  EXPECT_EQ(v.state, State::kCrashLoop);
  EXPECT_EQ(v.attempts, 3);
  bool restart = false, kv = false;
  for (const auto& f : v.findings) {
    restart |= f.id == "restart_loop";
    kv |= f.id == "kv_memory";
  }
  EXPECT_TRUE(restart);
  EXPECT_TRUE(kv);
}

TEST(Explain, RestartThatSucceedsIsReady) {
  Verdict v = Explain(
      "(APIServer pid=1) INFO 03-09 12:00:00 [api_server.py:1] vLLM API server version 0.11.0\n"
      "(APIServer pid=1) ERROR 03-09 12:00:05 [core.py:1] EngineCore failed to start.\n"
      "(APIServer pid=1) INFO 03-09 12:01:00 [api_server.py:1] vLLM API server version 0.11.0\n"
      "(APIServer pid=1) INFO 03-09 12:02:00 [launcher.py:1] Application startup complete.\n");
  EXPECT_EQ(v.attempts, 2);
  EXPECT_EQ(v.state, State::kReady);
}

TEST(Explain, MissingYearComesFromReferenceAndRollsOver) {
  const char* log =
      "INFO 12-31 23:59:00 [x.py:1] vLLM API server version 0.11.0\n"
      "(Worker_TP0 pid=2) INFO 12-31 23:59:30 [x.py:1] Loading model from scratch...\n"
      "(Worker_TP0 pid=2) INFO 01-01 00:00:30 [x.py:1] Model loading took 1.0 GiB memory and 60.0 "
      "seconds\n";
  Verdict v = Explain(log, std::nullopt, 2025);
  // The launch span (from the banner) comes first; the load's span crosses the new year.
  const auto load = std::find_if(v.timeline.begin(), v.timeline.end(), [](const TimelineEntry& e) {
    return e.phase == Phase::kWeightLoad;
  });
  ASSERT_NE(load, v.timeline.end());
  const TimelineEntry& w = *load;
  ASSERT_TRUE(w.start_ms && w.end_ms);
  EXPECT_EQ(FormatIsoTime(*w.start_ms), "2025-12-31T23:59:30");
  EXPECT_EQ(FormatIsoTime(*w.end_ms), "2026-01-01T00:00:30");
  // The wrapper's year wins over the reference year.
  Verdict d =
      Explain("2024-05-01T10:00:00Z INFO 05-01 10:00:00 [x.py:1] Loading model from scratch...\n",
              std::nullopt, 2030);
  ASSERT_FALSE(d.ranks.empty());
  ASSERT_TRUE(d.ranks[0].since_ms);
  EXPECT_EQ(FormatIsoTime(*d.ranks[0].since_ms), "2024-05-01T10:00:00");
}

// The same log through every wrapper gives the same verdict.
TEST(Explain, EveryWrapperGivesTheSameVerdict) {
  std::vector<std::string> inner = {
      "[2026-03-09 12:01:50 TP0] Init torch distributed begin.",
      "[2026-03-09 12:01:52 TP0] Init torch distributed ends. elapsed=2.00 s",
      "[2026-03-09 12:01:53 TP0] Load weight begin. avail mem=70 GB",
  };
  auto wrap = [&](auto f) {
    std::string out;
    for (const auto& l : inner) out += f(l);
    return out;
  };
  std::vector<std::pair<std::string, std::string>> variants = {
      {"plain", wrap([](const std::string& l) { return l + "\n"; })},
      {"crlf", wrap([](const std::string& l) { return l + "\r\n"; })},
      {"journal",
       wrap([](const std::string& l) { return "Mar 09 12:01:53 host sglang[2957]: " + l + "\n"; })},
      {"journal-iso", wrap([](const std::string& l) {
         return "2026-03-09T12:01:53+0000 host sglang[2957]: " + l + "\n";
       })},
      {"docker",
       wrap([](const std::string& l) { return "2026-03-09T12:01:53.123456789Z " + l + "\n"; })},
      {"kubectl-prefix",
       wrap([](const std::string& l) { return "[pod/sglang-0/server] " + l + "\n"; })},
      {"kubectl-prefix-ts", wrap([](const std::string& l) {
         return "[pod/sglang-0/server] 2026-03-09T12:01:53Z " + l + "\n";
       })},
      {"compose", wrap([](const std::string& l) { return "sglang-1  | " + l + "\n"; })},
      {"ansi", wrap([](const std::string& l) {
         return "\x1b[32m" + l.substr(0, 10) + "\x1b[0m" + l.substr(10) + "\x1b[0m\n";
       })},
  };
  for (const auto& [name, log] : variants) {
    Verdict v = Explain(log);
    EXPECT_EQ(v.state, State::kInProgress) << name;
    EXPECT_EQ(v.phase, Phase::kWeightLoad) << name;
    ASSERT_FALSE(v.timeline.empty()) << name;
    EXPECT_EQ(v.timeline[0].phase, Phase::kDistributedInit) << name;
    ASSERT_TRUE(v.timeline[0].seconds) << name;
    EXPECT_DOUBLE_EQ(*v.timeline[0].seconds, 2.0) << name;
  }
}

TEST(LogStream, ChunkBoundariesDoNotMatter) {
  std::string log = std::string(kSglangHang) +
                    "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:01<00:01]\r"
                    "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00]\n"
                    "[2026-03-09 12:01:59 TP0] Load weight end. elapsed=4.0 s, type=X\n";
  auto events_of = [&](size_t chunk) {
    std::vector<std::string> out;
    LogStreamOptions opt;
    opt.reference_year = 2026;
    LogStream s(Rules(), opt);
    s.OnEvent([&](const LogEvent& e) {
      out.push_back(e.rule_id + "|" + e.rank + "|" + std::to_string(e.progress_n) + "|" +
                    std::to_string(e.time_ms.value_or(-1)));
    });
    for (size_t i = 0; i < log.size(); i += chunk) s.Feed(std::string_view(log).substr(i, chunk));
    s.Finish();
    return out;
  };
  auto whole = events_of(log.size());
  EXPECT_GE(whole.size(), 8u);
  EXPECT_EQ(events_of(1), whole);
  EXPECT_EQ(events_of(7), whole);
  EXPECT_EQ(events_of(64), whole);
}

TEST(LogStream, TqdmKeepsLatestPerBarAndSplitsOnCarriageReturn) {
  LogStreamOptions opt;
  LogStream s(Rules(), opt);
  std::vector<LogEvent> progress;
  s.OnEvent([&](const LogEvent& e) {
    if (e.kind == LogEvent::Kind::kProgress) progress.push_back(e);
  });
  s.Feed(
      "Capturing batches (bs=24 avail_mem=4.00 GB):  14%|#| 1/7 [00:01<00:06]\r"
      "Capturing batches (bs=16 avail_mem=4.00 GB):  29%|##| 2/7 [00:02<00:05]\r"
      "Capturing batches (bs=16 avail_mem=4.00 GB):  29%|##| 2/7 [00:02<00:05]\n");
  ASSERT_EQ(progress.size(), 2u);  // the repeated redraw is not a new reading
  EXPECT_EQ(progress[1].bar, "Capturing batches");
  EXPECT_EQ(progress[1].progress_n, 2);
  EXPECT_EQ(progress[1].progress_total, 7);
  EXPECT_EQ(progress[1].phase, Phase::kCudaGraph);
}

// A paste that dropped tqdm's '\r' glues the redraws on one line: the last drawn is the state,
// and another bar's reading after it is no redraw of it.
TEST(LogStream, TqdmRedrawsGluedOnOneLineReadTheLast) {
  LogStream s(Rules(), LogStreamOptions{});
  std::vector<LogEvent> progress;
  s.OnEvent([&](const LogEvent& e) {
    if (e.kind == LogEvent::Kind::kProgress) progress.push_back(e);
  });
  s.Feed(
      "(Worker_TP0 pid=111) Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):   0%|   | "
      "0/5 [00:00<?, ?it/s]Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  20%|#  | 1/5 "
      "[00:00<00:00,  8.82it/s]Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  40%|## | "
      "2/5 [00:00<00:00,  8.89it/s]Capturing CUDA graphs (mixed prefill-\n");
  ASSERT_EQ(progress.size(), 1u);
  EXPECT_EQ(progress[0].progress_n, 2);  // the redraw cut at the line's end is no reading
  EXPECT_EQ(progress[0].progress_total, 5);
  EXPECT_EQ(progress[0].rank, "Worker_TP0");
  const auto last = ParseLastTqdm("  0%|  | 0/23 [00:00<?, ?it/s]  4%|  | 1/23 [00:01<00:30]x");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->n, 1);
  const auto other =
      ParseLastTqdm("Loading: 50%|# | 1/2 [00:01<00:01]Saving: 100%|##| 2/2 [00:02]");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->bar, "Loading");  // another bar's reading is no redraw of this one
  EXPECT_EQ(other->n, 1);
}

TEST(LogStream, MegabyteLinesAreCappedAndInvalidUtf8Survives) {
  LogStreamOptions opt;
  opt.max_line_bytes = 1 << 20;
  LogStream s(Rules(), opt);
  std::vector<LogEvent> events;
  uint64_t activity = 0;
  s.OnEvent([&](const LogEvent& e) { events.push_back(e); });
  s.OnActivity([&](std::optional<int64_t>, std::string_view m) {
    ++activity;
    EXPECT_LE(m.size(), size_t{1} << 20);
  });
  std::string huge = "[2026-03-09 12:01:50 TP0] " + std::string(3 << 20, 'x') + "\n";
  for (size_t i = 0; i < huge.size(); i += 100000) s.Feed(std::string_view(huge).substr(i, 100000));
  s.Feed("[2026-03-09 12:01:51 TP0] Load weight begin. \xff\xfe\xc3 avail\n");
  s.Feed("[2026-03-09 12:01:52 TP0] no newline at the end: Scheduler hit an exception");
  s.Finish();
  EXPECT_EQ(s.lines(), 3u);
  EXPECT_EQ(activity, 1u);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].rule_id, "sglang.load_begin");
  EXPECT_LE(events[0].text.size(), opt.max_text_bytes);
  EXPECT_EQ(events.back().kind, LogEvent::Kind::kFatal);
}

TEST(LogStream, EngineIsDetectedOrForced) {
  LogStreamOptions opt;
  LogStream s(Rules(), opt);
  s.Feed("INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.\n");
  EXPECT_EQ(s.engine(), "vllm");  // a guess from the prefix...
  s.Feed("[2026-03-09 12:01:50 TP0] Init torch distributed begin.\n");
  EXPECT_EQ(s.engine(),
            "sglang");  // ...that SGLang's own prefix corrects (old SGLang imports vLLM)
  LogStreamOptions forced;
  forced.engine = "vllm";
  LogStream f(Rules(), forced);
  f.Feed("[2026-03-09 12:01:50 TP0] Init torch distributed begin.\n");
  EXPECT_EQ(f.engine(), "vllm");
}

// Until the engine is settled every engine's rules are matched; then only its own and the
// generic ones (the matcher's subset for that engine). A message repeated line after line
// reuses the rules matched for it; a different one does not.
TEST(LogStream, OtherEnginesRulesStopOnceTheEngineIsSettled) {
  RuleSet rs;
  ASSERT_TRUE(rs.AddFile("alpha.json", R"json({"engine": "alpha", "rules": [
    {"id": "alpha.banner", "regex": "^Alpha server starting", "emit": "info"},
    {"id": "alpha.shared", "regex": "shared words here", "emit": "info", "detect": false}]})json")
                  .ok());
  ASSERT_TRUE(rs.AddFile("beta.json", R"json({"engine": "beta", "rules": [
    {"id": "beta.shared", "regex": "shared words here", "emit": "info", "detect": false}]})json")
                  .ok());
  ASSERT_TRUE(rs.AddFile("generic.json", R"json({"engine": "generic", "rules": [
    {"id": "generic.words", "regex": "words here", "emit": "info"}]})json")
                  .ok());
  ASSERT_TRUE(rs.Compile().ok());
  LogStream s(rs, LogStreamOptions{});
  std::vector<std::string> ids;
  s.OnEvent([&](const LogEvent& e) { ids.push_back(e.rule_id); });
  s.Feed("shared words here\n");
  EXPECT_EQ(ids, (std::vector<std::string>{"alpha.shared", "beta.shared", "generic.words"}));
  ids.clear();
  s.Feed("Alpha server starting\nshared words here\nshared words here\nother words here\n");
  EXPECT_EQ(s.engine(), "alpha");
  EXPECT_EQ(ids, (std::vector<std::string>{"alpha.banner", "alpha.shared", "generic.words",
                                           "alpha.shared", "generic.words", "generic.words"}));
}

// A noise rule drops its lines for every rule but the info rules it keeps (a config dump's
// multi-node flags are facts); a keep entry ending in '.' is an id prefix. A keep on any other
// rule is refused with its line.
TEST(LogStream, NoiseKeepsOnlyTheFactsItsRuleNames) {
  RuleSet rs;
  ASSERT_TRUE(rs.AddFile("toy.json", R"json({"engine": "toy", "rules": [
    {"id": "toy.dump", "regex": "^args:", "emit": "noise", "keep": ["multi_node."]},
    {"id": "multi_node.nodes", "regex": "nodes=2", "emit": "info", "detect": false},
    {"id": "toy.oops", "regex": "error", "emit": "error", "detect": false},
    {"id": "toy.flag", "regex": "flag", "emit": "info", "detect": false}]})json")
                  .ok());
  ASSERT_TRUE(rs.Compile().ok());
  LogStream s(rs, LogStreamOptions{});
  std::vector<std::string> ids;
  s.OnEvent([&](const LogEvent& e) { ids.push_back(e.rule_id); });
  s.Feed("args: nodes=2 on_error=raise flag=1\nnodes=2 error flag\n");
  EXPECT_EQ(ids, (std::vector<std::string>{"multi_node.nodes", "multi_node.nodes", "toy.oops",
                                           "toy.flag"}));
  RuleSet bad;
  const Status st = bad.AddFile("bad.json", R"json({"engine": "toy", "rules": [
    {"id": "toy.x", "regex": "x", "emit": "info", "keep": ["multi_node."]}]})json");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad.json:2: rule \"toy.x\": \"keep\" needs a noise rule"),
            std::string::npos)
      << st.message();
}

// A JSON message's lines are read after its first, in order, also where one of them is itself a
// JSON line of several lines: none is left over for the next line of the log.
TEST(LogStream, JsonMessageLinesAreReadInOrder) {
  RuleSet rs;
  ASSERT_TRUE(rs.AddFile("toy.json", R"json({"engine": "toy", "rules": [
    {"id": "toy.word", "regex": "^(?:one|two|three|four|five)$", "emit": "info"}]})json")
                  .ok());
  ASSERT_TRUE(rs.Compile().ok());
  LogStream s(rs, LogStreamOptions{});
  std::vector<std::string> texts;
  s.OnEvent([&](const LogEvent& e) { texts.push_back(e.text); });
  s.Feed(R"({"message": "one\n{\"message\": \"two\\nthree\"}\nfour"})"
         "\nfive\n");
  EXPECT_EQ(texts, (std::vector<std::string>{"one", "two", "three", "four", "five"}));
}

TEST(LogStream, NoiseIsDroppedEvenFromActivity) {
  LogStreamOptions opt;
  LogStream s(Rules(), opt);
  int activity = 0, events = 0;
  s.OnActivity([&](auto, auto) { ++activity; });
  s.OnEvent([&](const LogEvent&) { ++events; });
  s.Feed("[2026-03-09 12:01:50 TP0] Ignore import error when loading sglang.srt.models.x: y\n");
  LogStream v(Rules(), opt);
  v.OnActivity([&](auto, auto) { ++activity; });
  v.OnEvent([&](const LogEvent&) { ++events; });
  v.Feed(
      "(EngineCore_DP0 pid=2) INFO 03-09 12:00:00 [utils.py:1] Reducing Torch parallelism from 64 "
      "threads to 1 to avoid unnecessary CPU contention.\n");
  EXPECT_EQ(activity, 0);
  EXPECT_EQ(events, 0);
}

// An excerpt that starts inside a traceback (its header cut off) still reports one error, at its
// first frame; a traceback with its header, and a faulthandler dump (no comma before "in"), none
// beyond their own.
TEST(LogStream, FramesWithoutTheirHeaderStandForIt) {
  auto cut_errors = [](const std::string& text) {
    LogStream s(Rules(), LogStreamOptions{});
    int n = 0;
    s.OnEvent([&](const LogEvent& e) { n += e.rule_id == "generic.traceback_cut"; });
    s.Feed(text);
    s.Finish();  // the excerpt ends: a frame line waiting for a wrap's rest is read
    return n;
  };
  const std::string frames =
      "  File \"/x/sglang/srt/model_loader/loader.py\", line 9, in load_model\n"
      "    model = _initialize_model(\n"
      "  File \"/x/sglang/srt/model_loader/utils.py\", line 80, in get_model_architecture\n"
      "    raise ValueError(\n";
  EXPECT_EQ(cut_errors(frames + "ValueError: no\n"), 1);
  EXPECT_EQ(cut_errors(frames + "ValueError: no\n" + frames), 2);  // a second excerpt
  EXPECT_EQ(cut_errors("Traceback (most recent call last):\n" + frames + "ValueError: no\n"), 0);
  EXPECT_EQ(cut_errors("16436   File \"/x/sglang/srt/managers/scheduler.py\", line 1500, in run\n"),
            1);
  EXPECT_EQ(cut_errors("Stack (most recent call last):\n" + frames), 0);
  EXPECT_EQ(cut_errors("Thread 0x00007f (most recent call first):\n"
                       "  File \"/usr/lib/python3.10/threading.py\", line 320 in wait\n"),
            0);
  Verdict v = Explain("[2026-03-09 12:01:40 TP0] Load weight begin. avail mem=78.00 GB\n" + frames);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
}

// A pasted log's markdown quote marks and trailing padding are the paste's, not the server's.
TEST(Explain, QuoteMarksAndPaddingDoNotChangeTheVerdict) {
  const std::string log =
      "INFO 08-20 10:00:00 [__init__.py:216] Automatically detected platform cuda.\n"
      "usage: vllm serve [model_tag] [options]\n"
      "vllm serve: error: argument --tensor-parallel-size/-tp: invalid int value: 'auto'\n";
  std::string quoted, padded;
  for (size_t i = 0, j; i < log.size(); i = j + 1) {
    j = log.find('\n', i);
    quoted += "> " + log.substr(i, j - i) + "\n";
    padded += log.substr(i, j - i) + "      \n";
  }
  EXPECT_EQ(Explain(log).state, State::kCrashed);
  EXPECT_EQ(Explain(quoted).state, State::kCrashed);
  EXPECT_EQ(Explain(padded).state, State::kCrashed);
}

TEST(Explain, EmptyAndUnrecognisedLogsAreUnknown) {
  EXPECT_EQ(Explain("").state, State::kUnknown);
  Verdict v = Explain("hello\nworld\n");
  EXPECT_EQ(v.state, State::kUnknown);
  EXPECT_FALSE(v.not_known.empty());
}

// A label before every line (pdsh's host) that nobody taught spinup: learned
// from the engine lines it precedes, then stripped from the traceback too, whose start-anchored
// lines decide the crash.
TEST(Explain, LearnedLabelIsStrippedFromTracebackLines) {
  std::string log;
  for (const char* line :
       {"INFO 03-09 12:00:01 [api_server.py:1] vLLM API server version 0.11.0",
        "INFO 03-09 12:00:05 [model.py:547] Resolved architecture: Qwen3ForCausalLM",
        "INFO 03-09 12:00:09 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-8B...",
        "Traceback (most recent call last):",
        "  File \"/usr/lib/python3/vllm/model_executor/model_loader/default_loader.py\", line 1, "
        "in load_weights",
        "    raise ValueError(f\"Missing weights {x}\")",
        "ValueError: Missing weights model.layers.0.mlp.gate.weight"}) {
    log += std::string("gpu-07: ") + line + "\n";
  }
  const Verdict v = Explain(log);
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad) << v.headline;
  // The headline quotes the exception line itself, read without the label.
  EXPECT_NE(v.headline.find(": ValueError: Missing weights"), std::string::npos) << v.headline;
  EXPECT_EQ(v.headline.find("gpu-07: "), std::string::npos) << v.headline;
  // Unlearned (two engine lines are not yet a pattern), the same traceback is not read as one
  // behind a label spinup does not know (pdsh's host; srun's number is a known wrapper).
  std::string short_log =
      "gpu-07: INFO 03-09 12:00:01 [api_server.py:1] vLLM API server version 0.11.0\n"
      "gpu-07: ValueError: Missing weights model.layers.0.mlp.gate.weight\n";
  EXPECT_NE(Explain(short_log).state, State::kCrashed);
}

// srun --label's task number is a known wrapper: a two-line excerpt needs no learning.
TEST(Explain, SrunLabelIsStrippedWithoutLearning) {
  const Verdict v = Explain(
      "0: INFO 03-09 12:00:09 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-8B...\n"
      "0: ValueError: Missing weights model.layers.0.mlp.gate.weight\n");
  EXPECT_EQ(v.state, State::kCrashed) << v.headline;
  EXPECT_EQ(v.phase, Phase::kWeightLoad) << v.headline;
  EXPECT_EQ(v.headline.find("0: ValueError"), std::string::npos) << v.headline;
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// Feed tells CleanLine which lines hold no ESC and no byte >= 0x80 (its line search sees them):
// wherever such a byte sits (the first 16 bytes, a later block, the last few before the line
// break), a line read by Feed gives the events FeedLine gives, which always scans.
TEST(LogStream, EscapesAndHighBytesAnywhereAreCleanedOnTheFastPath) {
  const std::string line = "[2026-03-09 12:01:50 TP0] Load weight begin. avail mem=71.20 GB";
  // The next line fills the line search's 16-byte block past the break.
  const std::string next = "[2026-03-09 12:01:51 TP0] Load weight end. mem usage=12.00 GB";
  auto events = [](auto feed) {
    LogStream s(Rules(), LogStreamOptions{});
    std::vector<std::string> out;
    s.OnEvent([&](const LogEvent& e) { out.push_back(e.rule_id + "|" + e.text); });
    feed(s);
    s.Finish();
    return out;
  };
  for (const std::string odd : {"\x1b[31m", "\xc3\xa9", "\xff", "\x1b"}) {
    for (size_t at = 0; at <= line.size(); ++at) {
      const std::string bad = line.substr(0, at) + odd + line.substr(at);
      const auto fed = events([&](LogStream& s) { s.Feed(bad + "\n" + next + "\n"); });
      const auto by_line = events([&](LogStream& s) {
        s.FeedLine(bad);
        s.FeedLine(next);
      });
      EXPECT_EQ(fed, by_line) << "at " << at;
      for (const auto& e : fed) EXPECT_EQ(e.find('\x1b'), std::string::npos) << e;
    }
  }
}

}  // namespace
}  // namespace spinup
