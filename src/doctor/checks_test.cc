// The checks over hand-built and gathered host views: each "Done when" item of issue 13.
#include "doctor/doctor.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "doctor_fixtures.h"
#include "format/checkpoint_writer.h"
#include "test_util.h"

namespace spinup::doctor {
namespace {

using testing::TempDir;

const DoctorRules& Rules() {
  static const DoctorRules rules = [] {
    auto r = EmbeddedDoctorRules();
    if (!r.ok()) throw std::runtime_error(r.status().message());
    return *r;
  }();
  return rules;
}

const CheckResult* Find(const DoctorReport& r, const std::string& id) {
  for (const auto& c : r.checks) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

TEST(DoctorChecks, HealthyHostAndCommandGiveNoWarnings) {
  TempDir dir;
  testing::WriteModel(dir / "model", testing::DenseConfig(2, 8, 2, 16, 32768));
  HostView v = testing::HealthyView(dir / "model");
  DoctorReport r = RunChecks(v, Rules());
  EXPECT_EQ(r.Count(CheckStatus::kWarn), 0u) << DoctorReportText(r);
  EXPECT_EQ(r.Count(CheckStatus::kFail), 0u) << DoctorReportText(r);
  EXPECT_GE(r.Count(CheckStatus::kOk), 12u) << DoctorReportText(r);
  EXPECT_EQ(DoctorExitCode(r), 0);
  ASSERT_NE(Find(r, "kv-cache"), nullptr);
  EXPECT_EQ(Find(r, "kv-cache")->status, CheckStatus::kOk);
}

TEST(DoctorChecks, SeedsCrashLoopOnHybridMoeFailsWithTheFix) {
  TempDir dir;
  testing::WriteModel(dir / "qwen35", testing::Qwen35HybridMoeConfig());
  const std::vector<std::string> mtp = {
      "--speculative-algorithm",  "NEXTN", "--speculative-num-steps",        "3",
      "--speculative-eagle-topk", "1",     "--speculative-num-draft-tokens", "4"};
  HostView v = testing::HealthyView(dir / "qwen35", mtp);
  DoctorReport r = RunChecks(v, Rules());
  const CheckResult* c = Find(r, "hybrid-mtp-sglang");
  ASSERT_NE(c, nullptr) << DoctorReportText(r);
  EXPECT_EQ(c->status, CheckStatus::kFail);
  EXPECT_NE(c->evidence.find("Qwen3_5MoeForConditionalGeneration"), std::string::npos);
  EXPECT_NE(c->evidence.find(
                "--mamba-scheduler-strategy extra_buffer and SGLANG_ENABLE_SPEC_V2=1 are not set"),
            std::string::npos)
      << c->evidence;
  EXPECT_NE(c->fix.find("--mamba-scheduler-strategy extra_buffer"), std::string::npos);
  EXPECT_NE(c->fix.find("SGLANG_ENABLE_SPEC_V2=1"), std::string::npos);
  EXPECT_EQ(DoctorExitCode(r), 1);

  // Half the fix still fails and names only what is missing.
  auto half = mtp;
  half.insert(half.end(), {"--mamba-scheduler-strategy", "extra_buffer"});
  HostView hv = testing::HealthyView(dir / "qwen35", half);
  DoctorReport hr = RunChecks(hv, Rules());
  ASSERT_NE(Find(hr, "hybrid-mtp-sglang"), nullptr);
  EXPECT_NE(Find(hr, "hybrid-mtp-sglang")->evidence.find("SGLANG_ENABLE_SPEC_V2=1 is not set"),
            std::string::npos);

  // The whole fix: the rule is satisfied and nothing fails.
  HostView fixed = testing::HealthyView(dir / "qwen35", half);
  fixed.command.env["SGLANG_ENABLE_SPEC_V2"] = "1";
  DoctorReport fr = RunChecks(fixed, Rules());
  EXPECT_EQ(Find(fr, "hybrid-mtp-sglang"), nullptr);
  EXPECT_EQ(fr.Count(CheckStatus::kFail), 0u) << DoctorReportText(fr);

  // The same model without speculative decoding is fine too.
  DoctorReport plain = RunChecks(testing::HealthyView(dir / "qwen35"), Rules());
  EXPECT_EQ(Find(plain, "hybrid-mtp-sglang"), nullptr);
}

HostView FourGpusNoNvlink(const std::filesystem::path& model) {
  HostView v = testing::HealthyView(model, {"--tp", "4"});
  v.gpus.clear();
  v.links.clear();
  for (int i = 0; i < 4; ++i) v.gpus.push_back({i, "NVIDIA L40S", 48ull << 30, 0, {}});
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) v.links.push_back({a, b, false, "PHB", false});
  }
  return v;
}

TEST(DoctorChecks, FourGpusWithoutNvlinkUnderIommuAndSevSnpWarnAboutP2p) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 4, 16, 32768));
  HostView v = FourGpusNoNvlink(dir / "m");
  v.iommu_mode = "translated";
  v.hypervisor = true;
  v.confidential_vm = "SEV-SNP";
  DoctorReport r = RunChecks(v, Rules());
  const CheckResult* c = Find(r, "p2p-risk");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->status, CheckStatus::kWarn) << DoctorReportText(r);
  EXPECT_NE(c->evidence.find("tp=4"), std::string::npos);
  EXPECT_NE(c->evidence.find("PCIe PHB"), std::string::npos);
  EXPECT_NE(c->evidence.find("IOMMU"), std::string::npos);
  EXPECT_NE(c->evidence.find("SEV-SNP"), std::string::npos);
  EXPECT_NE(c->evidence.find("Init torch distributed begin."), std::string::npos);
  EXPECT_NE(c->fix.find("NCCL_P2P_DISABLE=1"), std::string::npos);
  EXPECT_EQ(r.Count(CheckStatus::kFail), 0u) << DoctorReportText(r);

  // Already worked around: ok.
  v.command.env["NCCL_P2P_DISABLE"] = "1";
  EXPECT_EQ(Find(RunChecks(v, Rules()), "p2p-risk")->status, CheckStatus::kOk);
  // NVLink between all four: ok whatever the platform.
  HostView nv = FourGpusNoNvlink(dir / "m");
  nv.iommu_mode = "translated";
  for (auto& l : nv.links) l.nvlink = true;
  EXPECT_EQ(Find(RunChecks(nv, Rules()), "p2p-risk")->status, CheckStatus::kOk);
  // tp=1: nothing to check.
  HostView one = testing::HealthyView(dir / "m", {"--tp", "1"});
  one.confidential_vm = "SEV-SNP";
  EXPECT_EQ(Find(RunChecks(one, Rules()), "p2p-risk")->status, CheckStatus::kSkipped);
}

TEST(DoctorChecks, PortOwnerAndGpuHolderAreNamed) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  HostView v = testing::HealthyView(dir / "m");
  v.port_listening = true;
  v.port_owners.push_back({4100, 1, "python3", "python3 -m http.server 30000", "port 30000"});
  v.gpu_holders.push_back({4200, 1, "python3", "sglang::scheduler_TP0", "/dev/nvidia0"});
  v.gpu_holders.push_back({4300, 1, "nvidia-persistenced", "nvidia-persistenced", "/dev/nvidia0"});
  DoctorReport r = RunChecks(v, Rules());
  const CheckResult* port = Find(r, "port-free");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->status, CheckStatus::kFail);
  EXPECT_NE(port->evidence.find("PID 4100 (python3 -m http.server 30000"), std::string::npos);
  const CheckResult* gpu = Find(r, "gpu-holders");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->status, CheckStatus::kFail);
  EXPECT_NE(gpu->evidence.find("PID 4200 (sglang::scheduler_TP0, parent PID 1: an orphan) holds "
                               "/dev/nvidia0"),
            std::string::npos)
      << gpu->evidence;
  EXPECT_EQ(gpu->evidence.find("4300"), std::string::npos);  // the persistence daemon is expected
  EXPECT_NE(gpu->fix.find("kill 4200"), std::string::npos);
}

TEST(DoctorChecks, ContextThatDoesNotFitIsPredictedWithTheLargestThatDoes) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  HostView v = testing::HealthyView(dir / "m",
                                    {"--context-length", "131072", "--mem-fraction-static", "0.8"});
  v.gpus.clear();
  v.links.clear();
  v.nvml_available = false;
  v.gpu_mem_flag = 4ull << 20;  // 4 MiB "GPUs": 128 bytes per token per rank
  DoctorReport r = RunChecks(v, Rules());
  ASSERT_TRUE(r.kv);
  EXPECT_DOUBLE_EQ(r.kv->bytes_per_token, 128.0);
  EXPECT_LT(r.kv->tokens, 131072);
  EXPECT_GT(r.kv->tokens, 20000);
  EXPECT_EQ(r.kv->max_context, r.kv->tokens / 1024 * 1024);
  const CheckResult* kv = Find(r, "kv-cache");
  ASSERT_NE(kv, nullptr);
  EXPECT_EQ(kv->status, CheckStatus::kWarn);  // SGLang starts and caps requests
  std::string largest = std::to_string(r.kv->max_context);
  largest.insert(largest.size() - 3, ",");
  EXPECT_NE(kv->evidence.find("the largest context that fits is " + largest), std::string::npos)
      << kv->evidence;
  EXPECT_NE(kv->fix.find("--context-length " + largest), std::string::npos) << kv->fix;

  // vLLM refuses to start in the same spot: a failure, with its own flag names.
  v.command = ParseServerCommand({"vllm", "serve", (dir / "m").string(), "-tp", "2",
                                  "--max-model-len", "131072", "--gpu-memory-utilization", "0.95"});
  v.gpu_mem_flag = 8ull << 20;
  Rules();
  Thresholds t = Rules().thresholds;
  t.vllm_activation_reserve_bytes = 1 << 20;
  DoctorRules rules = Rules();
  rules.thresholds = t;
  DoctorReport vr = RunChecks(v, rules);
  ASSERT_NE(Find(vr, "kv-cache"), nullptr);
  EXPECT_EQ(Find(vr, "kv-cache")->status, CheckStatus::kFail) << DoctorReportText(vr);
  EXPECT_NE(Find(vr, "kv-cache")->fix.find("--max-model-len"), std::string::npos);
  EXPECT_EQ(DoctorExitCode(vr), 1);
}

TEST(DoctorChecks, CheckpointGroup) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  DoctorReport r = RunChecks(testing::HealthyView(dir / "m", {"--tp", "3"}), Rules());
  const CheckResult* tp = Find(r, "tp-divisible");
  ASSERT_NE(tp, nullptr);
  EXPECT_EQ(tp->status, CheckStatus::kFail);
  EXPECT_NE(tp->evidence.find("num_attention_heads = 8 is not divisible by tp=3"),
            std::string::npos);
  EXPECT_NE(tp->fix.find("1, 2, 4, 8"), std::string::npos) << tp->fix;

  ASSERT_TRUE(gen::WriteDamaged(dir / "bad", gen::Damage::kTruncated).ok());
  DoctorReport bad = RunChecks(testing::HealthyView(dir / "bad"), Rules());
  ASSERT_NE(Find(bad, "checkpoint-whole"), nullptr);
  EXPECT_EQ(Find(bad, "checkpoint-whole")->status, CheckStatus::kFail);
  EXPECT_NE(Find(bad, "checkpoint-whole")->evidence.find("truncated"), std::string::npos);

  // A Hub id that is not in the cache: a download (warn), or with HF_HUB_OFFLINE=1 a failure.
  HostView hub = testing::HealthyView(dir / "m");
  hub.checkpoint.reset();
  GatherCheckpoint("org/missing", dir / "hub", false, hub);
  EXPECT_EQ(Find(RunChecks(hub, Rules()), "checkpoint-resolvable")->status, CheckStatus::kWarn);
  hub.checkpoint_error.clear();
  GatherCheckpoint("org/missing", dir / "hub", true, hub);
  DoctorReport offline = RunChecks(hub, Rules());
  const CheckResult* off = Find(offline, "checkpoint-resolvable");
  EXPECT_EQ(off->status, CheckStatus::kFail);
  EXPECT_NE(off->fix.find("HF_HUB_OFFLINE=1"), std::string::npos);
}

TEST(DoctorChecks, HostGroupThresholdsFromTheRules) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  HostView v = testing::HealthyView(dir / "m");
  v.shm_bytes = 64ull << 20;
  v.nofile_hard = 4096;
  v.command.env["NCCL_SOCKET_IFNAME"] = "ens5";
  v.command.env["CUDA_VISIBLE_DEVICES"] = "0,0";
  v.caches.push_back({"TRITON_CACHE_DIR", "/ro/triton", false, false, std::nullopt});
  DoctorReport r = RunChecks(v, Rules());
  EXPECT_EQ(Find(r, "shm-size")->status, CheckStatus::kWarn);
  EXPECT_NE(Find(r, "shm-size")->evidence.find("64.0 MiB"), std::string::npos);
  EXPECT_EQ(Find(r, "ulimit-nofile")->status, CheckStatus::kWarn);
  EXPECT_EQ(Find(r, "socket-ifname")->status, CheckStatus::kFail);
  EXPECT_NE(Find(r, "socket-ifname")->fix.find("NCCL_SOCKET_IFNAME=eth0"), std::string::npos);
  EXPECT_EQ(Find(r, "cuda-visible-devices")->status, CheckStatus::kFail);
  EXPECT_EQ(Find(r, "cache-dirs")->status, CheckStatus::kWarn);
  EXPECT_NE(Find(r, "cache-dirs")->evidence.find("TRITON_CACHE_DIR=/ro/triton is not writable"),
            std::string::npos);
  v.gpus.resize(1);
  v.command.env.erase("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(Find(RunChecks(v, Rules()), "gpu-count")->status, CheckStatus::kFail);
}

TEST(DoctorChecks, MultiNodeRendezvousRules) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  DoctorReport r = RunChecks(testing::HealthyView(dir / "m", {"--nnodes", "2"}), Rules());
  EXPECT_EQ(Find(r, "multinode-rendezvous")->status, CheckStatus::kFail);
  EXPECT_EQ(Find(r, "multinode-ifname")->status, CheckStatus::kWarn);
  DoctorReport v6 = RunChecks(
      testing::HealthyView(dir / "m", {"--nnodes", "2", "--dist-init-addr", "[fd00::1]:5000"}),
      Rules());
  EXPECT_EQ(Find(v6, "multinode-rendezvous"), nullptr);
  EXPECT_EQ(Find(v6, "multinode-ipv6")->status, CheckStatus::kWarn);
  DoctorReport v4 = RunChecks(
      testing::HealthyView(dir / "m", {"--nnodes", "2", "--dist-init-addr", "10.0.0.1:5000"}),
      Rules());
  EXPECT_EQ(Find(v4, "multinode-ipv6"), nullptr);
}

TEST(DoctorChecks, RemainingChecksEachFireOnTheirFixture) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  testing::WriteModel(dir / "hybrid", testing::Qwen35HybridMoeConfig());

  // command: a bad value fails, an unknown launcher warns and the host checks still run.
  HostView bad = testing::HealthyView(dir / "m", {"--tp-size", "zero"});
  EXPECT_EQ(Find(RunChecks(bad, Rules()), "command")->status, CheckStatus::kFail);
  HostView unknown = testing::HealthyView(dir / "m");
  unknown.command = ParseServerCommand({"./start.sh"});
  DoctorReport ur = RunChecks(unknown, Rules());
  EXPECT_EQ(Find(ur, "command")->status, CheckStatus::kWarn);
  EXPECT_NE(Find(ur, "shm-size"), nullptr);

  // weights-fit: weights per rank over fraction x GPU memory.
  HostView small = testing::HealthyView(dir / "m");
  small.gpus.clear();
  small.nvml_available = false;
  small.gpu_mem_flag = 64 << 10;
  DoctorReport sr = RunChecks(small, Rules());
  EXPECT_EQ(Find(sr, "weights-fit")->status, CheckStatus::kFail);
  EXPECT_EQ(Find(sr, "kv-cache")->status, CheckStatus::kFail);  // nothing left for it

  // load-time and ram-for-mmap: slow storage, cold cache, little RAM.
  HostView slow = testing::HealthyView(dir / "m");
  slow.read_bytes_per_s = 100.0;
  slow.read_source = "--read-bw";
  slow.resident_fraction = 0.0;
  slow.mem_available = 1000;
  DoctorReport lr = RunChecks(slow, Rules());
  EXPECT_EQ(Find(lr, "load-time")->status, CheckStatus::kWarn);
  EXPECT_NE(Find(lr, "load-time")->evidence.find("0% in the page cache"), std::string::npos);
  EXPECT_NE(Find(lr, "load-time")->fix.find("spinup warm"), std::string::npos);
  EXPECT_EQ(Find(lr, "ram-for-mmap")->status, CheckStatus::kWarn);

  // ulimit-memlock matters only across nodes.
  HostView locked =
      testing::HealthyView(dir / "m", {"--nnodes", "2", "--dist-init-addr", "10.0.0.1:5000"});
  locked.memlock_soft = 8 << 20;
  EXPECT_EQ(Find(RunChecks(locked, Rules()), "ulimit-memlock")->status, CheckStatus::kWarn);
  HostView one_node = testing::HealthyView(dir / "m");
  one_node.memlock_soft = 8 << 20;
  EXPECT_EQ(Find(RunChecks(one_node, Rules()), "ulimit-memlock"), nullptr);

  // hybrid-mtp-vllm: a warning for vLLM's variant of the combination.
  HostView vllm = testing::HealthyView(dir / "hybrid");
  vllm.command = ParseServerCommand({"vllm", "serve", (dir / "hybrid").string(), "-tp", "2",
                                     "--speculative-config", R"({"method":"mtp"})"});
  EXPECT_EQ(Find(RunChecks(vllm, Rules()), "hybrid-mtp-vllm")->status, CheckStatus::kWarn);

  // gpu-holders: memory in use with no process listed; NVML and /proc naming one PID once.
  HostView orphan = testing::HealthyView(dir / "m");
  orphan.gpus[1].used_bytes = 30ull << 30;
  orphan.gpus[0].pids = {4242};
  orphan.gpu_holders.push_back({4242, 1, "python3", "sglang::scheduler_TP0", "GPU 0"});
  orphan.gpu_holders.push_back({4242, 1, "python3", "sglang::scheduler_TP0", "/dev/nvidia0"});
  DoctorReport orr = RunChecks(orphan, Rules());
  const CheckResult* g = Find(orr, "gpu-holders");
  EXPECT_EQ(g->status, CheckStatus::kFail);
  EXPECT_NE(g->evidence.find("GPU 1 has 30.0 GiB in use and no process listed"), std::string::npos)
      << g->evidence;
  EXPECT_EQ(g->evidence.find("4242"), g->evidence.rfind("4242"));  // once
}

TEST(DoctorRules, EmbeddedDataCoversEveryCheckAndBadDataIsRejected) {
  for (const char* id : {"command", "checkpoint-resolvable", "checkpoint-whole", "tp-divisible",
                         "weights-fit", "kv-cache", "load-time", "ram-for-mmap", "gpu-holders",
                         "gpu-count", "cuda-visible-devices", "p2p-risk", "port-free", "shm-size",
                         "ulimit-nofile", "ulimit-memlock", "cache-dirs", "socket-ifname"}) {
    ASSERT_TRUE(Rules().checks.count(id)) << id;
    EXPECT_FALSE(Rules().checks.at(id).source.empty()) << id;
  }
  EXPECT_GE(Rules().flag_rules.size(), 5u);
  EXPECT_EQ(ParseDoctorRules("[]", "x.json").status().kind(), ErrorKind::kCorrupt);
  auto bad = ParseDoctorRules(R"({"flag_rules":[{"id":"a","evidence":"e","severity":"maybe"}]})",
                              "x.json");
  EXPECT_EQ(bad.status().message(), "x.json: flag_rules[0]: severity must be warn or fail");
  EXPECT_EQ(Render("{a} and {b} {", {{"a", "1"}}), "1 and {b} {");
}

TEST(DoctorRender, JsonSchemaAndTextGrouping) {
  TempDir dir;
  testing::WriteModel(dir / "m", testing::DenseConfig(2, 8, 2, 16, 32768));
  HostView v = testing::HealthyView(dir / "m");
  v.shm_bytes = 1 << 20;
  DoctorReport r = RunChecks(v, Rules());
  auto j = nlohmann::json::parse(DoctorReportJson(r));
  EXPECT_EQ(j["schema"], "spinup.doctor/1");
  EXPECT_EQ(j["engine"], "sglang");
  EXPECT_EQ(j["summary"]["warn"], 1);
  EXPECT_TRUE(j["kv_cache"].is_object());
  bool saw = false;
  for (const auto& c : j["checks"]) {
    if (c["id"] == "shm-size") {
      saw = true;
      EXPECT_EQ(c["status"], "warn");
      EXPECT_TRUE(c["fix"].is_string());
    }
  }
  EXPECT_TRUE(saw);
  std::string text = DoctorReportText(r);
  EXPECT_LT(text.find("WARN (1)"), text.find("OK ("));
  EXPECT_NE(text.find("      fix: docker run --shm-size=16g"), std::string::npos);
}

}  // namespace
}  // namespace spinup::doctor
