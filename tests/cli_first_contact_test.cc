// First contact (issue 12): the overview, `help`, -V, typo suggestions, wrapped help with groups
// and an example per command, and colour that respects --color, NO_COLOR and the terminal.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;
using testing::TempDir;

struct InProcess {
  int code = -1;
  std::string out, err;
};

InProcess RunIn(std::vector<std::string> args, CliEnv env = {}) {
  args.insert(args.begin(), "spinup");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  // No operator config or rules.d from the host leaks into the tests.
  env.paths.default_config = "/nonexistent/spinup/config.toml";
  env.paths.default_rules_dir = "/nonexistent/spinup/rules.d";
  InProcess r;
  r.code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err, env);
  r.out = out.str();
  r.err = err.str();
  return r;
}

const std::vector<std::string> kCommands = {"inspect", "verify",  "doctor", "run",
                                            "watch",   "explain", "report", "history",
                                            "bench",   "warm",    "evict"};

TEST(FirstContact, BareSpinupPrintsTheOverviewAndExitsTwo) {
  auto r = RunSpinup({});
  EXPECT_EQ(r.exit_code, 2) << "documented: a bare call is a usage error";
  EXPECT_NE(r.out.find("Before a start"), std::string::npos) << r.out;
  for (const auto& c : kCommands) EXPECT_NE(r.out.find(c), std::string::npos) << c;
  EXPECT_NE(r.out.find("spinup help COMMAND"), std::string::npos);
}

TEST(FirstContact, HelpAndHelpCommand) {
  auto all = RunIn({"help"});
  EXPECT_EQ(all.code, 0);
  EXPECT_NE(all.out.find("During a start"), std::string::npos);
  auto one = RunIn({"help", "inspect"});
  EXPECT_EQ(one.code, 0);
  EXPECT_NE(one.out.find("--gpu-mem"), std::string::npos);
  EXPECT_NE(one.out.find("Example:"), std::string::npos);
  auto typo = RunIn({"help", "inspct"});
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.err.find("did you mean 'inspect'?"), std::string::npos) << typo.err;
}

// Nested commands: `help history show`, and --color/--config after `history show` as anywhere.
TEST(FirstContact, HelpAndCommonFlagsReachNestedCommands) {
  auto show = RunIn({"help", "history", "show"});
  EXPECT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("Usage: spinup history show"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("--color"), std::string::npos);
  EXPECT_NE(show.out.find("Example:"), std::string::npos);
  auto typo = RunIn({"help", "history", "shw"});
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.err.find("unknown command 'history shw'; did you mean 'show'?"), std::string::npos)
      << typo.err;
  auto colored =
      RunIn({"history", "show", "3", "--color", "never", "--history", "/nonexistent/h.db"});
  EXPECT_EQ(colored.code, 2);
  EXPECT_NE(colored.err.find("no history recorded"), std::string::npos) << colored.err;
  // --config after the nested command is read like any other.
  auto config = RunIn({"history", "show", "3", "--config", "/nonexistent/c.toml"});
  EXPECT_EQ(config.code, 2);
  EXPECT_NE(config.err.find("/nonexistent/c.toml"), std::string::npos) << config.err;
}

TEST(FirstContact, UnknownCommandSuggestsTheClosestAndExitsTwo) {
  auto r = RunSpinup({"inspct", "/models/x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'inspct'; did you mean 'inspect'?"), std::string::npos)
      << r.err;
  auto far = RunIn({"frobnicate"});
  EXPECT_EQ(far.code, 2);
  EXPECT_NE(far.err.find("unknown command 'frobnicate'"), std::string::npos);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << "no suggestion when none is close";
}

TEST(FirstContact, VersionHasTheGitRevision) {
  for (const char* flag : {"-V", "--version"}) {
    auto r = RunSpinup({flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_EQ(r.out.rfind(std::string("spinup ") + SPINUP_VERSION + " (git ", 0), 0u) << r.out;
  }
}

TEST(FirstContact, HelpIsWrappedGroupedAndHasAnExample) {
  for (int columns : {0, 90, 300}) {
    CliEnv env;
    env.columns = columns;
    const size_t width = columns == 0 ? 80 : columns > 100 ? 100 : columns;
    for (const auto& c : kCommands) {
      auto r = RunIn({c, "--help"}, env);
      EXPECT_EQ(r.code, 0) << c;
      std::istringstream in(r.out);
      for (std::string line; std::getline(in, line);) {
        EXPECT_LE(line.size(), width) << c << " at " << columns << " columns: " << line;
      }
      const size_t ex = r.out.find("Example:\n  ");
      ASSERT_NE(ex, std::string::npos) << c;
      EXPECT_NE(r.out.find("spinup " + c, ex), std::string::npos) << c;
      EXPECT_NE(r.out.find("Common:"), std::string::npos) << c;
      EXPECT_NE(r.out.find("--color"), std::string::npos) << c;
      EXPECT_NE(r.out.find("--config"), std::string::npos) << c;
    }
  }
  auto watch = RunIn({"watch", "--help"});
  for (const char* group : {"Sources:", "Server:", "Judging:", "Output:", "Fleet:"}) {
    EXPECT_NE(watch.out.find(group), std::string::npos) << group;
  }
}

// --job was the model label's flag; it still parses (hidden from help, man pages, completions).
TEST(FirstContact, OldJobFlagStillParsesButIsHidden) {
  auto r = RunIn({"watch", "--job", "llama"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("give --pid"), std::string::npos) << r.err;
  auto help = RunIn({"watch", "--help"});
  EXPECT_NE(help.out.find("--model-label"), std::string::npos);
  EXPECT_EQ(help.out.find("--job"), std::string::npos);
}

class ColorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::WriteFile(log_ / "ready.log",
                       "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n");
  }
  InProcess Explain(const std::string& color, bool tty, bool no_color) {
    CliEnv env;
    env.out_is_tty = tty;
    env.err_is_tty = tty;
    env.no_color = no_color;
    std::vector<std::string> args = {"explain", (log_ / "ready.log").string()};
    if (!color.empty()) args.push_back("--color=" + color);
    return RunIn(args, env);
  }
  TempDir log_;
};

TEST_F(ColorTest, ColourOnlyOnATerminalWithoutNoColorUnlessAlways) {
  auto has_escape = [](const InProcess& r) { return r.out.find('\x1b') != std::string::npos; };
  EXPECT_TRUE(has_escape(Explain("", true, false)));
  EXPECT_FALSE(has_escape(Explain("", false, false))) << "not a terminal";
  EXPECT_FALSE(has_escape(Explain("", true, true))) << "NO_COLOR";
  EXPECT_FALSE(has_escape(Explain("never", true, false)));
  EXPECT_TRUE(has_escape(Explain("always", false, true))) << "always wins over NO_COLOR";
  EXPECT_EQ(Explain("sometimes", true, false).code, 2);
}

TEST(FirstContact, NoColorReachesTheRealBinary) {
  TempDir dir;
  testing::WriteFile(dir / "ready.log",
                     "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n");
  auto r = RunSpinup({"explain", (dir / "ready.log").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "a pipe is not a terminal";
}

}  // namespace
}  // namespace spinup
