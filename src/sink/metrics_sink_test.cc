#include "sink/metrics_sink.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000;

Verdict LoadingVerdict() {
  Verdict v;
  v.state = State::kProgressing;
  v.phase = Phase::kWeightLoad;
  v.engine = "sglang";
  v.attempts = 1;
  v.phase_seconds = 30;
  v.budget_seconds = 600;
  v.stalled_seconds = 0.5;
  v.ranks = {{"TP0", Phase::kWeightLoad, kT0 + 10'000}, {"TP1", Phase::kDistributedInit, kT0}};
  v.timeline = {{"TP0", Phase::kDistributedInit, kT0, kT0 + 10'000, std::nullopt, false},
                {"TP0", Phase::kWeightLoad, kT0 + 10'000, std::nullopt, std::nullopt, false},
                {"TP1", Phase::kDistributedInit, kT0, std::nullopt, std::nullopt, true}};
  v.progress.bytes_done = 100'000'000'000ull;
  v.progress.bytes_total = 250'000'000'000ull;
  v.progress.bytes_per_second = 2.5e9;
  v.progress.eta_seconds = 60;
  v.findings = {{"nccl_p2p", "NCCL P2P hang", {}, "NCCL_P2P_DISABLE=1"}};
  return v;
}

TEST(MetricsSink, RendersCurrentStateWithModelAndHostOnEverySample) {
  int64_t now = kT0 + 40'000;
  MetricsSink sink({"Llama-70B", "node-a", "0.1.0"}, [&] { return now; });
  Sample s;
  s.time_ms = kT0 + 39'000;
  s.gpu_available = true;
  s.gpus = {{0, "H100", 1ull << 30, 80ull << 30, -1, {}},
            {1, "H100", 2ull << 30, 80ull << 30, -1, {}}};
  s.restarts = 2;
  sink.OnSample(s);
  Verdict loading = LoadingVerdict();
  loading.restarts = 2;  // folded by the tracker; the sink only renders it
  sink.OnVerdict(loading);

  auto parsed = ParseExposition(sink.Render());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  for (const auto& sample : parsed->samples) {
    EXPECT_EQ(sample.labels.at("model"), "Llama-70B") << sample.name;
    EXPECT_EQ(sample.labels.count("job"), 0u) << "job is the scrape config's";
    EXPECT_EQ(sample.labels.count("instance"), 0u) << "instance is the scrape config's";
    EXPECT_EQ(sample.labels.at("host"), "node-a") << sample.name;
  }
  auto value = [&](std::string_view name, std::map<std::string, std::string> m = {}) {
    const ParsedSample* p = parsed->Find(name, m);
    EXPECT_NE(p, nullptr) << name;
    return p ? p->value : -1.0;
  };
  EXPECT_EQ(value("spinup_startup_state", {{"state", "progressing"}}), 1);
  EXPECT_EQ(value("spinup_startup_state", {{"state", "stalled"}}), 0);
  EXPECT_EQ(value("spinup_ready"), 0);
  EXPECT_EQ(value("spinup_phase", {{"rank", "TP0"}, {"phase", "weight_load"}}), 1);
  EXPECT_EQ(value("spinup_phase", {{"rank", "TP0"}, {"phase", "distributed_init"}}), 0);
  EXPECT_EQ(value("spinup_phase", {{"rank", "TP1"}, {"phase", "distributed_init"}}), 1);
  EXPECT_EQ(value("spinup_phase_index", {{"rank", "TP0"}}), 3);
  EXPECT_EQ(value("spinup_phase_index", {{"rank", "TP1"}}), 2);
  EXPECT_EQ(value("spinup_phase_seconds", {{"rank", "TP0"}, {"phase", "distributed_init"}}), 10);
  EXPECT_EQ(value("spinup_phase_seconds", {{"rank", "TP0"}, {"phase", "weight_load"}}), 30);
  EXPECT_EQ(value("spinup_phase_seconds", {{"rank", "TP1"}, {"phase", "distributed_init"}}), 40);
  EXPECT_EQ(value("spinup_checkpoint_bytes"), 250e9);
  EXPECT_EQ(value("spinup_checkpoint_read_bytes"), 100e9);
  EXPECT_EQ(value("spinup_read_bytes_per_second"), 2.5e9);
  EXPECT_EQ(value("spinup_eta_seconds"), 60);
  EXPECT_EQ(value("spinup_stalled_seconds"), 0.5);
  EXPECT_EQ(value("spinup_restarts_total"), 2);
  EXPECT_EQ(value("spinup_gpu_memory_used_bytes", {{"gpu", "1"}}), 2.0 * (1ull << 30));
  EXPECT_EQ(value("spinup_finding", {{"id", "nccl_p2p"}}), 1);
  EXPECT_EQ(value("spinup_startup_seconds"), 40);
  EXPECT_EQ(parsed->type.at("spinup_restarts_total"), "counter");
  EXPECT_EQ(parsed->type.at("spinup_phase"), "gauge");

  // The running phase keeps growing with the clock.
  now += 5'000;
  parsed = ParseExposition(sink.Render());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Find("spinup_phase_seconds", {{"rank", "TP1"}})->value, 45);
}

TEST(MetricsSink, ReadyAndRestartCounterNeverGoesDown) {
  MetricsSink sink({"j", "h", "v"}, [] { return kT0; });
  Verdict v = LoadingVerdict();
  v.restarts = 3;
  sink.OnVerdict(v);
  v.state = State::kReady;
  v.restarts = 0;  // a later source that knows less must not lower a counter
  sink.Finish(v);
  auto parsed = ParseExposition(sink.Render());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Find("spinup_ready")->value, 1);
  EXPECT_EQ(parsed->Find("spinup_startup_state", {{"state", "ready"}})->value, 1);
  EXPECT_EQ(parsed->Find("spinup_restarts_total")->value, 3);
}

TEST(MetricsSink, NoGpuMetricsWithoutNvmlAndNoVerdictIsUnknown) {
  MetricsSink sink({"j", "h", "v"}, [] { return kT0; });
  Sample s;
  s.time_ms = kT0;
  s.gpu_message = "GPU: no NVML";
  sink.OnSample(s);
  auto parsed = ParseExposition(sink.Render());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Find("spinup_gpu_memory_used_bytes"), nullptr);
  EXPECT_EQ(parsed->Find("spinup_startup_state", {{"state", "unknown"}})->value, 1);
  EXPECT_EQ(parsed->Find("spinup_eta_seconds"), nullptr);
}

TEST(MetricsSink, HostileRankNamesStayParseable) {
  MetricsSink sink({"a\"b", "h\\\n", "v"}, [] { return kT0; });
  Verdict v = LoadingVerdict();
  v.ranks[0].rank = "TP0\"}\nspinup_ready 1";
  sink.OnVerdict(v);
  auto parsed = ParseExposition(sink.Render());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_NE(parsed->Find("spinup_phase", {{"rank", "TP0\"}\nspinup_ready 1"}}), nullptr);
  EXPECT_EQ(parsed->Find("spinup_ready")->labels.at("model"), "a\"b");
}

}  // namespace
}  // namespace spinup
