// `spinup watch --journal-file` end to end on real journal files: the test writes systemd's
// journal export format (what journald would have stored for an SGLang unit and for PID 1 about
// it), converts it with systemd-journal-remote into a .journal file, and runs the real binary.
// No journald is needed. Skips when systemd-journal-remote is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kJournalRemoteCandidates[] = {"/lib/systemd/systemd-journal-remote",
                                                "/usr/lib/systemd/systemd-journal-remote"};

std::string JournalRemote() {
  for (const char* p : kJournalRemoteCandidates) {
    if (::access(p, X_OK) == 0) return p;
  }
  return "";
}

constexpr const char* kBoot = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

// Builds an export-format stream: one entry per call, times advancing by `step_ms`.
class ExportWriter {
 public:
  explicit ExportWriter(int64_t start_ms) : now_ms_(start_ms) {}

  // A line the unit's server printed (journald's stdout stream of the unit).
  void Server(const std::string& message, int pid = 4242) {
    Entry({"_SYSTEMD_UNIT=sglang.service", "_PID=" + std::to_string(pid), "_COMM=python3",
           "SYSLOG_IDENTIFIER=python3", "_TRANSPORT=stdout", "PRIORITY=6"},
          message);
  }
  // A line with SGLang's own "[YYYY-MM-DD HH:MM:SS TPn]" prefix in local time.
  void Sglang(const std::string& rank, const std::string& text) {
    std::time_t t = static_cast<std::time_t>(now_ms_ / 1000);
    std::tm local{};
    ::localtime_r(&t, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &local);
    Server(std::string("[") + stamp + (rank.empty() ? "" : " " + rank) + "] " + text);
  }
  // What PID 1 logs about the unit.
  void Manager(const std::vector<std::string>& fields, const std::string& message) {
    // The given fields first: a repeated key keeps its first value (Noise's UNIT=).
    std::vector<std::string> f = fields;
    for (const char* base :
         {"_PID=1", "_SYSTEMD_UNIT=init.scope", "_COMM=systemd", "SYSLOG_IDENTIFIER=systemd",
          "_TRANSPORT=journal", "UNIT=sglang.service"}) {
      f.push_back(base);
    }
    Entry(f, message);
  }
  void Starting() {
    Manager({"MESSAGE_ID=7d4958e842da4a758f6c1cdc7b36dcc5", "JOB_TYPE=start"},
            "Starting sglang.service - SGLang server...");
  }
  void MainExited(int status) {
    Manager({"MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15", "EXIT_CODE=exited",
             "EXIT_STATUS=" + std::to_string(status), "COMMAND=start"},
            "sglang.service: Main process exited, code=exited, status=" + std::to_string(status) +
                "/FAILURE");
    Manager({"MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c", "UNIT_RESULT=exit-code"},
            "sglang.service: Failed with result 'exit-code'.");
  }
  void RestartScheduled(int n) {
    Manager(
        {"MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=" + std::to_string(n)},
        "sglang.service: Scheduled restart job, restart counter is at " + std::to_string(n) + ".");
  }
  // Another unit, which a --unit filter must not mix in.
  void Noise() {
    Entry({"_SYSTEMD_UNIT=cron.service", "_PID=777", "_TRANSPORT=syslog"},
          "(root) CMD (Traceback (most recent call last) in a cron job)");
    Manager({"MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=9", "UNIT=cron.service"},
            "cron.service: Scheduled restart job, restart counter is at 9.");
  }
  void Advance(int64_t ms) { now_ms_ += ms; }
  const std::string& text() const { return text_; }

 private:
  void Entry(std::vector<std::string> fields, const std::string& message) {
    now_ms_ += 50;
    ++seq_;
    text_ += "__REALTIME_TIMESTAMP=" + std::to_string(now_ms_ * 1000) + "\n";
    text_ += "__MONOTONIC_TIMESTAMP=" + std::to_string(seq_ * 50000) + "\n";
    text_ += std::string("_BOOT_ID=") + kBoot + "\n";
    std::vector<std::string> seen;  // one value per key, as in a real entry
    for (const auto& f : fields) {
      std::string key = f.substr(0, f.find('='));
      bool dup = false;
      for (const auto& s : seen) dup = dup || s == key;
      if (dup) continue;
      seen.push_back(key);
      text_ += f + "\n";
    }
    text_ += "MESSAGE=" + message + "\n\n";
  }
  int64_t now_ms_;
  int64_t seq_ = 0;
  std::string text_;
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void HealthyStart(ExportWriter& w) {
  w.Sglang("",
           "server_args=ServerArgs(model_path='/models/Qwen2.5-7B-Instruct', tp_size=2, "
           "port=30000, mem_fraction_static=0.88)");
  for (const char* tp : {"TP0", "TP1"}) w.Sglang(tp, "Init torch distributed begin.");
  w.Sglang("TP0", "sglang is using nccl==2.21.5");
  for (const char* tp : {"TP0", "TP1"}) {
    w.Sglang(tp, "Init torch distributed ends. mem usage=0.11 GB");
  }
  for (const char* tp : {"TP0", "TP1"}) w.Sglang(tp, "Load weight begin. avail mem=78.21 GB");
  w.Advance(2000);
  w.Server("Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:02<00:02,  1.02s/it]");
}

void ReachesReady(ExportWriter& w) {
  HealthyStart(w);
  w.Advance(2000);
  w.Server("Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:04<00:00,  1.01s/it]");
  for (const char* tp : {"TP0", "TP1"}) {
    w.Sglang(tp,
             "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=70.93 GB, "
             "mem usage=7.28 GB.");
  }
  for (const char* tp : {"TP0", "TP1"}) {
    w.Sglang(tp, "KV Cache is allocated. #tokens: 811904, K size: 21.68 GB, V size: 21.68 GB");
    w.Sglang(tp, "Memory pool end. avail mem=26.02 GB");
  }
  for (const char* tp : {"TP0", "TP1"}) {
    w.Sglang(tp,
             "Capture cuda graph begin. This can take up to several minutes. avail "
             "mem=25.80 GB");
  }
  w.Advance(3000);
  for (const char* tp : {"TP0", "TP1"}) {
    w.Sglang(tp,
             "Capture cuda graph end. Time elapsed: 3.12 s. mem usage=0.71 GB. avail "
             "mem=25.09 GB.");
  }
  w.Sglang("TP0",
           "max_total_num_tokens=811904, chunked_prefill_size=8192, max_prefill_tokens=16384, "
           "max_running_requests=2048, context_len=32768, available_gpu_mem=25.09 GB");
  w.Sglang("", "INFO:     Started server process [4242]");
  w.Sglang("", "INFO:     Waiting for application startup.");
  w.Sglang("", "INFO:     Application startup complete.");
  w.Sglang("", "INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)");
  w.Sglang("", "INFO:     127.0.0.1:51234 - \"GET /get_model_info HTTP/1.1\" 200 OK");
  w.Sglang("", "The server is fired up and ready to roll!");
}

void CrashesInWeightLoad(ExportWriter& w) {
  HealthyStart(w);
  w.Server("Traceback (most recent call last):");
  w.Server(
      "  File \"/opt/sglang/python/sglang/srt/model_executor/model_runner.py\", line 512, in "
      "load_model");
  w.Server("    self.model = get_model(model_config=self.model_config, load_config=load_config)");
  w.Server(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 1 has a "
      "total capacity of 79.19 GiB of which 612.00 MiB is free.");
  w.MainExited(1);
}

// A server that dies at import, before any launch banner: only a traceback.
void DiesAtImport(ExportWriter& w) {
  w.Server("Traceback (most recent call last):");
  w.Server("  File \"<frozen runpy>\", line 198, in _run_module_as_main");
  w.Server(
      "  File \"/opt/sglang/lib/python3.11/site-packages/sglang/launch_server.py\", line 6, "
      "in <module>");
  w.Server("    from sglang.srt.entrypoints.http_server import launch_server");
  w.Server(
      "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
      "directory");
}

class JournalE2ETest : public ::testing::Test {
 protected:
  void SetUp() override {
    tool_ = JournalRemote();
    if (tool_.empty()) {
      GTEST_SKIP() << "systemd-journal-remote is not installed (scripts/install-deps installs "
                      "it): no way to write a journal file without journald";
    }
  }

  // Converts the export stream into DIR/name.journal with systemd-journal-remote.
  fs::path MakeJournal(const ExportWriter& w, const std::string& name) {
    fs::path out = dir_ / (name + ".journal");
    auto r = testing::RunProgram({tool_, "--output=" + out.string(), "-"}, w.text(), 30);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(out)) << r.err;
    return out;
  }

  static std::vector<json> Events(const std::string& text) {
    std::vector<json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      auto j = json::parse(line, nullptr, false);
      if (!j.is_discarded() && j.is_object() && j.contains("type")) out.push_back(std::move(j));
    }
    return out;
  }
  static json Final(const std::vector<json>& events) {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if ((*it)["type"] == "verdict" && it->value("final", false)) return *it;
    }
    return json();
  }
  static bool Mentions(const json& list, const std::string& needle) {
    if (!list.is_array()) return false;
    for (const auto& s : list) {
      if (s.is_string() && s.get<std::string>().find(needle) != std::string::npos) return true;
    }
    return false;
  }

  testing::ProcessResult Watch(const fs::path& journal, std::vector<std::string> extra) {
    std::vector<std::string> args = {"watch",  "--journal-file", journal.string(),
                                     "--json", "--no-gpu",       "--interval",
                                     "0.2s",   "--timeout",      "20s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunSpinup(args, "", 40);
  }

  std::string tool_;
  testing::TempDir tmp_;
  fs::path dir_ = tmp_.path();
};

TEST_F(JournalE2ETest, JournalRemoteWritesAFileSpinupCanRead) {
  ExportWriter w(NowMs() - 60000);
  w.Server("hello from the unit");
  fs::path j = MakeJournal(w, "hello");
  auto r = Watch(j, {"--once"});
  // One line, no phase: the file was opened and read (exit 5: nothing decided), not refused.
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(JournalE2ETest, StartupThatReachesReadyIsReady) {
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  w.Noise();
  ReachesReady(w);
  fs::path j = MakeJournal(w, "ready");
  const auto before = fs::last_write_time(j);
  const auto size = fs::file_size(j);
  for (const char* unit : {"sglang", "sglang.service"}) {
    auto r = Watch(j, {"--unit", unit});
    EXPECT_EQ(r.exit_code, 0) << unit << r.out << r.err;
    json v = Final(Events(r.out));
    ASSERT_TRUE(v.is_object()) << r.out;
    EXPECT_EQ(v["state"], "ready") << v.dump(2);
    EXPECT_EQ(v["phase"], "ready");
    EXPECT_EQ(v["attempts"], 1);
  }
  // Without a unit filter every entry is a line (the cron noise too): still ready.
  auto r = Watch(j, {});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Final(Events(r.out))["state"], "ready");
  // Read-only: the journal file is untouched.
  EXPECT_EQ(fs::last_write_time(j), before);
  EXPECT_EQ(fs::file_size(j), size);
}

TEST_F(JournalE2ETest, StartupThatCrashedIsCrashedInItsPhase) {
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  CrashesInWeightLoad(w);
  fs::path j = MakeJournal(w, "crashed");
  auto r = Watch(j, {"--unit", "sglang"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json v = Final(Events(r.out));
  ASSERT_TRUE(v.is_object()) << r.out;
  EXPECT_EQ(v["state"], "crashed") << v.dump(2);
  EXPECT_EQ(v["phase"], "weight_load") << v.dump(2);
  EXPECT_TRUE(Mentions(v["errors"], "CUDA out of memory")) << v.dump(2);
  EXPECT_TRUE(Mentions(v["errors"], "Main process exited, code=exited, status=1")) << v.dump(2);
  // --once gives the same judgement in one sample.
  auto once = Watch(j, {"--unit", "sglang", "--once"});
  EXPECT_EQ(once.exit_code, 1) << once.out << once.err;
  EXPECT_EQ(Final(Events(once.out))["state"], "crashed");
}

TEST_F(JournalE2ETest, CrashLoopAcrossRestartsOfTheUnit) {
  // A full start that crashes, then restarts that die at import: the restarts are split and
  // counted from PID 1's entries, although no restart printed a launch banner.
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  CrashesInWeightLoad(w);
  for (int n = 1; n <= 3; ++n) {
    w.Advance(5000);  // RestartSec=5
    w.RestartScheduled(n);
    w.Starting();
    DiesAtImport(w);
    w.MainExited(1);
  }
  w.Noise();
  fs::path j = MakeJournal(w, "loop");
  auto r = Watch(j, {"--unit", "sglang"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json v = Final(Events(r.out));
  ASSERT_TRUE(v.is_object()) << r.out;
  EXPECT_EQ(v["state"], "crash_loop") << v.dump(2);
  EXPECT_EQ(v["attempts"], 4) << v.dump(2);
  EXPECT_TRUE(Mentions(v["evidence"], "restarted 3 times by its supervisor")) << v.dump(2);
  EXPECT_TRUE(Mentions(v["evidence"], "4 start attempts in the log, 4 crashed")) << v.dump(2);
  EXPECT_TRUE(Mentions(v["errors"], "ImportError: libcudart.so.12")) << v.dump(2);
  bool restart_loop = false;
  for (const auto& f : v["findings"]) restart_loop = restart_loop || f["id"] == "restart_loop";
  EXPECT_TRUE(restart_loop) << v.dump(2);
}

TEST_F(JournalE2ETest, RestartsWithOnlyATracebackEachAreACrashLoop) {
  // The case: the unit restarts 3 times, and each run prints only a traceback.
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  DiesAtImport(w);
  w.MainExited(1);
  for (int n = 1; n <= 3; ++n) {
    w.Advance(2000);
    w.RestartScheduled(n);
    w.Starting();
    DiesAtImport(w);
    w.MainExited(1);
  }
  fs::path j = MakeJournal(w, "tracebacks");
  auto r = Watch(j, {"--unit", "sglang.service", "--once"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json v = Final(Events(r.out));
  EXPECT_EQ(v["state"], "crash_loop") << v.dump(2);
  EXPECT_EQ(v["attempts"], 4) << v.dump(2);
  EXPECT_TRUE(Mentions(v["evidence"], "restarted 3 times by its supervisor")) << v.dump(2);

  // Judged right after the third restart was scheduled, before the new run printed anything:
  // still the loop, not an unknown start, and the next start is scheduled, not yet begun.
  ExportWriter w2(NowMs() - 60000);
  for (int n = 0; n <= 3; ++n) {
    if (n > 0) w2.RestartScheduled(n);
    if (n < 3) {
      DiesAtImport(w2);
      w2.MainExited(1);
    }
  }
  fs::path j2 = MakeJournal(w2, "between");
  auto r2 = Watch(j2, {"--unit", "sglang"});
  EXPECT_EQ(r2.exit_code, 1) << r2.out << r2.err;
  json v2 = Final(Events(r2.out));
  EXPECT_EQ(v2["state"], "crash_loop") << v2.dump(2);
  EXPECT_NE(v2["headline"].get<std::string>().find("attempt 4 is scheduled"), std::string::npos)
      << v2.dump(2);
  EXPECT_TRUE(Mentions(v2["errors"], "ImportError")) << v2.dump(2);
}

TEST_F(JournalE2ETest, OneRestartThenReadyIsReady) {
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  DiesAtImport(w);
  w.MainExited(1);
  w.Advance(5000);
  w.RestartScheduled(1);
  w.Starting();
  ReachesReady(w);
  fs::path j = MakeJournal(w, "recovered");
  auto r = Watch(j, {"--unit", "sglang"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json v = Final(Events(r.out));
  EXPECT_EQ(v["state"], "ready") << v.dump(2);
  EXPECT_EQ(v["attempts"], 2) << v.dump(2);
  EXPECT_TRUE(Mentions(v["evidence"], "restarted 1 time by its supervisor")) << v.dump(2);
}

TEST_F(JournalE2ETest, MalformedExportFieldsDoNotBreakTheWatch) {
  ExportWriter w(NowMs() - 60000);
  w.Starting();
  w.Manager({"MESSAGE_ID=5eb03494b6584870a536b337290809b3", "N_RESTARTS=not-a-number"},
            "sglang.service: Scheduled restart job, restart counter is at ?.");
  w.Server(std::string(200000, 'x'));  // a huge line
  ReachesReady(w);
  fs::path j = MakeJournal(w, "odd");
  auto r = Watch(j, {"--unit", "sglang"});
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  json v = Final(Events(r.out));
  EXPECT_EQ(v["state"], "ready") << v.dump(2);
  // The counter was unreadable, but it was still a restart.
  EXPECT_TRUE(Mentions(v["evidence"], "restarted 1 time by its supervisor")) << v.dump(2);
}

}  // namespace
}  // namespace spinup
