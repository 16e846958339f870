#include "cli/settings.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "cli/cli.h"
#include "cli/fleet_flags.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::TempDir;
using testing::WriteFile;

TEST(ConfigToml, ReadsEveryKey) {
  auto c = ParseConfigToml(R"(
[metrics]
address = "0.0.0.0:9400"
model = "llama-70b"
[budgets]
stall_after = "15m"
[history]
dir = "/var/lib/spinup"
[rules]
dir = "/srv/rules.d"
files = ["/srv/a.json", "/srv/b.json"]
)",
                           "config.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->metrics.value_or(""), "0.0.0.0:9400");
  EXPECT_EQ(c->model_label.value_or(""), "llama-70b");
  EXPECT_DOUBLE_EQ(c->stall_after_s.value_or(0), 900);
  EXPECT_EQ(c->history_dir.value_or(""), "/var/lib/spinup");
  EXPECT_EQ(c->rules_dir.value_or(""), "/srv/rules.d");
  EXPECT_EQ(c->rules_files, (std::vector<std::string>{"/srv/a.json", "/srv/b.json"}));
}

TEST(ConfigToml, MistakesNameTheFileAndLine) {
  auto typo = ParseConfigToml("[metrics]\nadress = \"x\"\n", "c.toml");
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.status().message().rfind("c.toml:2:", 0), 0u) << typo.status().message();
  EXPECT_NE(typo.status().message().find("metrics.adress"), std::string::npos);
  auto table = ParseConfigToml("[metric]\n", "c.toml");
  EXPECT_FALSE(table.ok());
  auto type = ParseConfigToml("[metrics]\naddress = 9400\n", "c.toml");
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.status().message().find("expected a string"), std::string::npos);
  auto dur = ParseConfigToml("[budgets]\nstall_after = \"soon\"\n", "c.toml");
  EXPECT_FALSE(dur.ok());
  auto syntax = ParseConfigToml("[metrics\n", "c.toml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.status().message().rfind("c.toml:1:", 0), 0u) << syntax.status().message();
}

TEST(Settings, DefaultFileIsOptionalTheFlagIsNot) {
  TempDir dir;
  SettingsPaths paths{(dir / "absent.toml").string(), (dir / "rules.d").string()};
  auto none = LoadSettings("", paths);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->config_file.empty());
  EXPECT_FALSE(LoadSettings((dir / "missing.toml").string(), paths).ok());

  WriteFile(dir / "absent.toml", "[metrics]\nmodel = \"m\"\n");
  auto found = LoadSettings("", paths);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->model_label, "m");
}

TEST(Settings, RulesFolderIsLoadedInNameOrderBeforeTheFilesList) {
  TempDir dir;
  std::filesystem::create_directories(dir / "rules.d");
  WriteFile(dir / "rules.d" / "20-b.json", "{}");
  WriteFile(dir / "rules.d" / "10-a.json", "{}");
  WriteFile(dir / "rules.d" / "notes.txt", "not rules");
  WriteFile(dir / "c.toml", "[rules]\nfiles = [\"/x/extra.json\"]\n");
  SettingsPaths paths{(dir / "none.toml").string(), (dir / "rules.d").string()};
  auto s = LoadSettings((dir / "c.toml").string(), paths);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->rules_files,
            (std::vector<std::string>{(dir / "rules.d" / "10-a.json").string(),
                                      (dir / "rules.d" / "20-b.json").string(), "/x/extra.json"}));
}

TEST(Settings, FlagsOverrideTheFile) {
  Settings s;
  s.metrics = "0.0.0.0:9400";
  s.model_label = "from-file";
  FleetFlags none;
  ApplyFleetSettings(s, false, none);
  EXPECT_EQ(none.metrics, "0.0.0.0:9400");
  EXPECT_EQ(none.model_label, "from-file");
  FleetFlags flags{"127.0.0.1:9500", "from-flag", ""};
  ApplyFleetSettings(s, false, flags);
  EXPECT_EQ(flags.metrics, "127.0.0.1:9500");
  EXPECT_EQ(flags.model_label, "from-flag");
  FleetFlags once;
  ApplyFleetSettings(s, true, once);
  EXPECT_TRUE(once.metrics.empty()) << "--once probes never take the port";
  FleetFlags off{"off", "", ""};
  ApplyFleetSettings(s, false, off);
  EXPECT_TRUE(off.metrics.empty());
}

TEST(Settings, ColourResolution) {
  EXPECT_TRUE(ResolveColor("auto", true, false));
  EXPECT_FALSE(ResolveColor("auto", false, false));
  EXPECT_FALSE(ResolveColor("auto", true, true));
  EXPECT_FALSE(ResolveColor("never", true, false));
  EXPECT_TRUE(ResolveColor("always", false, true));
}

// The CLI reads the file and rules.d once, before the command: a broken rules file in rules.d
// or a broken config is a usage error naming the file, for every command.
TEST(Settings, CliLoadsRulesDirAndConfig) {
  TempDir dir;
  std::filesystem::create_directories(dir / "rules.d");
  WriteFile(dir / "ready.log", "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n");
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "spinup");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    CliEnv env;
    env.paths = {(dir / "config.toml").string(), (dir / "rules.d").string()};
    int code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err, env);
    return std::make_pair(code, err.str());
  };
  EXPECT_EQ(run({"explain", (dir / "ready.log").string()}).first, 0);
  WriteFile(dir / "rules.d" / "broken.json", "{ not json");
  auto broken = run({"explain", (dir / "ready.log").string()});
  EXPECT_EQ(broken.first, 2);
  EXPECT_NE(broken.second.find("broken.json"), std::string::npos) << broken.second;
  std::filesystem::remove(dir / "rules.d" / "broken.json");
  WriteFile(dir / "config.toml", "[nope]\n");
  auto bad = run({"inspect", dir.path().string()});
  EXPECT_EQ(bad.first, 2);
  EXPECT_NE(bad.second.find("config.toml:1:1: unknown table 'nope'"), std::string::npos)
      << bad.second;
}

}  // namespace
}  // namespace spinup
