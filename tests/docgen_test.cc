// Man pages and completions come from the same CLI11 tree as --help; this compares them, so a flag
// added, renamed or removed in one place shows up here if the generator ever stops following.
#include "cli/docgen.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

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

// `cmd` is the words after spinup: "inspect", "history show".
std::string HelpOf(const std::string& cmd) {
  std::vector<std::string> args = {"spinup"};
  std::istringstream words(cmd);
  for (std::string w; words >> w;) args.push_back(w);
  args.push_back("--help");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  EXPECT_EQ(RunCli(static_cast<int>(argv.size()), argv.data(), out, err, CliEnv{}), 0) << cmd;
  // Only the option lines: descriptions mention other commands' flags.
  std::string flags;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  -", 0) == 0) flags += line.substr(0, line.find("  ", 2)) + "\n";
  }
  return flags;
}

// The bash and zsh `case` label of a command: `inspect)`, `'history show')`.
std::string CaseOf(const std::string& name) {
  return "    " + (name.find(' ') == std::string::npos ? name : "'" + name + "'") + ")\n";
}

// fish: each option line's condition names its command by the subcommands it has seen
// ("__fish_seen_subcommand_from history; and __fish_seen_subcommand_from show" is `history show`).
std::map<std::string, std::set<std::string>> FishFlags(const std::string& fish) {
  std::map<std::string, std::set<std::string>> out;
  std::regex line(R"(complete -c spinup -n '([^']*)'(?: -s [a-zA-Z])? -l ([a-z][a-z0-9-]*))");
  const std::string seen = "__fish_seen_subcommand_from ";
  for (std::sregex_iterator it(fish.begin(), fish.end(), line), end; it != end; ++it) {
    std::string cond = (*it)[1], path;
    for (size_t at = 0; (at = cond.find(seen, at)) != std::string::npos; at += seen.size()) {
      if (at >= 4 && cond.compare(at - 4, 4, "not ") == 0) continue;
      size_t w = at + seen.size();
      path += (path.empty() ? "" : " ") + cond.substr(w, cond.find(';', w) - w);
    }
    out[path].insert((*it)[2]);
  }
  return out;
}

TEST(DocGen, ManPagesAndCompletionsListExactlyTheFlagsHelpShows) {
  Tree t;
  const std::string bash = BashCompletion(t.app);
  const std::string zsh = ZshCompletion(t.app);
  const std::string fish = FishCompletion(t.app);
  auto cmds = DescribeCli(t.app);
  ASSERT_GE(cmds.size(), 10u);
  auto fish_flags = FishFlags(fish);
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
    size_t b = bash.find(CaseOf(cmd.name));
    ASSERT_NE(b, std::string::npos) << cmd.name;
    std::string bash_block = bash.substr(b, bash.find(";;", b) - b);
    std::set<std::string> in_bash = LongFlags(bash_block.substr(0, bash_block.find("flags=")), "-");
    in_bash.erase("help");
    EXPECT_EQ(in_bash, help) << "bash completion of " << cmd.name;
    size_t z = zsh.find(CaseOf(cmd.name));
    ASSERT_NE(z, std::string::npos);
    std::string zsh_block = zsh.substr(z, zsh.find(";;", z) - z);
    std::set<std::string> in_zsh;
    std::regex zopt(R"('\*?--([a-z][a-z0-9-]*)\[)");
    for (std::sregex_iterator it(zsh_block.begin(), zsh_block.end(), zopt), end; it != end; ++it) {
      in_zsh.insert((*it)[1]);
    }
    EXPECT_EQ(in_zsh, help) << "zsh completion of " << cmd.name;
    EXPECT_EQ(fish_flags[cmd.name], help) << "fish completion of " << cmd.name;
  }
}

TEST(DocGen, TopPageListsEveryCommandAndExitCodes) {
  Tree t;
  const std::string man = ManPageTop(t.app, "9.9");
  EXPECT_NE(man.find(".TH SPINUP 1"), std::string::npos);
  for (const auto& cmd : DescribeCli(t.app)) {
    if (!cmd.name.empty()) {
      EXPECT_NE(man.find("\\fB" + std::regex_replace(ManPageName(cmd), std::regex("-"), "\\-") +
                         "\\fR(1)"),
                std::string::npos)
          << cmd.name;
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
  // zsh and fish are not in scripts/install-deps: their syntax is checked where they are installed.
  for (const auto& [shell, file, text] :
       {std::tuple<std::string, std::string, std::string>{"/usr/bin/zsh", "_spinup",
                                                          ZshCompletion(t.app)},
        {"/usr/bin/fish", "spinup.fish", FishCompletion(t.app)}}) {
    if (access(shell.c_str(), X_OK) != 0) continue;
    testing::WriteFile(dir / file, text);
    auto r = testing::RunProgram({shell, "-n", (dir / file).string()});
    EXPECT_EQ(r.exit_code, 0) << shell << ": " << r.err;
  }
}

// Nested commands (`history show`) get a page of their own, linked both ways, and completions.
TEST(DocGen, NestedCommandsHaveTheirOwnPageAndCompletions) {
  Tree t;
  auto cmds = DescribeCli(t.app);
  auto find = [&](const std::string& name) {
    for (const auto& c : cmds) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << name << " is not described";
    return DocCommand{};
  };
  const DocCommand show = find("history show");
  EXPECT_EQ(ManPageName(show), "spinup-history-show");
  const std::string page = ManPageCommand(show, "0");
  EXPECT_NE(page.find(".TH SPINUP-HISTORY-SHOW 1"), std::string::npos);
  EXPECT_NE(page.find(".SH NAME\nspinup\\-history\\-show \\- "), std::string::npos);
  EXPECT_NE(page.find(".B spinup history show\n[\\fIOPTIONS\\fR] \\fIid\\fR"), std::string::npos);
  EXPECT_NE(page.find("\\fBspinup\\-history\\fR(1)"), std::string::npos) << "links up";
  const DocCommand history = find("history");
  ASSERT_EQ(history.subcommands.size(), 1u);
  EXPECT_EQ(history.subcommands[0].name, "show");
  const std::string parent = ManPageCommand(history, "0");
  EXPECT_NE(parent.find(".SH SUBCOMMANDS"), std::string::npos);
  EXPECT_NE(parent.find("\\fBspinup\\-history\\-show\\fR(1)"), std::string::npos) << "links down";
  EXPECT_NE(ManPageTop(t.app, "0").find("\\fBspinup\\-history\\-show\\fR(1)"), std::string::npos);

  // bash: `history <TAB>` offers show; after `show` (options first or not), show's flags only.
  testing::TempDir dir;
  testing::WriteFile(dir / "spinup.bash", BashCompletion(t.app));
  auto complete = [&](const std::string& words, int cword) {
    auto r = testing::RunProgram({"/bin/bash", "-c",
                                  "source " + (dir / "spinup.bash").string() + " && COMP_WORDS=(" +
                                      words + ") && COMP_CWORD=" + std::to_string(cword) +
                                      " && _spinup && printf '%s\\n' \"${COMPREPLY[@]}\""});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  EXPECT_EQ(complete("spinup history sh", 2), "show\n");
  EXPECT_EQ(complete("spinup history show 3 --ht", 4), "--html\n");
  EXPECT_EQ(complete("spinup history --limit 5 show --h", 5), "--html\n--history\n--help\n");
  EXPECT_EQ(complete("spinup history --li", 2), "--limit\n");
  // zsh and fish carry the nested command's block too.
  EXPECT_NE(ZshCompletion(t.app).find("'history show')"), std::string::npos);
  EXPECT_NE(FishCompletion(t.app).find("-n '__fish_seen_subcommand_from history; and not "
                                       "__fish_seen_subcommand_from show' -a show"),
            std::string::npos);
}

}  // namespace
}  // namespace spinup
