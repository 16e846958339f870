// contrib/kubernetes/spinup-probe maps spinup's exit codes onto the only two results a Kubernetes
// probe has. Run against a stand-in `spinup` that exits with each code.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;

TEST(KubernetesProbe, MapsInProgressToSuccessAndStalledToFailure) {
  fs::path probe = testing::SourceDir() / "contrib" / "kubernetes" / "spinup-probe";
  ASSERT_TRUE(fs::exists(probe));
  testing::TempDir dir;
  fs::path fake = dir / "spinup";
  // Records its arguments and exits with the code given in $FAKE_CODE.
  testing::WriteFile(fake,
                     "#!/bin/sh\necho \"args: $*\"\necho \"verdict line\"\nexit \"$FAKE_CODE\"\n");
  fs::permissions(fake, fs::perms::owner_all);
  struct Case {
    int spinup_code;
    int probe_code;
  };
  for (Case c :
       {Case{0, 0}, Case{5, 0}, Case{3, 1}, Case{1, 1}, Case{4, 1}, Case{2, 1}, Case{127, 1}}) {
    auto r = testing::RunProgram(
        {"/usr/bin/env", "SPINUP=" + fake.string(), "FAKE_CODE=" + std::to_string(c.spinup_code),
         "/bin/sh", probe.string(), "--pid", "1", "--port", "30000"},
        "", 20);
    EXPECT_EQ(r.exit_code, c.probe_code) << "spinup exit " << c.spinup_code << ": " << r.out;
    EXPECT_NE(r.out.find("args: watch --once --pid 1 --port 30000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verdict line"), std::string::npos);
  }
}

TEST(KubernetesProbe, ExampleUsesTheProbeForStartupAndLiveness) {
  std::string yaml = testing::ReadFile(testing::SourceDir() / "contrib" / "kubernetes" /
                                       "sglang-statefulset.yaml");
  EXPECT_NE(yaml.find("startupProbe:"), std::string::npos);
  EXPECT_NE(yaml.find("livenessProbe:"), std::string::npos);
  // httpGet probes of spinup's own endpoint: /livez for startup and liveness, /readyz for
  // readiness (docs/kubernetes.md); the exec probe stays documented as the alternative.
  EXPECT_NE(yaml.find("httpGet: {path: /livez, port: 9400}"), std::string::npos);
  EXPECT_NE(yaml.find("httpGet: {path: /readyz, port: 9400}"), std::string::npos);
  EXPECT_NE(yaml.find("spinup-probe"), std::string::npos);
  EXPECT_NE(yaml.find("\"--metrics\", \"0.0.0.0:9400\""), std::string::npos);
  // Valid YAML when a YAML parser is at hand (python3-yaml); skipped silently otherwise.
  auto check = testing::RunProgram(
      {"/usr/bin/python3", "-c",
       "import sys\ntry:\n import yaml\nexcept ImportError:\n sys.exit(0)\n"
       "for f in sys.argv[1:]:\n list(yaml.safe_load_all(open(f)))\n",
       (testing::SourceDir() / "contrib" / "kubernetes" / "sglang-statefulset.yaml").string(),
       (testing::SourceDir() / "contrib" / "kubernetes" / "podmonitor.yaml").string()},
      "", 20);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

}  // namespace
}  // namespace spinup
