// --log-command and --log - (issue 12): a command's output is followed and the command restarted
// with a note when it exits; standard input is a log source.
#include <gtest/gtest.h>

#include <chrono>
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

TEST(LogCommandSource, DestructorEndsTheCommand) {
  auto t0 = std::chrono::steady_clock::now();
  {
    LogCommandOptions o;
    o.command = "sleep 30";
    LogCommandSource src(std::move(o));
    EXPECT_EQ(src.Read(), "");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
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
