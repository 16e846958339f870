// The judge in live mode: the tracker fed with LogEvents and /proc Samples, as `watch` does.
#include "diagnose/judge.h"

#include <gtest/gtest.h>

#include "base/duration.h"
#include "diagnose/rank_format.h"
#include "diagnose/tracker.h"

namespace spinup {
namespace {

const RuleSet& Rules() {
  static RuleSet* rules = new RuleSet(std::move(RuleSet::LoadEmbedded()).value());
  return *rules;
}

constexpr int64_t kT0 = 1773057600000;  // 2026-03-09 12:00:00

LogEvent Begin(Phase p, int64_t t, std::string rank = "TP0") {
  LogEvent e;
  e.kind = LogEvent::Kind::kPhaseBegin;
  e.phase = p;
  e.time_ms = t;
  e.rank = std::move(rank);
  e.rule_id = "test.begin";
  return e;
}

Sample At(int64_t t, uint64_t read_bytes, double cpu, uint64_t gpu, std::string comm = "python3") {
  Sample s;
  s.time_ms = t;
  ProcessSample p;
  p.pid = 10;
  p.comm = std::move(comm);
  p.read_bytes = read_bytes;
  p.cpu_seconds = cpu;
  p.threads = 10;
  p.threads_futex_wait = 9;
  s.processes.push_back(p);
  s.gpu_available = true;
  GpuSample g;
  g.used_bytes = gpu;
  s.gpus.push_back(g);
  return s;
}

bool HasEvidence(const Verdict& v, const std::string& needle);

Verdict Live(const StartupTracker& t, int64_t now) {
  JudgeOptions o;
  o.live = true;
  o.now_ms = now;
  return Judge(Rules()).Evaluate(t.state(), o);
}

TEST(LiveJudge, SlowLoadThatKeepsReadingIsNeverStalled) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0));
  for (int i = 0; i <= 120; ++i) {  // 20 minutes, one sample per 10 s, reads growing
    t.OnSample(At(kT0 + i * 10000, uint64_t(i) * 50'000'000, i * 0.5, 1'000'000'000));
  }
  Verdict v = Live(t, kT0 + 1200000);
  EXPECT_EQ(v.state, State::kSlow);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
  ASSERT_TRUE(v.stalled_seconds);
  EXPECT_LT(*v.stalled_seconds, 30);
}

TEST(LiveJudge, NoProgressOfAnyKindPastBudgetIsStalled) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kDistributedInit, kT0));
  for (int i = 0; i <= 60; ++i) t.OnSample(At(kT0 + i * 10000, 1000, 1.0, 500'000'000));
  Verdict early = Live(t, kT0 + 60000);
  EXPECT_EQ(early.state, State::kSlow);  // 60 s: over the 30 s normal, under the 120 s stall
  Verdict v = Live(t, kT0 + 600000);
  EXPECT_EQ(v.state, State::kStalled);
  EXPECT_NE(v.headline.find("STALLED in distributed_init on TP0"), std::string::npos) << v.headline;
  // One node, CPU idle, threads in futex waits in distributed_init: broken P2P comes first, and
  // multi-node rendezvous causes are not offered.
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings.front().id, "nccl_p2p");
  for (const auto& f : v.findings) EXPECT_NE(f.id, "rendezvous");

  // The same signals on a two-node job: rendezvous, not single-node P2P.
  LogEvent nodes;
  nodes.kind = LogEvent::Kind::kInfo;
  nodes.rule_id = "multi_node.nnodes";
  nodes.time_ms = kT0 + 1;
  nodes.text = "server_args=ServerArgs(nnodes=2)";
  t.OnLogEvent(nodes);
  Verdict multi = Live(t, kT0 + 600000);
  ASSERT_EQ(multi.state, State::kStalled);
  ASSERT_FALSE(multi.findings.empty());
  EXPECT_EQ(multi.findings.front().id, "rendezvous");
  for (const auto& f : multi.findings) EXPECT_NE(f.id, "nccl_p2p");
}

// Budgets learned from this host's history replace the fixed ones: a hang is called at the learned
// stall time, long before the fixed 600 s, and the evidence says what the phase usually takes.
TEST(LiveJudge, LearnedBudgetsCallAHangEarlier) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0));
  for (int i = 0; i <= 12; ++i) t.OnSample(At(kT0 + i * 10000, 1000, 1.0, 500'000'000));
  JudgeOptions o;
  o.live = true;
  o.now_ms = kT0 + 120000;
  EXPECT_NE(Judge(Rules()).Evaluate(t.state(), o).state, State::kStalled);  // fixed: 600 s
  LearnedBudgets learned;
  learned[Phase::kWeightLoad] = {40, 90, "weight_load usually 30 s (last 5 starts, at most 35 s)"};
  o.learned = &learned;
  Verdict v = Judge(Rules()).Evaluate(t.state(), o);
  EXPECT_EQ(v.state, State::kStalled) << v.headline;
  EXPECT_TRUE(HasEvidence(v, "weight_load usually 30 s (last 5 starts, at most 35 s); now 2 min"))
      << ::testing::PrintToString(v.evidence);
}

// Issue 11 item 10: a watched tree that exits before ready is a verdict, naming the ranks that
// outlived it.
TEST(LiveJudge, AWatchedTreeThatExitsIsACrashNamingOrphans) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0));
  t.OnSample(At(kT0 + 1000, 1000, 1.0, 0));
  Sample gone = At(kT0 + 2000, 1000, 1.0, 0);
  gone.processes.clear();
  gone.watched_gone = true;
  gone.orphans = {4242, 4243};
  t.OnSample(gone);
  Verdict v = Live(t, kT0 + 2000);
  EXPECT_EQ(v.state, State::kCrashed);
  EXPECT_EQ(v.phase, Phase::kWeightLoad);
  ASSERT_FALSE(v.errors.empty());
  EXPECT_NE(v.errors.back().find("PID 4242, 4243"), std::string::npos) << v.errors.back();
}

TEST(LiveJudge, CompilerChildrenCountAsProgress) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kCudaGraph, kT0));
  for (int i = 0; i <= 60; ++i) t.OnSample(At(kT0 + i * 10000, 1000, 1.0, 500, "nvcc"));
  Verdict v = Live(t, kT0 + 600000);
  EXPECT_EQ(v.state, State::kSlow);
  bool jit = false;
  for (const auto& f : v.findings) jit |= f.id == "cold_jit";
  EXPECT_TRUE(jit);
}

TEST(LiveJudge, ExitStatusIsACrash) {
  StartupTracker t;
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0));
  Sample s = At(kT0 + 1000, 0, 0, 0);
  s.exit_status = -9;
  t.OnSample(s);
  Verdict v = Live(t, kT0 + 2000);
  EXPECT_EQ(v.state, State::kCrashed);
  ASSERT_FALSE(v.errors.empty());
  EXPECT_NE(v.errors.back().find("signal 9"), std::string::npos);
}

bool HasEvidence(const Verdict& v, const std::string& needle) {
  for (const auto& e : v.evidence) {
    if (e.find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(LiveJudge, StalledVerdictCarriesTheEvidenceAPersonWouldGather) {
  StartupTracker t;
  t.SetEngine("sglang");
  for (int r = 0; r < 4; ++r) {
    LogEvent e = Begin(Phase::kDistributedInit, kT0, "TP" + std::to_string(r));
    e.text = "Init torch distributed begin.";
    t.OnLogEvent(e);
  }
  // 10 minutes of samples: no reads, no CPU, GPU memory flat at 1 GiB per device.
  for (int i = 0; i <= 60; ++i) {
    Sample s = At(kT0 + i * 10000, 4096, 3.0, 0);
    s.gpus.clear();
    for (int g = 0; g < 4; ++g) {
      GpuSample gpu;
      gpu.index = g;
      gpu.used_bytes = 1ULL << 30;
      s.gpus.push_back(gpu);
    }
    t.OnSample(s);
  }
  Verdict v = Live(t, kT0 + 600000);
  ASSERT_EQ(v.state, State::kStalled) << v.headline;
  EXPECT_NE(v.headline.find("distributed_init on TP0\u2013TP3"), std::string::npos) << v.headline;
  EXPECT_TRUE(HasEvidence(v, "no new log line for 10 min")) << ::testing::PrintToString(v.evidence);
  EXPECT_TRUE(HasEvidence(v, "CPU 0.0% on 1 process"));
  EXPECT_TRUE(HasEvidence(v, "9 of 10 threads in futex or poll wait"));
  EXPECT_TRUE(HasEvidence(v, "no disk reads"));
  EXPECT_TRUE(HasEvidence(v, "GPU memory flat at 1.0 GiB per device"));
  EXPECT_TRUE(HasEvidence(v, "last line on TP0\u2013TP3: Init torch distributed begin."));
}

TEST(LiveJudge, NoLogAndNoSignalPastTheLaunchBudgetIsStalled) {
  StartupTracker t;
  for (int i = 0; i <= 40; ++i) t.OnSample(At(kT0 + i * 10000, 4096, 1.0, 0));
  Verdict early = Live(t, kT0 + 20000);
  EXPECT_EQ(early.state, State::kStarting);
  Verdict v = Live(t, kT0 + 400000);
  ASSERT_EQ(v.state, State::kStalled) << v.headline;
  EXPECT_TRUE(HasEvidence(v, "no log line read"));
  EXPECT_TRUE(HasEvidence(v, "no disk reads"));
}

TEST(LiveJudge, NoLogButCpuBusyKeepsStarting) {
  StartupTracker t;
  for (int i = 0; i <= 40; ++i) t.OnSample(At(kT0 + i * 10000, 4096, i * 5.0, 0));
  EXPECT_EQ(Live(t, kT0 + 400000).state, State::kStarting);
}

TEST(LiveJudge, PortListeningAndHealth200IsReadyWithoutAReadyLine) {
  StartupTracker t;
  t.SetEngine("sglang");
  t.OnLogEvent(Begin(Phase::kCudaGraph, kT0));
  Sample s = At(kT0 + 1000, 0, 0, 0);
  s.port_listening = true;
  s.health_http_status = 503;
  t.OnSample(s);
  EXPECT_NE(Live(t, kT0 + 1000).state, State::kReady);
  s.time_ms = kT0 + 2000;
  s.health_http_status = 200;
  t.OnSample(s);
  Verdict v = Live(t, kT0 + 2000);
  EXPECT_EQ(v.state, State::kReady);
  EXPECT_TRUE(HasEvidence(v, "/health answered 200"));
}

TEST(LiveJudge, StartingBeforeAnyPhaseLine) {
  StartupTracker t;
  t.OnSample(At(kT0, 0, 0, 0));
  EXPECT_EQ(Live(t, kT0 + 1000).state, State::kStarting);
}

TEST(Format, DurationsAndRankRanges) {
  EXPECT_EQ(FormatDuration(4.58), "4.6 s");
  EXPECT_EQ(FormatDuration(30), "30 s");
  EXPECT_EQ(FormatDuration(592), "9 min 52 s");
  EXPECT_EQ(FormatDuration(120), "2 min");
  EXPECT_EQ(FormatDuration(4168), "1 h 09 min");
  EXPECT_EQ(FormatRanks({"TP0", "TP1", "TP2", "TP3"}), "TP0\u2013TP3");
  EXPECT_EQ(FormatRanks({"TP3_EP3", "TP1_EP1", "TP0_EP0", "TP2_EP2"}), "TP0\u2013TP3");
  EXPECT_EQ(FormatRanks({"TP0", "TP1", "TP5"}), "TP0\u2013TP1, TP5");
  EXPECT_EQ(FormatRanks({""}), "main");
  EXPECT_EQ(FormatRanks({"APIServer", "EngineCore"}), "APIServer, EngineCore");
}

TEST(Format, PeerGroupsOfTensorAndExpertParallelRanks) {
  EXPECT_EQ(PeerGroup("Worker_TP1"), "Worker_TP");
  EXPECT_EQ(PeerGroup("Worker_TP1_EP1"), "Worker_TP");
  EXPECT_EQ(PeerGroup("Worker_TP0_EP0"), PeerGroup("Worker_TP1"));
  EXPECT_EQ(PeerGroup("DP1_TP3"), "DP1_TP");
  EXPECT_NE(PeerGroup("DP0_TP1"), PeerGroup("DP1_TP1"));
}

TEST(Format, RankIndexReadsOneWordOfTheRank) {
  EXPECT_EQ(RankIndex("TP14", "TP"), 14);
  EXPECT_EQ(RankIndex("DP0_TP3", "TP"), 3);
  EXPECT_EQ(RankIndex("TP10_EP10", "EP"), 10);
  EXPECT_EQ(RankIndex("rank10", "rank"), 10);
  EXPECT_EQ(RankIndex("DP3", "TP"), -1);
  EXPECT_EQ(RankIndex("Worker-1861983", "TP"), -1);
  EXPECT_EQ(RankIndex("ATP3", "TP"), -1);        // a word that only ends in TP
  EXPECT_EQ(RankIndex("TPx", "TP"), -1);         // no number
  EXPECT_EQ(RankIndex("TP12345678", "TP"), -1);  // no rank has that many digits
  EXPECT_EQ(RankIndex("", "TP"), -1);
}

TEST(Tracker, BoundedWhateverTheInput) {
  StartupTracker t;
  // One long attempt: more ranks, spans and errors than the caps.
  for (int i = 0; i < 6000; ++i) {
    LogEvent e = Begin(static_cast<Phase>(i % 9), kT0 + i, "TP" + std::to_string(i % 1000));
    if (i % 3 == 0) {
      e.kind = LogEvent::Kind::kError;
      e.text = std::string(1000, 'e');
    }
    t.OnLogEvent(e);
  }
  // Then a long restart loop.
  for (int i = 0; i < 40; ++i) {
    LogEvent e = Begin(Phase::kLaunch, kT0 + 10000 + i);
    e.kind = LogEvent::Kind::kAttemptStart;
    t.OnLogEvent(e);
    t.OnLogEvent(Begin(Phase::kWeightLoad, kT0 + 10000 + i));
  }
  const auto& st = t.state();
  EXPECT_LE(st.attempts.size(), StartupTracker::kMaxAttempts);
  EXPECT_EQ(st.attempts.front().index, 1);  // the first attempt is kept
  const auto& first = st.attempts.front();
  EXPECT_EQ(first.ranks.size(), StartupTracker::kMaxRanks);
  EXPECT_LE(first.timeline.size(), StartupTracker::kMaxSpans);
  EXPECT_GT(first.timeline.size(), 0u);
  EXPECT_EQ(first.errors.size(), StartupTracker::kMaxErrors);
  EXPECT_EQ(st.total_attempts, 41);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

LogEvent End(Phase p, int64_t t, std::string rank) {
  LogEvent e = Begin(p, t, std::move(rank));
  e.kind = LogEvent::Kind::kPhaseEnd;
  e.rule_id = "test.end";
  return e;
}

Verdict Offline(const StartupTracker& t, int64_t now) {
  JudgeOptions o;
  o.now_ms = now;
  return Judge(Rules()).Evaluate(t.state(), o);
}

// A TGI start with two shards loading, shard0 done after 20 s.
StartupTracker TwoShardsOneLoaded() {
  StartupTracker t;
  t.SetEngine("tgi");
  t.SetPhaseOrder(Rules().PhaseOrder("tgi"));
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0, "shard0"));
  t.OnLogEvent(Begin(Phase::kWeightLoad, kT0, "shard1"));
  t.OnLogEvent(End(Phase::kWeightLoad, kT0 + 20000, "shard0"));
  return t;
}

// One shard ended its load (the next phase is only a guess), its peer has not: the start waits
// on the peer, in weight_load.
TEST(PeerRanks, AStartWaitsInThePhaseAPeerHasNotEnded) {
  StartupTracker t = TwoShardsOneLoaded();
  EXPECT_EQ(Offline(t, kT0 + 900000).phase, Phase::kWeightLoad);
}

// Once the next phase has a line of its own, or the peer has ended too, the start is there.
TEST(PeerRanks, ALineOfTheNextPhaseOrAnEndedPeerMovesOn) {
  StartupTracker t = TwoShardsOneLoaded();
  t.OnLogEvent(End(Phase::kWeightLoad, kT0 + 25000, "shard1"));
  EXPECT_EQ(Offline(t, kT0 + 900000).phase, Phase::kHttpStart);

  StartupTracker u = TwoShardsOneLoaded();
  u.OnLogEvent(Begin(Phase::kHttpStart, kT0 + 21000, "shard0"));
  EXPECT_EQ(Offline(u, kT0 + 900000).phase, Phase::kHttpStart);
}

}  // namespace
}  // namespace spinup
