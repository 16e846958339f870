// --log-command and --log - (issue 12): a command's output is followed and the command restarted
// with a note when it exits; standard input is a log source.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "live/log_sources.h"
#include "test_util.h"

namespace spinup {
namespace {

// Reads until `want` appeared or `done` says stop, at most ~10 s of real time.
std::string ReadUntil(LogSource& src, const std::function<bool(const std::string&)>& done) {
  std::string all;
  for (int i = 0; i < 1000 && !done(all); ++i) {
    all += src.Read();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return all;
}

TEST(LogCommandSource, FollowsOutputAndRestartsWithANote) {
  double now = 0;
  std::vector<std::string> notes;
  LogCommandOptions o;
  o.command = "echo line-from-command; echo to-stderr >&2; exit 3";
  o.now_s = [&] { return now; };
  o.note = [&](const std::string& n) { notes.push_back(n); };
  LogCommandSource src(std::move(o));
  std::string text = ReadUntil(src, [&](const std::string&) { return !notes.empty(); });
  EXPECT_NE(text.find("line-from-command\n"), std::string::npos) << text;
  EXPECT_NE(text.find("to-stderr\n"), std::string::npos) << text;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("exited with status 3; restarting in 1s"), std::string::npos) << notes[0];
  EXPECT_EQ(src.starts(), 1);
  // Not before the delay (the injected clock has not moved) ...
  EXPECT_EQ(src.Read(), "");
  EXPECT_EQ(src.starts(), 1);
  // ... and again after it.
  now = 1.5;
  std::string again = ReadUntil(src, [&](const std::string&) { return notes.size() >= 2; });
  EXPECT_EQ(src.starts(), 2);
  EXPECT_NE(again.find("line-from-command"), std::string::npos);
}

TEST(LogCommandSource, SilentFailuresBackOff) {
  double now = 0;
  std::vector<std::string> notes;
  LogCommandOptions o;
  o.command = "exit 1";
  o.now_s = [&] { return now; };
  o.note = [&](const std::string& n) { notes.push_back(n); };
  LogCommandSource src(std::move(o));
  for (int round = 0; round < 3; ++round) {
    size_t before = notes.size();
    ReadUntil(src, [&](const std::string&) { return notes.size() > before; });
    now += 100;  // past any delay
  }
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[0].find("restarting in 1s"), std::string::npos);
  EXPECT_NE(notes[1].find("restarting in 2s"), std::string::npos);
  EXPECT_NE(notes[2].find("restarting in 4s"), std::string::npos);
}

// The command's pid (sh execs a simple command, so it is the command itself), once written.
pid_t WaitForPid(const std::filesystem::path& file) {
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in(file);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// Gone or a zombie: it no longer runs.
bool Ended(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

bool EndsSoon(pid_t pid) {
  for (int i = 0; i < 1000 && !Ended(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return Ended(pid);
}

TEST(LogCommandSource, DestructorEndsTheCommand) {
  testing::TempDir dir;
  const auto pid_file = dir / "pid";
  pid_t pid = -1;
  {
    LogCommandOptions o;
    o.command = "echo $$ > " + pid_file.string() + "; exec sleep 300";
    LogCommandSource src(std::move(o));
    pid = WaitForPid(pid_file);
    ASSERT_GT(pid, 0);
    EXPECT_FALSE(Ended(pid));
  }
  EXPECT_TRUE(Ended(pid));  // ended and reaped by the destructor
}

// A command that ignores SIGTERM is killed after a grace period, so spinup's exit never hangs.
TEST(LogCommandSource, DestructorKillsACommandThatIgnoresSigterm) {
  testing::TempDir dir;
  const auto pid_file = dir / "pid";
  pid_t pid = -1;
  {
    LogCommandOptions o;
    o.command = "trap '' TERM; echo $$ > " + pid_file.string() + "; while :; do sleep 1; done";
    LogCommandSource src(std::move(o));
    pid = WaitForPid(pid_file);
    ASSERT_GT(pid, 0);
  }
  EXPECT_TRUE(Ended(pid));
}

// spinup killed outright (SIGKILL: no destructor runs) takes its log command with it.
TEST(LogCommandSource, CommandDiesWithSpinup) {
  testing::TempDir dir;
  const auto pid_file = dir / "pid";
  const std::string command = "echo $$ > " + pid_file.string() + "; exec sleep 300";
  pid_t spinup = ::fork();
  ASSERT_GE(spinup, 0);
  if (spinup == 0) {
    int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(SPINUP_EXE, "spinup", "watch", "--log-command", command.c_str(), "--timeout", "120s",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  pid_t child = WaitForPid(pid_file);
  ::kill(spinup, SIGKILL);
  int status = 0;
  ::waitpid(spinup, &status, 0);
  ASSERT_GT(child, 0);
  EXPECT_TRUE(EndsSoon(child)) << "log command " << child << " outlived spinup";
  if (!Ended(child)) ::kill(child, SIGKILL);
}

// End to end through the binary: a log on standard input, and a log command.
TEST(LiveLogInputs, WatchReadsStandardInputAndLogCommands) {
  const std::string ready = "[2026-03-09 12:05:20] The server is fired up and ready to roll!\n";
  auto in = testing::RunSpinup(
      {"watch", "--log", "-", "--until", "verdict", "--timeout", "20s", "--interval", "0.1s"},
      ready, 60);
  EXPECT_EQ(in.exit_code, 0) << in.out << in.err;
  auto cmd = testing::RunSpinup(
      {"watch", "--log-command", "printf '" + ready.substr(0, ready.size() - 1) + "\\n'; sleep 0.2",
       "--until", "verdict", "--timeout", "20s", "--interval", "0.1s"},
      "", 60);
  EXPECT_EQ(cmd.exit_code, 0) << cmd.out << cmd.err;
  auto twice = testing::RunSpinup({"watch", "--log", "-", "--log", "-", "--once"}, "", 30);
  EXPECT_EQ(twice.exit_code, 2);
}

}  // namespace
}  // namespace spinup
