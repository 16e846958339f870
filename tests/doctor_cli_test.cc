// `spinup doctor` end to end: the built binary over fixture /proc, /sys and /dev trees, the fake
// NVML, real checkpoints and unit files.
#include <gtest/gtest.h>
#include <sys/statvfs.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "doctor_fixtures.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;
using testing::TempDir;

std::vector<std::string> Roots(const TempDir& root) {
  return {"--proc-root", (root / "proc").string(), "--sys-root",     (root / "sys").string(),
          "--dev-root",  (root / "dev").string(),  "--nvml-library", SPINUP_FAKE_NVML};
}

class FakeNvmlEnv {
 public:
  FakeNvmlEnv(const char* gpus, bool nvlink) {
    ::setenv("SPINUP_FAKE_NVML_GPUS", gpus, 1);
    ::setenv("SPINUP_FAKE_NVML_IDLE", "1", 1);
    if (nvlink) ::setenv("SPINUP_FAKE_NVML_NVLINK", "1", 1);
  }
  ~FakeNvmlEnv() {
    ::unsetenv("SPINUP_FAKE_NVML_GPUS");
    ::unsetenv("SPINUP_FAKE_NVML_IDLE");
    ::unsetenv("SPINUP_FAKE_NVML_NVLINK");
  }
};

TEST(DoctorCli, FourGpuSevSnpHostWarnsAboutP2pAndNamesHolders) {
  TempDir root;
  testing::FixtureHostOptions o;
  o.iommu_translated = true;
  o.sev_snp_guest = true;
  o.listener_pid = 4100;
  o.nvidia_holder_pid = 4200;
  testing::WriteFixtureHost(root.path(), o);
  testing::WriteModel(root / "model", testing::DenseConfig(2, 8, 4, 16, 32768));
  FakeNvmlEnv env("4", false);
  auto args = Roots(root);
  std::vector<std::string> cmd = {"doctor", "--json"};
  cmd.insert(cmd.end(), args.begin(), args.end());
  for (const char* a : {"--", "python3", "-m", "sglang.launch_server", "--tp", "4", "--port",
                        "30000", "--model-path"}) {
    cmd.push_back(a);
  }
  cmd.push_back((root / "model").string());
  auto r = RunSpinup(cmd);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& c : j["checks"]) by_id[c["id"]] = c;
  EXPECT_EQ(by_id["p2p-risk"]["status"], "warn") << r.out;
  EXPECT_NE(by_id["p2p-risk"]["evidence"].get<std::string>().find("SEV-SNP"), std::string::npos);
  EXPECT_EQ(by_id["port-free"]["status"], "fail");
  EXPECT_NE(by_id["port-free"]["evidence"].get<std::string>().find("PID 4100"), std::string::npos);
  EXPECT_EQ(by_id["gpu-holders"]["status"], "fail");
  EXPECT_NE(
      by_id["gpu-holders"]["evidence"].get<std::string>().find("PID 4200 (sglang::scheduler_TP0"),
      std::string::npos);
  EXPECT_EQ(by_id["gpu-count"]["status"], "ok");
}

TEST(DoctorCli, HealthyFixtureHostFromAUnitFileGivesNoWarnings) {
  TempDir root;
  // The engine caches resolve under the temporary folder; the check wants 2 GiB free there.
  struct statvfs st {};
  if (::statvfs(root.path().c_str(), &st) == 0 &&
      static_cast<uint64_t>(st.f_bavail) * st.f_frsize < (3ull << 30)) {
    GTEST_SKIP() << "less than 3 GiB free under $TMPDIR: the cache check would warn";
  }
  testing::WriteFixtureHost(root.path(), {});
  testing::WriteModel(root / "model", testing::DenseConfig(2, 8, 2, 16, 32768));
  testing::Put(root / "etc/systemd/system/sglang.service",
               "[Service]\nEnvironment=HOME=" + root.path().string() +
                   "\nExecStart=/usr/local/bin/spinup run --port 30000 -- python3 -m "
                   "sglang.launch_server --model-path " +
                   (root / "model").string() + " --tp 2 --port 30000\n");
  FakeNvmlEnv env("2", true);
  auto args = Roots(root);
  std::vector<std::string> cmd = {"doctor", "--unit", "sglang", "--unit-root",
                                  root.path().string()};
  cmd.insert(cmd.end(), args.begin(), args.end());
  auto r = RunSpinup(cmd);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("WARN"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("read " + (root / "etc/systemd/system/sglang.service").string()),
            std::string::npos);
  EXPECT_NE(r.out.find("GPU peer-to-peer: the 2 GPUs are joined by NVLink"), std::string::npos)
      << r.out;
}

TEST(DoctorCli, MeasureReadAndGpuMemWithoutNvml) {
  TempDir root;
  testing::WriteFixtureHost(root.path(), {});
  testing::WriteModel(root / "model", testing::DenseConfig(2, 8, 2, 16, 32768));
  auto r = RunSpinup({"doctor", "--no-gpu", "--gpu-mem", "80GiB", "--measure-read", "--proc-root",
                      (root / "proc").string(), "--sys-root", (root / "sys").string(), "--dev-root",
                      (root / "dev").string(), "--", "vllm", "serve", (root / "model").string(),
                      "--max-model-len", "8192"});
  EXPECT_NE(r.out.find("(measured)"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("of weights per rank in 80.0 GiB GPU memory"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("KV cache for the context: 256 B per token per rank (GQA)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("GPU count: GPU: NVML not loaded (--no-gpu)"), std::string::npos)
      << r.out;  // not checked
}

TEST(DoctorCli, ExtraRulesFileAddsAFlagRuleAndBadOnesAreUsageErrors) {
  TempDir root;
  testing::Put(
      root / "site.json",
      R"({"flag_rules":[{"id":"site-no-eager","engine":"vllm","flags_present":["--enforce-eager"],
                 "severity":"fail","evidence":"--enforce-eager is banned here","fix":"drop it"}]})");
  auto r = RunSpinup({"doctor", "--no-gpu", "--rules", (root / "site.json").string(), "--", "vllm",
                      "serve", "/nonexistent", "--enforce-eager"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--enforce-eager is banned here"), std::string::npos) << r.out << r.err;
  testing::Put(root / "bad.json", "{\"flag_rules\": [{\"id\": \"x\"}]}");
  auto b = RunSpinup(
      {"doctor", "--no-gpu", "--rules", (root / "bad.json").string(), "--", "vllm", "serve", "m"});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("bad.json: flag_rules[0]: needs id and evidence"), std::string::npos)
      << b.err;
}

TEST(DoctorCli, UsageErrors) {
  EXPECT_EQ(RunSpinup({"doctor"}).exit_code, 2);
  auto r = RunSpinup({"doctor", "--unit", "x", "--unit-root", "/nonexistent", "--no-gpu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spinup: --unit x.service: no unit file under /nonexistent"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(RunSpinup({"doctor", "--gpu-mem", "lots", "--", "vllm", "serve", "m"}).exit_code, 2);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// The contrib drop-in on the contrib unit: doctor finds the server command inside `spinup run`.
TEST(DoctorCli, ContribDropInOnTheContribUnit) {
  TempDir root;
  auto unit_dir = root / "etc/systemd/system";
  testing::Put(unit_dir / "sglang.service",
               testing::ReadFile(testing::SourceDir() / "contrib/systemd/spinup-sglang.service"));
  testing::Put(unit_dir / "sglang.service.d/10-doctor.conf",
               testing::ReadFile(testing::SourceDir() / "contrib/systemd/spinup-doctor.conf"));
  testing::WriteFixtureHost(root.path(), {});
  auto r = RunSpinup({"doctor", "--unit", "sglang", "--unit-root", root.path().string(), "--no-gpu",
                      "--proc-root", (root / "proc").string(), "--sys-root",
                      (root / "sys").string(), "--dev-root", (root / "dev").string()});
  EXPECT_NE(
      r.out.find("sglang command, model /models/Qwen3-30B-A3B, tp=4 pp=1 dp=1 ep=1, port 30000"),
      std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.out.find("read " + (unit_dir / "sglang.service.d/10-doctor.conf").string()),
            std::string::npos);
  EXPECT_EQ(r.exit_code, 1);  // /models/Qwen3-30B-A3B is not on this machine
  std::string k8s =
      testing::ReadFile(testing::SourceDir() / "contrib/kubernetes/doctor-init-container.yaml");
  EXPECT_NE(k8s.find("initContainers:"), std::string::npos);
  EXPECT_NE(k8s.find("[\"spinup\", \"doctor\", \"--\"]"), std::string::npos);
  // Valid YAML, anchors resolved, when python3-yaml is at hand; skipped silently otherwise.
  auto check = testing::RunProgram(
      {"/usr/bin/python3", "-c",
       "import sys\ntry:\n import yaml\nexcept ImportError:\n sys.exit(0)\n"
       "d = yaml.safe_load(open(sys.argv[1]))\n"
       "assert d['spec']['initContainers'][0]['args'] == d['spec']['containers'][0]['args']\n",
       (testing::SourceDir() / "contrib/kubernetes/doctor-init-container.yaml").string()},
      "", 20);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

}  // namespace
}  // namespace spinup
