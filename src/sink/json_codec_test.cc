#include "sink/json_codec.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

Verdict SampleVerdict() {
  Verdict v;
  v.state = State::kStalled;
  v.phase = Phase::kDistributedInit;
  v.engine = "sglang";
  v.headline = "STALLED in distributed_init on TP0-TP3";
  v.attempts = 1;
  v.stalled_seconds = 592.0;
  v.ranks.push_back({"TP0", Phase::kDistributedInit, 1700000000000});
  v.timeline.push_back({"TP0", Phase::kLaunch, 1699999990000, 1700000000000, 10.0, false});
  v.timeline.push_back({"TP0", Phase::kDistributedInit, 1700000000000, std::nullopt, 592.0, true});
  v.progress.bytes_total = 234000000000ULL;
  v.evidence = {"no new log line for 9 min 52 s"};
  v.errors = {"Init torch distributed begin."};
  v.findings.push_back(
      {"nccl_p2p", "NCCL P2P hang", {"CPU 0.0%"}, "NCCL_P2P_DISABLE=1", "stops in NCCL setup"});
  return v;
}

TEST(JsonCodec, VerdictRoundTrips) {
  Verdict v = SampleVerdict();
  nlohmann::json j = ToJson(v);
  EXPECT_EQ(j["state"], "stalled");
  EXPECT_EQ(j["phase"], "distributed_init");
  EXPECT_TRUE(j["progress"]["bytes_done"].is_null());
  auto back = VerdictFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->state, State::kStalled);
  EXPECT_EQ(back->phase, Phase::kDistributedInit);
  ASSERT_EQ(back->timeline.size(), 2u);
  EXPECT_FALSE(back->timeline[1].end_ms.has_value());
  EXPECT_TRUE(back->timeline[1].slow);
  EXPECT_EQ(back->progress.bytes_total, 234000000000ULL);
  ASSERT_EQ(back->findings.size(), 1u);
  EXPECT_EQ(back->findings[0].fix, "NCCL_P2P_DISABLE=1");
  EXPECT_EQ(back->findings[0].why, "stops in NCCL setup");  // apart from what was seen
  EXPECT_EQ(back->findings[0].evidence, std::vector<std::string>{"CPU 0.0%"});
  EXPECT_EQ(ToJson(*back), j);
}

TEST(JsonCodec, WhatAReadyServerDidNextRoundTrips) {
  Verdict v = SampleVerdict();
  v.state = State::kReady;
  v.phase = Phase::kReady;
  v.after_ready = "died";
  const nlohmann::json j = ToJson(v);
  EXPECT_EQ(j["after_ready"], "died");
  auto back = VerdictFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->after_ready, "died");
}

TEST(JsonCodec, UnknownStateIsCorrupt) {
  nlohmann::json j = ToJson(SampleVerdict());
  j["state"] = "hung";
  auto back = VerdictFromJson(j);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().kind(), ErrorKind::kCorrupt);
  EXPECT_NE(back.status().message().find("hung"), std::string::npos);
}

TEST(JsonCodec, WrongTypeIsCorruptNotCrash) {
  nlohmann::json j = ToJson(SampleVerdict());
  j["attempts"] = "three";
  EXPECT_FALSE(VerdictFromJson(j).ok());
}

TEST(JsonCodec, OutOfRangeNumbersAreCorruptNotUndefined) {
  nlohmann::json j = ToJson(SampleVerdict());
  j["attempts"] = 1e300;
  EXPECT_EQ(VerdictFromJson(j).status().kind(), ErrorKind::kCorrupt);
  nlohmann::json s = ToJson(Sample{});
  nlohmann::json proc = nlohmann::json::object();
  proc["pid"] = 1;
  proc["listening_ports"] = nlohmann::json::array({70000});
  s["processes"] = nlohmann::json::array({proc});
  EXPECT_FALSE(SampleFromJson(s).ok()) << s.dump();
  proc.erase("listening_ports");
  proc["read_bytes"] = -5;
  s["processes"] = nlohmann::json::array({proc});
  EXPECT_FALSE(SampleFromJson(s).ok()) << s.dump();
}

TEST(JsonCodec, SampleAndEventRoundTrip) {
  Sample s;
  s.time_ms = 5;
  ProcessSample p;
  p.pid = 42;
  p.state = 'S';
  p.threads_futex_wait = 131;
  p.compiler = true;
  p.model_files.push_back({"/m/model-00001-of-00039.safetensors", 4096, 8192});
  p.listening_ports = {8000};
  s.processes.push_back(p);
  s.checkpoint_resident_bytes = 77;
  s.compiler_processes = 2;
  auto back = SampleFromJson(ToJson(s));
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->processes.size(), 1u);
  EXPECT_EQ(back->processes[0].state, 'S');
  EXPECT_EQ(back->processes[0].threads_futex_wait, 131);
  EXPECT_EQ(back->processes[0].model_files[0].offset, 4096u);
  EXPECT_EQ(back->processes[0].listening_ports, std::vector<uint16_t>{8000});
  EXPECT_EQ(back->checkpoint_resident_bytes, 77u);
  EXPECT_TRUE(back->processes[0].compiler);
  EXPECT_EQ(back->compiler_processes, 2);

  LogEvent e;
  e.kind = LogEvent::Kind::kProgress;
  e.rank = "TP0";
  e.phase = Phase::kWeightLoad;
  e.bar = "Loading safetensors checkpoint shards";
  e.progress_n = 18;
  e.progress_total = 39;
  auto eb = LogEventFromJson(ToJson(e));
  ASSERT_TRUE(eb.ok());
  EXPECT_EQ(eb->kind, LogEvent::Kind::kProgress);
  EXPECT_EQ(eb->progress_n, 18);
  EXPECT_EQ(eb->phase, Phase::kWeightLoad);
}

}  // namespace
}  // namespace spinup
