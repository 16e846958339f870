#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;

TEST(Cli, HelpListsSubcommandsAndExitsZero) {
  auto r = RunSpinup({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd :
       {"inspect", "verify", "bench", "warm", "evict", "explain", "watch", "run", "report"}) {
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
  }
}

TEST(Cli, UnknownFlagIsUsageError) {
  auto r = RunSpinup({"--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spinup: "), std::string::npos);
}

TEST(Cli, NoSubcommandIsUsageError) {
  auto r = RunSpinup({});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace spinup
