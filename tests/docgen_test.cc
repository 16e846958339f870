// Man pages and completions come from the same CLI11 tree as --help; this compares them, so a flag
// added, renamed or removed in one place shows up here if the generator ever stops following.
#include "cli/docgen.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "cli/cli.h"
#include "test_util.h"

namespace spinup {
namespace {

struct Tree {
  std::ostringstream sink;
  CliContext ctx;
  CLI::App app;
  Tree() {
    ctx.out = &sink;
    ctx.err = &sink;
    BuildCliApp(app, ctx);
  }
};

std::set<std::string> LongFlags(const std::string& text, const std::string& dash) {
  std::set<std::string> out;
  std::regex re(dash + dash + "([a-z][a-z0-9-]*)");
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) {
    out.insert((*it)[1]);
  }
  return out;
}

std::string HelpOf(const std::string& cmd) {
  std::vector<std::string> args = {"spinup", cmd, "--help"};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  EXPECT_EQ(RunCli(3, argv.data(), out, err, CliEnv{}), 0) << cmd;
  // Only the option lines: descriptions mention other commands' flags.
  std::string flags;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  -", 0) == 0) flags += line.substr(0, line.find("  ", 2)) + "\n";
  }
  return flags;
}

TEST(DocGen, ManPagesAndCompletionsListExactlyTheFlagsHelpShows) {
  Tree t;
  const std::string bash = BashCompletion(t.app);
  const std::string zsh = ZshCompletion(t.app);
  const std::string fish = FishCompletion(t.app);
  auto cmds = DescribeCli(t.app);
  ASSERT_GE(cmds.size(), 10u);
  for (const auto& cmd : cmds) {
    if (cmd.name.empty()) continue;
    std::set<std::string> help = LongFlags(HelpOf(cmd.name), "-");
    help.erase("help");
    ASSERT_FALSE(help.empty()) << cmd.name;
    const std::string man = ManPageCommand(cmd, "0");
    // Every OPTIONS entry (the line after .TP) names help flags, and every help flag has one.
    std::set<std::string> man_entries;
    std::istringstream lines(man.substr(man.find(".SH OPTIONS")));
    std::regex entry(R"(\\fB\\-\\-([a-z0-9\\-]+)\\fR)");
    bool after_tp = false;
    for (std::string line; std::getline(lines, line);) {
      if (after_tp) {
        for (std::sregex_iterator it(line.begin(), line.end(), entry), end; it != end; ++it) {
          man_entries.insert(std::regex_replace(std::string((*it)[1]), std::regex(R"(\\-)"), "-"));
        }
      }
      after_tp = line == ".TP";
      if (line.rfind(".SH EXIT", 0) == 0) break;
    }
    EXPECT_EQ(man_entries, help) << "spinup-" << cmd.name << "(1) vs --help";
    EXPECT_NE(man.find(".SH EXAMPLE"), std::string::npos) << cmd.name;
    // Completions: this command's block holds every flag.
    size_t b = bash.find("    " + cmd.name + ")\n");
    ASSERT_NE(b, std::string::npos) << cmd.name;
    std::string bash_block = bash.substr(b, bash.find(";;", b) - b);
    std::set<std::string> in_bash = LongFlags(bash_block.substr(0, bash_block.find("flags=")), "-");
    in_bash.erase("help");
    EXPECT_EQ(in_bash, help) << "bash completion of " << cmd.name;
    size_t z = zsh.find("    " + cmd.name + ")\n");
    ASSERT_NE(z, std::string::npos);
    std::string zsh_block = zsh.substr(z, zsh.find(";;", z) - z);
    std::set<std::string> in_zsh;
    std::regex zopt(R"('\*?--([a-z][a-z0-9-]*)\[)");
    for (std::sregex_iterator it(zsh_block.begin(), zsh_block.end(), zopt), end; it != end; ++it) {
      in_zsh.insert((*it)[1]);
    }
    EXPECT_EQ(in_zsh, help) << "zsh completion of " << cmd.name;
    std::set<std::string> in_fish;
    std::regex fopt("__fish_seen_subcommand_from " + cmd.name +
                    "'(?: -s [a-zA-Z])? -l ([a-z][a-z0-9-]*)");
    for (std::sregex_iterator it(fish.begin(), fish.end(), fopt), end; it != end; ++it) {
      in_fish.insert((*it)[1]);
    }
    EXPECT_EQ(in_fish, help) << "fish completion of " << cmd.name;
  }
}

TEST(DocGen, TopPageListsEveryCommandAndExitCodes) {
  Tree t;
  const std::string man = ManPageTop(t.app, "9.9");
  EXPECT_NE(man.find(".TH SPINUP 1"), std::string::npos);
  for (const auto& cmd : DescribeCli(t.app)) {
    if (!cmd.name.empty()) {
      EXPECT_NE(man.find("spinup\\-" + cmd.name + "\\fR(1)"), std::string::npos);
    }
  }
  EXPECT_NE(man.find(".SH EXIT STATUS"), std::string::npos);
  EXPECT_NE(man.find("/etc/spinup/config.toml"), std::string::npos);
  EXPECT_NE(man.find("NO_COLOR"), std::string::npos);
}

TEST(DocGen, CompletionsAreValidShell) {
  Tree t;
  testing::TempDir dir;
  testing::WriteFile(dir / "spinup.bash", BashCompletion(t.app));
  auto bash = testing::RunProgram({"/bin/bash", "-n", (dir / "spinup.bash").string()});
  EXPECT_EQ(bash.exit_code, 0) << bash.err;
  // Loading it defines the function and completes a command's flags.
  auto use =
      testing::RunProgram({"/bin/bash", "-c",
                           "source " + (dir / "spinup.bash").string() +
                               " && COMP_WORDS=(spinup inspect --gp) && COMP_CWORD=2 && _spinup && "
                               "printf '%s\\n' \"${COMPREPLY[@]}\""});
  EXPECT_EQ(use.exit_code, 0) << use.err;
  EXPECT_EQ(use.out, "--gpu-mem\n");
}

}  // namespace
}  // namespace spinup
