// Usage errors of `spinup watch` and `spinup run` (exit 2, one `spinup:` line), and --once.
#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup {
namespace {

TEST(LiveCliTest, WatchWithoutASourceIsAUsageError) {
  auto r = testing::RunSpinup({"watch"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spinup: watch: give --pid, --unit, --log, --log-command or --journal-file"),
            std::string::npos);
}

TEST(LiveCliTest, BadDurationsAreUsageErrors) {
  for (const char* flag : {"--interval", "--timeout", "--stall-after"}) {
    auto r = testing::RunSpinup({"watch", "--log", "/dev/null", flag, "soon"});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_NE(r.err.find(std::string("spinup: ") + flag), std::string::npos) << r.err;
  }
  auto r = testing::RunSpinup({"watch", "--log", "/dev/null", "--until", "forever"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(LiveCliTest, RunWithoutACommandIsAUsageError) {
  auto r = testing::RunSpinup({"run", "--interval", "0.2s"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(LiveCliTest, RunOfAMissingProgramSaysSo) {
  auto r = testing::RunSpinup({"run", "--no-gpu", "--", "/nonexistent/server"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("spinup: /nonexistent/server: cannot run"), std::string::npos) << r.err;
}

TEST(LiveCliTest, RunPassesOutputThroughUnchanged) {
  auto r = testing::RunSpinup(
      {"run", "--no-gpu", "--interval", "0.1s", "--", "/bin/sh", "-c",
       "printf 'out \\001 bytes\\r\\nno newline'; printf 'to stderr\\n' >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out \001 bytes\r\nno newline");
  EXPECT_NE(r.err.find("to stderr\n"), std::string::npos);
}

TEST(LiveCliTest, OnceOnAStalledLogExitsThree) {
  auto shared = testing::SharedDir();
  if (!shared) GTEST_SKIP() << "../shared not present: no corpus logs";
  auto log = *shared / "corpus" / "001-sglang-hung-distributed_init.log";
  auto r = testing::RunSpinup({"watch", "--log", log.string(), "--once", "--no-gpu"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("stalled"), std::string::npos);
}

}  // namespace
}  // namespace spinup
