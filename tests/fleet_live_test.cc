// The fleet flags on the real live commands, against the stand-in server (tools/
// spinup_test_server, a test fixture): `spinup run --metrics --report --events` on a healthy
// start, and the recorded event stream rendered again with `spinup report`.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using testing::BinaryDir;
using testing::ReadFile;
using testing::RunProgram;
using testing::RunSpinup;
using testing::TempDir;

fs::path TestServer() { return BinaryDir() / "spinup_test_server"; }

TEST(FleetLive, RunWritesReportServesMetricsAndRecordsAReplayableStream) {
  TempDir tmp;
  fs::path model = tmp / "Tiny-Model";
  auto gen = RunProgram({TestServer().string(), "--generate-model", model.string(), "--model-bytes",
                         "2000000", "--shards", "2"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  fs::path report = tmp / "startup.html";
  fs::path events = tmp / "events.jsonl";
  auto r = RunSpinup({"run",
                      "--metrics",
                      "127.0.0.1:0",
                      "--report",
                      report.string(),
                      "--events",
                      events.string(),
                      "--until",
                      "ready",
                      "--timeout",
                      "40s",
                      "--",
                      TestServer().string(),
                      "--scenario",
                      "healthy",
                      "--tp",
                      "2",
                      "--port",
                      "0",
                      "--model",
                      model.string(),
                      "--max-lifetime",
                      "60"},
                     "", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The model label defaults to the model directory's name, found on the server's command line.
  EXPECT_NE(r.err.find("metrics at http://127.0.0.1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("model=\"Tiny-Model\""), std::string::npos) << r.err;
  ASSERT_TRUE(fs::exists(report)) << r.err;
  std::string html = ReadFile(report);
  EXPECT_NE(html.find("data-state=\"ready\""), std::string::npos);
  EXPECT_NE(html.find("data-rank=\"TP0\""), std::string::npos);
  EXPECT_NE(html.find("data-rank=\"TP1\""), std::string::npos);
  EXPECT_NE(html.find("model Tiny-Model"), std::string::npos);

  // The real report in a real browser: every bar laid out (the report's script counts them).
  if (access("/usr/bin/chromium", X_OK) == 0) {
    auto dom = RunProgram(
        {"/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + (tmp / "p").string(),
         "--dump-dom", "file://" + report.string()},
        "", 30);
    EXPECT_EQ(dom.exit_code, 0) << dom.err;
    EXPECT_NE(dom.out.find("id=\"verdict\" data-state=\"ready\""), std::string::npos);
    size_t bars = 0;
    for (size_t p = html.find("<g class=\"bar"); p != std::string::npos;
         p = html.find("<g class=\"bar", p + 1)) {
      ++bars;
    }
    EXPECT_GE(bars, 2u);
    EXPECT_NE(dom.out.find("data-bars-drawn=\"" + std::to_string(bars) + "\""), std::string::npos)
        << "bars in file: " << bars;
  }

  // The recorded stream renders again, to the same verdict and ranks.
  ASSERT_TRUE(fs::exists(events));
  fs::path again = tmp / "again.html";
  auto rep = RunSpinup({"report", events.string(), "-o", again.string()});
  EXPECT_EQ(rep.exit_code, 0) << rep.err;
  EXPECT_EQ(rep.err, "") << "a stream written by spinup itself replays without warnings";
  std::string html2 = ReadFile(again);
  EXPECT_NE(html2.find("data-state=\"ready\""), std::string::npos);
  EXPECT_NE(html2.find("data-rank=\"TP1\""), std::string::npos);
}

TEST(FleetLive, BadFleetFlagsAreUsageErrors) {
  TempDir tmp;
  testing::WriteFile(tmp / "x.log", "");
  auto bad_addr = RunSpinup({"watch", "--log", (tmp / "x.log").string(), "--metrics", "nope:x"});
  EXPECT_EQ(bad_addr.exit_code, 2);
  EXPECT_NE(bad_addr.err.find("--metrics"), std::string::npos) << bad_addr.err;
  auto bad_report = RunSpinup({"watch", "--log", (tmp / "x.log").string(), "--once", "--report",
                               (tmp / "missing-dir" / "r.html").string()});
  EXPECT_EQ(bad_report.exit_code, 2);
  EXPECT_NE(bad_report.err.find("--report"), std::string::npos) << bad_report.err;
  // A busy port is refused, not shared. The blocker is a plain socket closed at the end: a
  // cpp-httplib Server that only binds keeps its socket (without close-on-exec) for the rest of
  // the test binary, and every server a later test forks inherited it as a listening port.
  int blocker = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(blocker, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(::bind(blocker, reinterpret_cast<sockaddr*>(&a), len), 0);
  ASSERT_EQ(::listen(blocker, 1), 0);
  ASSERT_EQ(::getsockname(blocker, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const int port = ntohs(a.sin_port);
  auto busy = RunSpinup({"watch", "--log", (tmp / "x.log").string(), "--once", "--metrics",
                         "127.0.0.1:" + std::to_string(port)});
  ::close(blocker);
  EXPECT_EQ(busy.exit_code, 2);
  EXPECT_NE(busy.err.find(std::to_string(port)), std::string::npos) << busy.err;
}

}  // namespace
}  // namespace spinup
