// `spinup run --history`, `explain --record` and `spinup history` end to end, with the stand-in
// test server (docs/test-server.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/history_flags.h"
#include "test_util.h"

namespace spinup {
namespace {

std::string Server() { return (testing::BinaryDir() / "spinup_test_server").string(); }

testing::ProcessResult RunOnce(const std::filesystem::path& db,
                               const std::filesystem::path& model) {
  return testing::RunSpinup(
      {"run", "--no-gpu", "--until", "ready", "--interval", "0.2s", "--timeout", "60s", "--history",
       db.string(), "--", Server(), "--tp", "2", "--port", "0", "--model", model.string()},
      "", 90);
}

TEST(HistoryCliTest, RunRecordsEachStartAndHistoryListsThem) {
  testing::TempDir dir;
  auto gen = testing::RunProgram({Server(), "--generate-model", (dir / "m").string(),
                                  "--model-bytes", "4000000", "--shards", "2"});
  ASSERT_EQ(gen.exit_code, 0);
  for (int i = 0; i < 2; ++i) {
    auto r = RunOnce(dir / "db" / "history.db", dir / "m");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("spinup: history:"), std::string::npos) << r.err;
  }
  auto list = testing::RunSpinup(
      {"history", "--history", (dir / "db" / "history.db").string(), "--json", "--model", "m"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto j = nlohmann::json::parse(list.out);
  ASSERT_EQ(j["starts"].size(), 2u);
  const auto& s = j["starts"][0];
  EXPECT_EQ(s["state"], "ready");
  EXPECT_EQ(s["engine"], "sglang");
  EXPECT_EQ(s["exit_status"], 0);
  EXPECT_EQ(s["flags"]["tp"], 2);
  EXPECT_EQ(s["checkpoint"]["shards"], 2);
  EXPECT_EQ(s["model"], std::filesystem::absolute(dir / "m").lexically_normal().string());
  EXPECT_TRUE(s["seconds_to_ready"].is_number());
  EXPECT_TRUE(s["phase_seconds"].contains("weight_load")) << s.dump();
  EXPECT_FALSE(j["learned_budgets"]["phases"].size());  // two starts teach nothing yet

  auto show = testing::RunSpinup({"history", "show", std::to_string(s["id"].get<int>()),
                                  "--history", (dir / "db" / "history.db").string(), "--html",
                                  (dir / "s.html").string()});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("flags       tp=2"), std::string::npos) << show.out;
  EXPECT_NE(testing::ReadFile(dir / "s.html").find("<svg"), std::string::npos);
}

TEST(HistoryCliTest, ACorruptDatabaseIsOneWarningAndTheStartGoesOn) {
  testing::TempDir dir;
  testing::WriteFile(dir / "history.db", std::string(4096, 'x'));
  auto r = RunOnce(dir / "history.db", dir / "none");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  size_t at = r.err.find("spinup: history: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("spinup: history: ", at + 1), std::string::npos) << r.err;
}

TEST(HistoryCliTest, NoHistoryRecordsNothing) {
  testing::TempDir dir;
  auto r = testing::RunSpinup(
      {"run", "--no-gpu", "--no-history", "--history", (dir / "h.db").string(), "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "h.db"));
}

TEST(HistoryCliTest, ExplainRecordImportsAPastedLog) {
  testing::TempDir dir;
  testing::WriteFile(
      dir / "start.log",
      "[2026-03-09 12:00:00] server_args=ServerArgs(model_path='/models/llama', tp_size=2, "
      "context_length=8192)\n"
      "[2026-03-09 12:00:05 TP0] Init torch distributed begin.\n"
      "[2026-03-09 12:00:07 TP0] Init torch distributed ends. elapsed=2.00 s, mem usage=0.3 GB\n"
      "[2026-03-09 12:00:07 TP0] Load weight begin. avail mem=78.68 GB\n"
      "[2026-03-09 12:01:07 TP0] Load weight end. elapsed=60.00 s, type=LlamaForCausalLM\n"
      "[2026-03-09 12:01:10] The server is fired up and ready to roll!\n");
  const std::string db = (dir / "h.db").string();
  auto r =
      testing::RunSpinup({"explain", (dir / "start.log").string(), "--record", "--history", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("spinup: recorded as start 1"), std::string::npos) << r.err;
  auto list = testing::RunSpinup({"history", "--history", db, "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto s = nlohmann::json::parse(list.out)["starts"][0];
  EXPECT_EQ(s["imported"], true);
  EXPECT_EQ(s["source"], "import");
  EXPECT_EQ(s["model"], "/models/llama");
  EXPECT_EQ(s["flags"]["tp"], 2);
  EXPECT_EQ(s["flags"]["context_length"], 8192);
  EXPECT_DOUBLE_EQ(s["phase_seconds"]["weight_load"].get<double>(), 60);
  auto text = testing::RunSpinup({"history", "--history", db});
  EXPECT_NE(text.out.find("ready*"), std::string::npos) << text.out;
}

TEST(HistoryCliTest, HistoryWithoutADatabaseOrStartIsAUsageError) {
  testing::TempDir dir;
  auto r = testing::RunSpinup({"history", "--history", (dir / "none.db").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no history recorded yet"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "none.db"));
}

TEST(HistoryFlagsTest, DefaultPathByUserAndEnvironment) {
  EXPECT_EQ(DefaultHistoryPath(0, nullptr, "/root"), "/var/lib/spinup/history.db");
  EXPECT_EQ(DefaultHistoryPath(0, "/x", "/root"), "/x/spinup/history.db");
  EXPECT_EQ(DefaultHistoryPath(1000, "/home/u/.state", "/home/u"),
            "/home/u/.state/spinup/history.db");
  EXPECT_EQ(DefaultHistoryPath(1000, nullptr, "/home/u"), "/home/u/.local/state/spinup/history.db");
  EXPECT_EQ(DefaultHistoryPath(1000, "relative", nullptr), "/var/lib/spinup/history.db");
  EXPECT_EQ(ModelFromArgv({"vllm", "serve", "/m", "--tp", "2"}), "/m");
  EXPECT_EQ(ModelFromArgv({"python", "-m", "sglang.launch_server", "--model-path=/x"}), "/x");
}

}  // namespace
}  // namespace spinup
