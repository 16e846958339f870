// Opens HTML reports in a real browser (Debian's headless Chromium, on a closed network) and
// checks the rendered DOM: the verdict, and one drawn bar per rank and phase (the report's inline
// script marks every bar the browser actually laid out with data-drawn="1").
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleet_fixtures.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using testing::RunProgram;
using testing::RunSpinup;
using testing::TempDir;

std::optional<std::string> Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(p, X_OK) == 0) return std::string(p);
  }
  return std::nullopt;
}

std::vector<std::string> BrowserArgs(const std::string& exe, const fs::path& profile) {
  return {exe,
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-dev-shm-usage",
          "--user-data-dir=" + profile.string()};
}

std::string DumpDom(const std::string& exe, const fs::path& profile, const fs::path& html) {
  auto args = BrowserArgs(exe, profile);
  args.push_back("--dump-dom");
  args.push_back("file://" + html.string());
  auto r = RunProgram(args, "", 30);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// The (rank, phase) pairs of the final verdict's timeline in a saved stream.
std::map<std::pair<std::string, std::string>, size_t> ExpectedBars(const std::string& stream) {
  std::map<std::pair<std::string, std::string>, size_t> out;
  std::istringstream in(stream);
  std::string line;
  nlohmann::json last;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object() && j.value("type", "") == "verdict") last = j;
  }
  for (const auto& t : last["timeline"]) {
    ++out[{t["rank"].get<std::string>(), t["phase"].get<std::string>()}];
  }
  return out;
}

void CheckDom(const std::string& dom, const std::string& state,
              const std::map<std::pair<std::string, std::string>, size_t>& bars,
              const std::string& what) {
  ASSERT_FALSE(dom.empty()) << what;
  size_t total = 0;
  for (const auto& [key, n] : bars) total += n;
  EXPECT_NE(dom.find("id=\"verdict\" data-state=\"" + state + "\""), std::string::npos)
      << what << ": verdict " << state << " not rendered";
  EXPECT_NE(dom.find("data-bars=\"" + std::to_string(total) + "\""), std::string::npos) << what;
  EXPECT_NE(dom.find("data-bars-drawn=\"" + std::to_string(total) + "\""), std::string::npos)
      << what << ": not every bar was laid out by the browser";
  for (const auto& [bar, n] : bars) {
    std::string key = "data-rank=\"" + bar.first + "\" data-phase=\"" + bar.second + "\"";
    EXPECT_EQ(Count(dom, key), n) << what << ": " << key;
  }
}

TEST(ReportBrowser, EveryScenarioRendersVerdictAndBarsInChromium) {
  auto chromium = Chromium();
  if (!chromium) GTEST_SKIP() << "chromium not installed (scripts/install-deps installs it)";
  TempDir dir;
  for (const auto& scenario : testing::ScenarioNames()) {
    std::string stream = testing::ScenarioStream(scenario, 4);
    auto events = dir / (scenario + ".jsonl");
    auto html = dir / (scenario + ".html");
    testing::WriteFile(events, stream);
    auto r = RunSpinup({"report", events.string(), "-o", html.string(), "--model", "Llama-3-70B",
                        "--host", "node-a"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string dom = DumpDom(*chromium, dir / "profile", html);
    CheckDom(dom, testing::ScenarioState(scenario), ExpectedBars(stream), scenario);
  }
}

TEST(ReportBrowser, ScreenshotOfStalledStartup) {
  auto chromium = Chromium();
  if (!chromium) GTEST_SKIP() << "chromium not installed (scripts/install-deps installs it)";
  TempDir dir;
  auto events = dir / "stalled.jsonl";
  auto html = dir / "stalled.html";
  testing::WriteFile(events, testing::ScenarioStream("hung_cuda_graph", 4));
  auto r = RunSpinup({"report", events.string(), "-o", html.string(), "--model", "Llama-3-70B",
                      "--host", "node-a"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto png = dir / "report.png";
  auto args = BrowserArgs(*chromium, dir / "profile");
  args.push_back("--hide-scrollbars");
  args.push_back("--window-size=1280,1600");
  args.push_back("--screenshot=" + png.string());
  args.push_back("file://" + html.string());
  auto shot = RunProgram(args, "", 30);
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  std::string bytes = testing::ReadFile(png);
  ASSERT_GT(bytes.size(), 20000u) << "screenshot suspiciously small (blank page?)";
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  // `SPINUP_UPDATE_SCREENSHOT=1` refreshes the README's picture from this test.
  if (const char* update = std::getenv("SPINUP_UPDATE_SCREENSHOT"); update && *update == '1') {
    fs::copy_file(png, testing::SourceDir() / "docs" / "report-screenshot.png",
                  fs::copy_options::overwrite_existing);
  }
}

TEST(ReportBrowser, CorpusLogExplainedAsHtmlRendersInChromium) {
  auto chromium = Chromium();
  if (!chromium) GTEST_SKIP() << "chromium not installed (scripts/install-deps installs it)";
  auto shared = testing::SharedDir();
  if (!shared) GTEST_SKIP() << "../shared (the corpus) is absent";
  auto help = RunSpinup({"explain", "--help"});
  if (help.out.find("--html") == std::string::npos) {
    GTEST_SKIP() << "spinup explain has no --html yet (its command is not merged)";
  }
  fs::path log = *shared / "corpus" / "001-sglang-hung-distributed_init.log";
  if (!fs::exists(log)) GTEST_SKIP() << log << " absent";
  TempDir dir;
  auto html = dir / "explain.html";
  auto json = RunSpinup({"explain", log.string(), "--json"});
  auto r = RunSpinup({"explain", log.string(), "--html", html.string()});
  ASSERT_TRUE(fs::exists(html)) << r.err;
  auto verdict = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(verdict.is_discarded()) << json.out;
  if (verdict.contains("verdict")) verdict = verdict["verdict"];
  std::map<std::pair<std::string, std::string>, size_t> bars;
  for (const auto& t : verdict["timeline"]) {
    std::string rank = t["rank"].get<std::string>();
    if (rank == "main") rank = "";  // explain's JSON names the main process "main"
    ++bars[{rank, t["phase"].get<std::string>()}];
  }
  ASSERT_FALSE(bars.empty()) << "explain found no phases in " << log;
  std::string state = verdict.contains("state") ? verdict["state"].get<std::string>()
                                                : verdict["outcome"].get<std::string>();
  std::string dom = DumpDom(*chromium, dir / "profile", html);
  CheckDom(dom, state, bars, log.filename().string());
}

}  // namespace
}  // namespace spinup
