#include <gtest/gtest.h>

#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cstddef>
#include <nlohmann/json.hpp>

#include <sstream>

#include "sink/json_codec.h"
#include "sink/json_lines_sink.h"
#include "sink/live_format.h"
#include "sink/notify_sink.h"
#include "sink/plain_sink.h"
#include "sink/terminal_sink.h"
#include "test_util.h"

namespace spinup {
namespace {

Verdict Loading(uint64_t done) {
  Verdict v;
  v.state = State::kProgressing;
  v.phase = Phase::kWeightLoad;
  v.progress.bytes_done = done;
  v.progress.bytes_total = 234'000'000'000;
  v.progress.bytes_per_second = 780e6;
  v.progress.eta_seconds = 130;
  v.ranks = {{"TP0", Phase::kWeightLoad, 1'700'000'000'000}, {"TP1", Phase::kWeightLoad, {}}};
  return v;
}

Verdict Stalled() {
  Verdict v;
  v.state = State::kStalled;
  v.phase = Phase::kDistributedInit;
  v.headline = "STALLED in distributed_init for 9 min 52 s";
  v.evidence = {"no new log line for 9 min 52 s", "131 threads in futex wait"};
  v.findings = {{"nccl_p2p", "PCIe P2P broken", {"futex waits"}, "NCCL_P2P_DISABLE=1"}};
  return v;
}

TEST(LiveFormatTest, StatusLineLikeSystemctlShowsIt) {
  EXPECT_EQ(StatusText(Loading(105'000'000'000)), "weight_load 44% 105/234 GB 780 MB/s ETA 2m10s");
  EXPECT_EQ(StatusText(Stalled()), "STALLED in distributed_init for 9 min 52 s");
  Verdict bar;
  bar.state = State::kProgressing;
  bar.phase = Phase::kWeightLoad;
  bar.progress.bar = "shards";
  bar.progress.bar_n = 3;
  bar.progress.bar_total = 12;
  EXPECT_EQ(StatusText(bar), "weight_load 25% 3/12 shards");
  EXPECT_EQ(LiveBytes(512), "512 B");
  EXPECT_EQ(LiveBytes(1'500'000'000), "1.5 GB");
}

TEST(JsonLinesSinkTest, EveryLineHasTimeAndTypeAndVerdictsCarryTheirFields) {
  std::ostringstream out;
  FakeClock clock(1'000);
  JsonLinesSink sink(out, clock);
  LogEvent begin;
  begin.kind = LogEvent::Kind::kPhaseBegin;
  begin.phase = Phase::kWeightLoad;
  begin.rank = "TP0";
  begin.time_ms = 500;
  sink.OnLogEvent(begin);
  LogEvent bar;
  bar.kind = LogEvent::Kind::kProgress;
  bar.bar = "Loading safetensors checkpoint shards";
  bar.progress_n = 2;
  bar.progress_total = 8;
  sink.OnLogEvent(bar);
  LogEvent info;  // not one of the four types: not emitted
  sink.OnLogEvent(info);
  Sample s;
  s.time_ms = 900;
  s.processes.push_back({});
  s.processes[0].threads_futex_wait = 7;
  sink.OnSample(s);
  sink.OnVerdict(Loading(1));
  sink.OnVerdict(Loading(1));  // unchanged: no second verdict or progress
  sink.Finish(Stalled());

  std::vector<nlohmann::json> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 6u);
  std::vector<std::string> types;
  for (const auto& j : lines) {
    ASSERT_TRUE(j.contains("time"));
    types.push_back(j["type"]);
  }
  EXPECT_EQ(types, (std::vector<std::string>{"phase", "progress", "signal", "progress", "verdict",
                                             "verdict"}));
  EXPECT_EQ(lines[0]["time"], 500);
  EXPECT_EQ(lines[0]["phase"], "weight_load");
  EXPECT_EQ(lines[0]["rank"], "TP0");
  EXPECT_EQ(lines[1]["total"], 8);
  EXPECT_EQ(lines[2]["totals"]["threads_futex_wait"], 7);
  EXPECT_EQ(lines[3]["source"], "measured");
  const auto& fin = lines[5];
  EXPECT_EQ(fin["state"], "stalled");
  EXPECT_EQ(fin["phase"], "distributed_init");
  EXPECT_TRUE(fin["ranks"].is_array());
  EXPECT_EQ(fin["evidence"].size(), 2u);
  EXPECT_EQ(fin["findings"][0]["fix"], "NCCL_P2P_DISABLE=1");
  EXPECT_EQ(fin["final"], true);
  // The stream replays through the codec.
  auto replayed = VerdictFromJson(fin);
  ASSERT_TRUE(replayed.ok());
  EXPECT_EQ(replayed->state, State::kStalled);
  auto ev = LogEventFromJson(lines[0]);
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(ev->phase, Phase::kWeightLoad);
}

TEST(PlainLinesSinkTest, OneLinePerStateChange) {
  std::ostringstream out;
  FakeClock clock(0);
  PlainLinesSink sink(out, clock);
  sink.OnVerdict(Loading(100'000'000'000));
  sink.OnVerdict(Loading(100'000'000'001));  // same state, same 10%: nothing
  sink.OnVerdict(Stalled());
  std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);  // 2 lines + 2 evidence lines
  EXPECT_NE(text.find("00:00:00 progressing weight_load 42%"), std::string::npos);
  EXPECT_NE(text.find("evidence: 131 threads in futex wait"), std::string::npos);
  EXPECT_EQ(text.find("\x1b"), std::string::npos);  // no escape codes off a terminal
  sink.Finish(Stalled());
  EXPECT_NE(out.str().find("fix: NCCL_P2P_DISABLE=1"), std::string::npos);
}

TEST(TerminalSinkTest, RedrawsInPlaceWithRanksBarAndEvidence) {
  std::ostringstream out;
  FakeClock clock(1'700'000'065'000);
  TerminalSink sink(out, clock, 120);
  Sample s;
  s.gpu_message = "GPU: no NVML";
  sink.OnSample(s);
  auto lines = sink.Render(Loading(117'000'000'000));
  ASSERT_GE(lines.size(), 5u);
  EXPECT_NE(lines[1].find("TP0"), std::string::npos);
  EXPECT_NE(lines[1].find("1m05s"), std::string::npos);
  EXPECT_NE(lines[3].find("[###############...............] 50%"), std::string::npos);
  EXPECT_NE(lines[3].find("ETA 2m10s"), std::string::npos);
  EXPECT_NE(lines[4].find("GPU: no NVML"), std::string::npos);
  sink.OnVerdict(Loading(1));
  sink.OnVerdict(Stalled());
  // The second draw first moves up over the first block and clears it.
  EXPECT_NE(out.str().find("\x1b[" + std::to_string(lines.size()) + "A\x1b[J"), std::string::npos);
  auto stalled = sink.Render(Stalled());
  bool has_evidence = false;
  for (const auto& l : stalled)
    has_evidence |= l.find("evidence: no new log line") != std::string::npos;
  EXPECT_TRUE(has_evidence);
}

TEST(NotifySinkTest, StatusReadyAndWatchdogOnlyWhileProgressing) {
  std::vector<std::string> sent;
  NotifySink sink([&](const std::string& m) { sent.push_back(m); });
  Verdict starting;
  starting.state = State::kStarting;
  sink.OnVerdict(starting);
  sink.OnVerdict(Loading(105'000'000'000));
  sink.OnVerdict(Stalled());
  sink.OnVerdict(Stalled());
  Verdict ready;
  ready.state = State::kReady;
  ready.phase = Phase::kReady;
  ready.headline = "READY in 3m12s";
  sink.OnVerdict(ready);
  sink.OnVerdict(ready);
  EXPECT_EQ(sent, (std::vector<std::string>{
                      "STATUS=launch", "WATCHDOG=1",
                      "STATUS=weight_load 44% 105/234 GB 780 MB/s ETA 2m10s", "WATCHDOG=1",
                      "STATUS=STALLED in distributed_init for 9 min 52 s", "STATUS=READY in 3m12s",
                      "READY=1", "WATCHDOG=1", "WATCHDOG=1"}));
}

TEST(NotifySinkTest, StatusSaysWhenTheHistoryExpectsReady) {
  std::vector<std::string> sent;
  std::optional<double> eta = 130;
  NotifySink sink([&](const std::string& m) { sent.push_back(m); }, [&] { return eta; });
  sink.OnVerdict(Loading(105'000'000'000));
  ASSERT_FALSE(sent.empty());
  EXPECT_TRUE(sent[0].starts_with("STATUS=weight_load")) << sent[0];
  EXPECT_TRUE(sent[0].ends_with(", ready in about 2 min")) << sent[0];
  sent.clear();
  sink.OnVerdict(Stalled());  // a stalled start gets no promise
  ASSERT_FALSE(sent.empty());
  EXPECT_EQ(sent[0].find("ready in"), std::string::npos) << sent[0];
}

// The real protocol: SendNotify (spinup's own sd_notify, no libsystemd) sending datagrams to the
// AF_UNIX socket that NOTIFY_SOCKET names.
TEST(NotifySinkTest, SendsDatagramsToNotifySocket) {
  testing::TempDir dir;
  std::string path = (dir / "notify.sock").string();
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(addr.sun_path));
  std::strcpy(addr.sun_path, path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  {
    NotifySink sink([&path](const std::string& m) { ASSERT_TRUE(SendNotify(path, m).ok()); });
    sink.OnVerdict(Loading(105'000'000'000));
    Verdict ready;
    ready.state = State::kReady;
    ready.headline = "ready";
    sink.OnVerdict(ready);
  }
  std::vector<std::string> got;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) got.emplace_back(buf, size_t(n));
  ::close(fd);
  EXPECT_EQ(got, (std::vector<std::string>{"STATUS=weight_load 44% 105/234 GB 780 MB/s ETA 2m10s",
                                           "WATCHDOG=1", "STATUS=ready", "READY=1", "WATCHDOG=1"}));
  EXPECT_FALSE(SendNotify("relative/path", "READY=1").ok());
  EXPECT_FALSE(SendNotify((dir / "absent.sock").string(), "READY=1").ok());
}

TEST(NotifySinkTest, AbstractSocketNames) {
  const std::string name = "@spinup-test-" + std::to_string(::getpid());
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path + 1, name.data() + 1, name.size() - 1);
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), len), 0);
  EXPECT_TRUE(SendNotify(name, "READY=1").ok());
  char buf[64];
  ssize_t n = ::recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
  ::close(fd);
  ASSERT_EQ(n, 7);
  EXPECT_EQ(std::string(buf, 7), "READY=1");
}

}  // namespace
}  // namespace spinup
