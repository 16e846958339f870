// spinup against the real Prometheus tools from Debian's package: promtool checks and unit-tests
// the alert rules, and a real `prometheus` server scrapes a spinup metrics endpoint on loopback;
// what arrived is read back through Prometheus's HTTP query API.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <re2/re2.h>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sink/metrics_server.h"
#include "sink/metrics_sink.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::RunProgram;
using testing::SourceDir;
using testing::TempDir;

bool Executable(const char* path) { return access(path, X_OK) == 0; }

int FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

// A child process that is always ended (SIGTERM, then SIGKILL) and reaped.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const fs::path& log) {
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~Child() { Stop(); }
  bool running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    return true;
  }
  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

std::set<std::string> DocumentedMetrics() {
  std::string doc = testing::ReadFile(SourceDir() / "docs" / "metrics.md");
  std::set<std::string> names;
  re2::StringPiece in(doc);
  std::string name;
  static const RE2 kRow(R"(\n\| `(spinup_[a-z_]+)` \|)");
  while (RE2::FindAndConsume(&in, kRow, &name)) names.insert(name);
  return names;
}

std::set<std::string> ReferencedMetrics(const std::string& text) {
  std::set<std::string> names;
  re2::StringPiece in(text);
  std::string name;
  static const RE2 kName(R"((spinup_[a-z_]+))");
  while (RE2::FindAndConsume(&in, kName, &name)) names.insert(name);
  return names;
}

TEST(PrometheusRules, PromtoolChecksAndUnitTestsTheAlerts) {
  if (!Executable("/usr/bin/promtool")) {
    GTEST_SKIP() << "promtool not installed (Debian package prometheus; scripts/install-deps)";
  }
  fs::path dir = SourceDir() / "contrib" / "prometheus";
  auto check = RunProgram({"/usr/bin/promtool", "check", "rules", (dir / "alerts.yml").string()});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("SUCCESS"), std::string::npos) << check.out;
  auto unit =
      RunProgram({"/usr/bin/promtool", "test", "rules", (dir / "alerts_test.yml").string()});
  EXPECT_EQ(unit.exit_code, 0) << unit.out << unit.err;
  std::string rules = testing::ReadFile(dir / "alerts.yml");
  for (const char* alert :
       {"SpinupStartupStalled", "SpinupCrashLoop", "SpinupStartupTooLong", "SpinupLostRank"}) {
    EXPECT_NE(rules.find("alert: " + std::string(alert)), std::string::npos) << alert;
  }
}

TEST(PrometheusRules, AlertsAndDashboardUseOnlyDocumentedMetrics) {
  std::set<std::string> documented = DocumentedMetrics();
  ASSERT_GE(documented.size(), 15u);
  std::string rules = testing::ReadFile(SourceDir() / "contrib" / "prometheus" / "alerts.yml");
  for (const auto& m : ReferencedMetrics(rules)) EXPECT_TRUE(documented.count(m)) << m;

  std::string text =
      testing::ReadFile(SourceDir() / "contrib" / "grafana" / "spinup-dashboard.json");
  json dash = json::parse(text, nullptr, false);
  ASSERT_FALSE(dash.is_discarded()) << "dashboard is not valid JSON";
  ASSERT_TRUE(dash.contains("panels"));
  std::string exprs;
  std::function<void(const json&)> walk = [&](const json& j) {
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        if ((it.key() == "expr" || it.key() == "query" || it.key() == "definition") &&
            it->is_string()) {
          exprs += it->get<std::string>() + "\n";
        }
        walk(*it);
      }
    } else if (j.is_array()) {
      for (const auto& e : j) walk(e);
    }
  };
  walk(dash);
  std::set<std::string> used = ReferencedMetrics(exprs);
  EXPECT_GE(used.size(), 10u);
  for (const auto& m : used) EXPECT_TRUE(documented.count(m)) << m << " is not in docs/metrics.md";
  for (const char* must : {"spinup_startup_state", "spinup_phase_index",
                           "spinup_checkpoint_read_bytes", "spinup_gpu_memory_used_bytes"}) {
    EXPECT_TRUE(used.count(must)) << must;
  }
}

// Every metric the sink can emit is documented.
TEST(PrometheusRules, EveryEmittedMetricIsDocumented) {
  std::set<std::string> documented = DocumentedMetrics();
  MetricsSink sink({"j", "h", "v"}, [] { return int64_t{1'700'000'100'000}; });
  Sample s;
  s.time_ms = 1'700'000'000'000;
  s.gpu_available = true;
  s.gpus = {{0, "gpu", 1, 2, -1, {}}};
  sink.OnSample(s);
  Verdict v;
  v.state = State::kProgressing;
  v.phase_seconds = 1;
  v.budget_seconds = 2;
  v.stalled_seconds = 0;
  v.ranks = {{"TP0", Phase::kWeightLoad, s.time_ms}};
  v.timeline = {{"TP0", Phase::kWeightLoad, s.time_ms, std::nullopt, std::nullopt, false}};
  v.progress = {1, 2, 3.0, 4.0, "", 0, 0};
  v.findings = {{"x", "x", {}, ""}};
  sink.OnVerdict(v);
  auto families = sink.Collect();
  EXPECT_GE(families.size(), 20u);
  for (const auto& f : families) EXPECT_TRUE(documented.count(f.name)) << f.name;
}

// Polls Prometheus's query API until `query` returns at least one sample (or the deadline).
json QueryUntil(httplib::Client& prom, const std::string& query,
                std::chrono::steady_clock::time_point deadline) {
  while (std::chrono::steady_clock::now() < deadline) {
    auto res = prom.Get("/api/v1/query", httplib::Params{{"query", query}}, httplib::Headers{});
    if (res && res->status == 200) {
      json j = json::parse(res->body, nullptr, false);
      if (!j.is_discarded() && j.value("status", "") == "success" && !j["data"]["result"].empty()) {
        return j["data"]["result"];
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return json::array();
}

struct PrometheusServer {
  TempDir dir;
  int port = FreeLoopbackPort();
  std::unique_ptr<Child> child;
  void Start(int target_port) {
    std::string config =
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
        "scrape_configs:\n  - job_name: spinup\n"
        "    static_configs:\n      - targets: ['127.0.0.1:" +
        std::to_string(target_port) + "']\n";
    testing::WriteFile(dir / "prometheus.yml", config);
    fs::create_directories(dir / "data");
    child = std::make_unique<Child>(
        std::vector<std::string>{
            "/usr/bin/prometheus", "--config.file=" + (dir / "prometheus.yml").string(),
            "--storage.tsdb.path=" + (dir / "data").string(),
            "--web.listen-address=127.0.0.1:" + std::to_string(port), "--log.level=warn"},
        dir / "prometheus.log");
  }
  std::string Log() { return testing::ReadFile(dir / "prometheus.log"); }
};

TEST(PrometheusScrape, RealPrometheusScrapesStateAndReadBytes) {
  if (!Executable("/usr/bin/prometheus")) {
    GTEST_SKIP() << "prometheus not installed (Debian package prometheus; scripts/install-deps)";
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(25);
  // A metrics endpoint fed like a live watch: a loading startup with bytes read.
  int64_t now = 1'700'000'060'000;
  MetricsSink sink({"llama-70b", "node-a", "test"}, [&] { return now; });
  Verdict v;
  v.state = State::kProgressing;
  v.phase = Phase::kWeightLoad;
  v.ranks = {{"TP0", Phase::kWeightLoad, 1'700'000'000'000},
             {"TP1", Phase::kWeightLoad, 1'700'000'000'000}};
  v.progress.bytes_done = 42'000'000'000ull;
  v.progress.bytes_total = 140'000'000'000ull;
  v.progress.bytes_per_second = 2.0e9;
  sink.OnVerdict(v);
  MetricsServer server([&] { return sink.Render(); });
  ASSERT_TRUE(server.Start({"127.0.0.1", 0}).ok());

  PrometheusServer prom;
  ASSERT_GT(prom.port, 0);
  prom.Start(server.port());
  httplib::Client client("127.0.0.1", prom.port);
  client.set_connection_timeout(1);
  client.set_read_timeout(2);

  json state = QueryUntil(client, "spinup_startup_state == 1", deadline);
  ASSERT_EQ(state.size(), 1u) << "no scrape arrived; prometheus log:\n" << prom.Log();
  EXPECT_EQ(state[0]["metric"]["state"], "progressing");
  EXPECT_EQ(state[0]["metric"]["model"], "llama-70b");
  // job and instance are the scrape config's, as Prometheus expects: no honor_labels needed.
  EXPECT_EQ(state[0]["metric"]["job"], "spinup");
  EXPECT_EQ(state[0]["metric"]["instance"], "127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(state[0]["metric"]["host"], "node-a");

  json bytes = QueryUntil(client, "spinup_checkpoint_read_bytes", deadline);
  ASSERT_EQ(bytes.size(), 1u);
  EXPECT_EQ(bytes[0]["value"][1], "42000000000");

  // The state changes; the next scrapes carry it.
  v.state = State::kStalled;
  sink.OnVerdict(v);
  json stalled = QueryUntil(client, "spinup_startup_state{state=\"stalled\"} == 1", deadline);
  EXPECT_EQ(stalled.size(), 1u);
  json up = QueryUntil(client, "up{job=\"spinup\"} == 1 or up == 1", deadline);
  EXPECT_FALSE(up.empty());
  prom.child->Stop();
  EXPECT_FALSE(prom.child->running());
}

// The issue's end-to-end check: the real Prometheus scrapes `spinup watch --metrics` of the
// stand-in server while it loads its checkpoint.
TEST(PrometheusScrape, RealPrometheusScrapesSpinupWatchOfStandInServer) {
  if (!Executable("/usr/bin/prometheus")) {
    GTEST_SKIP() << "prometheus not installed (Debian package prometheus; scripts/install-deps)";
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(28);
  TempDir tmp;
  fs::path server_exe = testing::BinaryDir() / "spinup_test_server";
  fs::path model = tmp / "model";
  auto gen = RunProgram({server_exe.string(), "--generate-model", model.string(), "--model-bytes",
                         "8000000", "--shards", "2"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  fs::path log = tmp / "server.log";
  testing::WriteFile(log, "");  // a missing --log is a usage error for watch
  Child server(
      {server_exe.string(), "--scenario", "slow", "--tp", "2", "--port", "0", "--model",
       model.string(), "--read-bw", "1M", "--log-file", log.string(), "--max-lifetime", "60"},
      tmp / "server.out");
  int metrics_port = FreeLoopbackPort();
  ASSERT_GT(metrics_port, 0);
  Child watch({testing::SpinupExe().string(), "watch", "--pid", std::to_string(server.pid()),
               "--log", log.string(), "--model", model.string(), "--metrics",
               "127.0.0.1:" + std::to_string(metrics_port), "--json", "--timeout", "30s"},
              tmp / "watch.out");
  PrometheusServer prom;
  prom.Start(metrics_port);
  httplib::Client client("127.0.0.1", prom.port);
  client.set_connection_timeout(1);
  client.set_read_timeout(2);

  json state = QueryUntil(client, "spinup_startup_state == 1", deadline);
  ASSERT_EQ(state.size(), 1u) << "no scrape arrived; prometheus log:\n"
                              << prom.Log() << "\nwatch:\n"
                              << testing::ReadFile(tmp / "watch.out");
  EXPECT_EQ(state[0]["metric"]["model"], "model") << "model defaults to the model folder's name";
  EXPECT_EQ(state[0]["metric"]["job"], "spinup");
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  EXPECT_EQ(state[0]["metric"]["host"], host);
  json bytes = QueryUntil(client, "spinup_checkpoint_read_bytes > 0", deadline);
  ASSERT_EQ(bytes.size(), 1u) << "read bytes never arrived; watch:\n"
                              << testing::ReadFile(tmp / "watch.out");
  json total = QueryUntil(client, "spinup_checkpoint_bytes", deadline);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_GE(std::stod(total[0]["value"][1].get<std::string>()), 8000000.0);
  json phases = QueryUntil(client, "spinup_phase == 1", deadline);
  EXPECT_FALSE(phases.empty());
  prom.child->Stop();
  watch.Stop();
  server.Stop();
  EXPECT_FALSE(prom.child->running());
}

}  // namespace
}  // namespace spinup
