#include "doctor/unit_file.h"

#include <gtest/gtest.h>

#include "doctor_fixtures.h"
#include "test_util.h"

namespace spinup::doctor {
namespace {

using testing::Put;
using testing::TempDir;

TEST(ApplyUnitText, ExecStartContinuationPrefixesAndReset) {
  ServiceUnit u;
  ApplyUnitText(
      "[Unit]\nDescription=x\nExecStart=/bin/false\n[Service]\n# comment\n"
      "Environment=\"A=1 2\" B=3\nExecStart=/usr/bin/old\nExecStart=\nExecStart=-/usr/bin/python3 "
      "\\\n"
      "  -m sglang.launch_server \\\n  --tp 4\n",
      u);
  ASSERT_EQ(u.exec_start.size(), 5u);
  EXPECT_EQ(u.exec_start[0], "/usr/bin/python3");
  EXPECT_EQ(u.exec_start[4], "4");
  ASSERT_EQ(u.environment.size(), 2u);
  EXPECT_EQ(u.environment[0].second, "1 2");
}

TEST(ParseEnvironmentFile, CommentsQuotesExport) {
  auto env =
      ParseEnvironmentFile("# c\n; c\nexport A=1\nB=\"two words\"\n bad line\nC='x'\n9X=1\n");
  ASSERT_EQ(env.size(), 3u);
  EXPECT_EQ(env[0], (std::pair<std::string, std::string>{"A", "1"}));
  EXPECT_EQ(env[1].second, "two words");
  EXPECT_EQ(env[2].second, "x");
}

TEST(ExpandVariables, BracedInsideWordsAndWholeWordSplits) {
  auto w = ExpandVariables({"--model-path", "${MODELS}/q", "$EXTRA", "$UNSET", "${"},
                           {{"MODELS", "/m"}, {"EXTRA", "--tp 8"}});
  ASSERT_EQ(w.size(), 5u);
  EXPECT_EQ(w[1], "/m/q");
  EXPECT_EQ(w[2], "--tp");
  EXPECT_EQ(w[3], "8");
  EXPECT_EQ(w[4], "${");
}

TEST(ReadServiceUnit, DropInsOverrideAndEnvironmentFilesLoad) {
  TempDir root;
  Put(root / "usr/lib/systemd/system/sglang.service",
      "[Service]\nEnvironment=HF_HUB_OFFLINE=1\nEnvironmentFile=-/etc/default/missing\n"
      "EnvironmentFile=/etc/default/sglang\nExecStart=/usr/bin/python3 -m sglang.launch_server "
      "--model-path ${MODEL}\n");
  Put(root / "etc/default/sglang", "MODEL=/models/a\nSGLANG_ENABLE_SPEC_V2=1\n");
  Put(root / "etc/systemd/system/sglang.service.d/20-tp.conf",
      "[Service]\nExecStart=\nExecStart=/usr/bin/python3 -m sglang.launch_server "
      "--model-path ${MODEL} --tp 8\n");
  Put(root / "usr/lib/systemd/system/sglang.service.d/10-env.conf",
      "[Service]\nEnvironment=NCCL_P2P_DISABLE=1\n");
  auto u = ReadServiceUnit(root.path(), "sglang");
  ASSERT_TRUE(u.ok()) << u.status().message();
  ASSERT_EQ(u->argv.size(), 7u);
  EXPECT_EQ(u->argv[4], "/models/a");
  EXPECT_EQ(u->argv[6], "8");
  EXPECT_EQ(u->env.at("SGLANG_ENABLE_SPEC_V2"), "1");
  EXPECT_EQ(u->env.at("NCCL_P2P_DISABLE"), "1");
  EXPECT_EQ(u->env.at("HF_HUB_OFFLINE"), "1");
  EXPECT_TRUE(u->problems.empty());  // the '-' file may be missing
  EXPECT_EQ(u->sources.size(), 4u);  // unit, two drop-ins, one environment file
}

TEST(ReadServiceUnit, MissingUnitAndBadNames) {
  TempDir root;
  EXPECT_EQ(ReadServiceUnit(root.path(), "nope").status().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(ReadServiceUnit(root.path(), "../x").status().kind(), ErrorKind::kInvalidArgument);
  Put(root / "etc/systemd/system/e.service", "[Service]\nType=oneshot\n");
  EXPECT_EQ(ReadServiceUnit(root.path(), "e.service").status().kind(), ErrorKind::kNotFound);
}

}  // namespace
}  // namespace spinup::doctor
