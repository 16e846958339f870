// The unit files in contrib/systemd pass `systemd-analyze verify` (syntax, known directives,
// executables present), with the installed spinup path pointed at the one just built.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr const char* kAnalyze = "/usr/bin/systemd-analyze";

// Copies a contrib unit into dir under `name`, with /usr/local/bin/spinup replaced by the build's.
void CopyUnit(const std::string& source_name, const TempDir& dir, const std::string& name) {
  std::string text = testing::ReadFile(testing::SourceDir() / "contrib/systemd" / source_name);
  const std::string installed = "/usr/local/bin/spinup";
  ASSERT_NE(text.find(installed), std::string::npos) << source_name;
  for (size_t at; (at = text.find(installed)) != std::string::npos;) {
    text.replace(at, installed.size(), testing::SpinupExe().string());
  }
  testing::WriteFile(dir / name, text);
}

testing::ProcessResult Verify(const fs::path& unit) {
  // --man=no: the units' Documentation= lines are not man pages; recursive checks off so only
  // this unit (not network-online.target etc.) is judged.
  return testing::RunProgram(
      {kAnalyze, "verify", "--man=no", "--recursive-errors=no", unit.string()});
}

TEST(SystemdUnits, ContribUnitsVerify) {
  if (!fs::exists(kAnalyze))
    GTEST_SKIP() << "systemd-analyze absent (scripts/install-deps installs it)";
  TempDir dir;
  CopyUnit("spinup-sglang.service", dir, "sglang.service");
  auto server = Verify(dir / "sglang.service");
  EXPECT_EQ(server.exit_code, 0) << server.out << server.err;
  EXPECT_EQ(server.err.find("sglang.service:"), std::string::npos) << server.err;

  // A template is verified through an instance; the template file sits in the same directory.
  CopyUnit("spinup-warm@.service", dir, "spinup-warm@.service");
  auto warm = Verify(dir / "spinup-warm@models-x.service");
  EXPECT_EQ(warm.exit_code, 0) << warm.out << warm.err;
  EXPECT_EQ(warm.err.find("spinup-warm@"), std::string::npos) << warm.err;
}

TEST(SystemdUnits, VerifyCatchesABrokenUnit) {
  // The check above can fail: a unit naming a missing executable does not verify.
  if (!fs::exists(kAnalyze)) GTEST_SKIP() << "systemd-analyze absent";
  TempDir dir;
  testing::WriteFile(dir / "broken.service",
                     "[Service]\nType=oneshot\nExecStart=/nonexistent/spinup warm /models/x\n");
  auto r = Verify(dir / "broken.service");
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("/nonexistent/spinup"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace spinup
