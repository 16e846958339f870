// Regressions from the adversarial pass (issue 11): each test reproduces one failure through the
// real command line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "base/threads.h"
#include "cli/cli.h"
#include "cli/fleet_flags.h"
#include "diagnose/judge.h"
#include "diagnose/rank_format.h"
#include "fleet_fixtures.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

CliRun Cli(std::vector<std::string> args) {
  args.insert(args.begin(), "spinup");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliRun r;
  r.code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A minimal valid safetensors file: one F32 tensor of 2 elements.
std::string TinyShard() {
  std::string header = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  std::string out;
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  return out + header + std::string(8, '\0');
}

bool HasControl(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      return true;
  }
  return false;
}

// Item 6: a folder named in Latin-1 made `warm --check --json` abort in json::dump.
TEST(Hardening, NonUtf8FolderNameInJsonDoesNotAbort) {
  testing::TempDir dir;
  fs::path model = dir / "caf\xe9";
  fs::create_directories(model);
  testing::WriteFile(model / "model.safetensors", TinyShard());
  auto r = Cli({"warm", "--check", "--json", model.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("caf\xef\xbf\xbd"), std::string::npos) << r.out;
  auto e = Cli({"evict", "--json", model.string()});
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("\"files\""), std::string::npos);
}

// Item 5: control characters in shard names and in log text never reach the terminal.
TEST(Hardening, ShardNamesAndLogTextAreCleanedForTheTerminal) {
  testing::TempDir dir;
  testing::WriteFile(dir / "evil\x1b]0;owned\x07.safetensors", TinyShard());
  auto r = Cli({"warm", "--check", dir.path().string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(HasControl(r.out)) << r.out;
  EXPECT_NE(r.out.find("evil?]0;owned?"), std::string::npos) << r.out;

  auto log = dir / "server.log";
  testing::WriteFile(log,
                     "[2025-01-01 10:00:00] Load weight begin.\n"
                     "[2025-01-01 10:00:01] RuntimeError: CUDA out of memory \xc2\x9b"
                     "31m\x07 boom\n");
  auto x = Cli({"explain", log.string()});
  EXPECT_FALSE(HasControl(x.out)) << x.out;
}

// Item 5: a refs/main holding an escape sequence is quoted cleaned in the error.
TEST(Hardening, RefsMainIsCleanedInErrors) {
  testing::TempDir dir;
  fs::create_directories(dir / "snapshots" / "abc");
  fs::create_directories(dir / "refs");
  testing::WriteFile(dir / "refs" / "main", "\x1b[2Jgone");
  auto r = Cli({"inspect", dir.path().string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(HasControl(r.err)) << r.err;
  EXPECT_NE(r.err.find("?[2Jgone"), std::string::npos) << r.err;
}

// A model folder with one valid shard.
fs::path TinyModel(const testing::TempDir& dir, const std::string& name = "model") {
  fs::path model = dir / name;
  fs::create_directories(model);
  testing::WriteFile(model / "model.safetensors", TinyShard());
  return model;
}

// Item 1: every report writer refuses to replace what is not a regular file, and keeps a link's
// target intact.
TEST(Hardening, ReportWritersRefuseLinksAndDevices) {
  testing::TempDir dir;
  auto log = dir / "server.log";
  testing::WriteFile(log, "[2025-01-01 10:00:00] Load weight begin.\n");
  auto victim = dir / "victim";
  testing::WriteFile(victim, "precious");
  auto link = dir / "r.html";
  fs::create_symlink(victim, link);
  auto x = Cli({"explain", log.string(), "--html", link.string()});
  EXPECT_EQ(x.code, 2) << x.err;
  EXPECT_NE(x.err.find("not a regular file"), std::string::npos) << x.err;
  EXPECT_EQ(testing::ReadFile(victim), "precious");
  EXPECT_TRUE(fs::is_symlink(link));
  auto events = dir / "e.jsonl";
  testing::WriteFile(events, testing::ScenarioStream("slow"));
  auto r = Cli({"report", events.string(), "-o", "/dev/null"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

// Item 19: one mapping from errors to exit codes, the same in every command.
TEST(Hardening, PathErrorsGiveTheSameExitCodeEverywhere) {
  testing::TempDir dir;
  auto loop = dir / "loop";
  fs::create_symlink(loop, loop);                       // ELOOP
  std::string too_long = "/" + std::string(5000, 'a');  // ENAMETOOLONG
  for (const std::string& path : {loop.string(), too_long}) {
    for (const char* cmd : {"inspect", "verify", "bench", "warm", "evict"}) {
      auto r = Cli({cmd, path});
      EXPECT_EQ(r.code, 2) << cmd << " " << path.substr(0, 40) << ": " << r.err;
    }
  }
  auto log = dir / "server.log";
  testing::WriteFile(log, "[2025-01-01 10:00:00] Load weight begin.\n");
  auto events = dir / "e.jsonl";
  testing::WriteFile(events, testing::ScenarioStream("slow"));
  auto missing = (dir / "no" / "x.html").string();
  EXPECT_EQ(Cli({"report", events.string(), "-o", missing}).code, 2);
  EXPECT_EQ(Cli({"explain", log.string(), "--html", missing}).code, 2);
}

TEST(Hardening, NonsenseValuesAreUsageErrors) {
  testing::TempDir dir;
  auto log = dir / "server.log";
  testing::WriteFile(log, "[2025-01-01 10:00:00] Load weight begin.\n");
  auto r = Cli({"explain", log.string(), "--now", "2026-02-30 10:00:00"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--now"), std::string::npos);
  EXPECT_EQ(Cli({"explain", log.string(), "--now", "2024-02-29 10:00:00"}).code, 5);
  for (const char* order : {R"(["launch", "weight_load", "weight_load", "ready"])",
                            R"(["ready", "launch"])", R"([])"}) {
    auto rules = dir / "rules.json";
    testing::WriteFile(rules, std::string(R"({"engine": "toy", "phase_order": )") + order + "}");
    auto x = Cli({"explain", log.string(), "--rules", rules.string()});
    EXPECT_EQ(x.code, 2) << order << ": " << x.err;
    EXPECT_NE(x.err.find("phase_order"), std::string::npos) << x.err;
  }
}

// Item 4: a shard link out of the model folder is reported, not read; an HF cache's links into
// blobs/ are still read.
TEST(Hardening, ShardLinksOutOfTheModelFolderAreNotRead) {
  testing::TempDir dir;
  auto secret = dir / "shadow";
  testing::WriteFile(secret, "root:$6$saltsalt$hash:19000:0:99999:7:::\n");
  fs::path model = dir / "model";
  fs::create_directories(model);
  fs::create_symlink(secret, model / "model.safetensors");
  auto r = Cli({"verify", model.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("path_outside_model"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("header length"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("root"), std::string::npos) << r.out;

  fs::path repo = dir / "models--org--m";
  fs::create_directories(repo / "blobs");
  fs::create_directories(repo / "snapshots" / "abc");
  fs::create_directories(repo / "refs");
  testing::WriteFile(repo / "refs" / "main", "abc");
  testing::WriteFile(repo / "blobs" / "deadbeef", TinyShard());
  fs::create_symlink("../../blobs/deadbeef", repo / "snapshots" / "abc" / "model.safetensors");
  auto hf = Cli({"verify", repo.string()});
  EXPECT_EQ(hf.code, 0) << hf.out << hf.err;
}

// Item 7: no thread to spare (a pids limit) is not an abort.
TEST(Hardening, CommandsRunWhenNoThreadCanBeStarted) {
  testing::TempDir dir;
  auto model = TinyModel(dir);
  SetThreadLimitForTesting(0);
  auto v = Cli({"verify", "--hash", model.string()});
  auto w = Cli({"warm", "--backend", "pread", model.string()});
  auto b = Cli({"bench", "--buffered", "--threads", "8", model.string()});
  SetThreadLimitForTesting(-1);
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(w.code, 0) << w.err;
  EXPECT_EQ(b.code, 0) << b.err;
}

// Item 16: write errors are failures.
TEST(Hardening, WriteErrorsAreNotIgnored) {
  testing::TempDir dir;
  auto model = TinyModel(dir);
  auto full = testing::RunProgram(
      {"/bin/sh", "-c",
       testing::SpinupExe().string() + " verify --json " + model.string() + " > /dev/full"});
  EXPECT_EQ(full.exit_code, 1) << full.err;
  EXPECT_NE(full.err.find("cannot write"), std::string::npos) << full.err;

  auto run = testing::RunSpinup({"run", "--no-gpu", "--log", (dir / "no" / "x.log").string(), "--",
                                 "/bin/sh", "-c", "echo hi"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--log"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "") << "the server must not start without its log";

  auto log = dir / "server.log";
  testing::WriteFile(log, "[2025-01-01 10:00:00] Load weight begin.\n");
  auto ev = testing::RunSpinup(
      {"watch", "--log", log.string(), "--once", "--no-gpu", "--events", "/dev/full"});
  EXPECT_NE(ev.exit_code, 0);
  EXPECT_NE(ev.err.find("--events"), std::string::npos) << ev.err;
}

// Item 11: a typo in what to watch fails closed (exit 2), never "in progress" (5).
TEST(Hardening, WatchOfNothingIsAUsageError) {
  testing::TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  std::vector<Case> cases = {
      {{"--pid", "999999999"}, "--pid 999999999"},
      {{"--log", (dir / "typo.log").string()}, "--log"},
      {{"--log", dir.path().string()}, "folder"},
      {{"--unit", "no-such-unit-spinup-test"}, "--unit no-such-unit-spinup-test"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"watch", "--once", "--no-gpu"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = testing::RunSpinup(args);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

// Item 20: the headline keeps DP groups apart; IPv6 metrics addresses print as URLs.
TEST(Hardening, RankRangesKeepDpGroupsApart) {
  EXPECT_EQ(FormatRanks({"DP0_TP0", "DP0_TP1", "DP1_TP0", "DP1_TP1"}),
            "DP0_TP0\u2013DP0_TP1, DP1_TP0\u2013DP1_TP1");
  EXPECT_EQ(FormatRanks({"TP3_EP3", "TP1_EP1", "TP0_EP0", "TP2_EP2"}), "TP0\u2013TP3");
}

TEST(Hardening, MetricsUrlBracketsIpv6) {
  EXPECT_EQ(MetricsUrl("::1", 9400), "http://[::1]:9400/metrics");
  EXPECT_EQ(MetricsUrl("127.0.0.1", 9400), "http://127.0.0.1:9400/metrics");
}

// Item 3: event-stream lines are bounded by structure and by length, without holding a long
// line in memory.
TEST(Hardening, HostileEventStreamLinesAreSkipped) {
  testing::TempDir dir;
  auto events = dir / "e.jsonl";
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  std::string wide = "{\"type\":\"verdict\",\"x\":[";
  while (wide.size() < (15u << 20)) wide += "[],";
  wide += "[]]}";
  testing::WriteFile(events, deep + "\n" + wide + "\n" + std::string(20u << 20, 'x') + "\n" +
                                 testing::ScenarioStream("slow"));
  auto r = Cli({"report", events.string(), "-o", (dir / "r.html").string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("e.jsonl:1: not a JSON object: JSON nested deeper"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("e.jsonl:2: not a JSON object: more than"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("e.jsonl:3: line too long"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace spinup
