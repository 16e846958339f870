#include "history/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "history/history_test_util.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::MakeStart;

HistoryQuery All() {
  HistoryQuery q;
  q.limit = 1000;
  return q;
}

StartRecord Sample(int64_t id, std::string model = "/models/m") {
  return MakeStart(id, 1'700'000'000'000 + id * 1000,
                   {{Phase::kDistributedInit, 1.5}, {Phase::kWeightLoad, 30}}, "node1",
                   std::move(model));
}

TEST(HistoryStoreTest, RoundTripsARecordWithItsPhases) {
  testing::TempDir dir;
  auto store = HistoryStore::Open(dir / "sub" / "history.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  StartRecord r = Sample(0);
  r.flags.context_length = 32768;
  r.flags.speculative = "speculative-algorithm=EAGLE";
  r.resident_bytes = 123;
  r.exit_status = 0;
  r.read_bytes_per_s = 5e8;
  auto id = (*store)->Add(r);
  ASSERT_TRUE(id.ok()) << id.status().message();
  auto got = (*store)->Get(*id);
  ASSERT_TRUE(got.ok() && *got);
  const StartRecord& g = **got;
  EXPECT_EQ(g.id, *id);
  EXPECT_EQ(g.model, r.model);
  EXPECT_EQ(g.fingerprint, r.fingerprint);
  EXPECT_EQ(g.flags, r.flags);
  EXPECT_EQ(g.resident_bytes, r.resident_bytes);
  EXPECT_EQ(g.state, State::kReady);
  EXPECT_EQ(g.ready_ms, r.ready_ms);
  ASSERT_EQ(g.phases.size(), r.phases.size());
  EXPECT_EQ(PhaseSeconds(g), PhaseSeconds(r));
  EXPECT_FALSE(*(*store)->Get(*id + 100));
}

TEST(HistoryStoreTest, KeepsOnlyTheNewestStartsPerModel) {
  testing::TempDir dir;
  HistoryStoreOptions o;
  o.keep_per_model = 3;
  auto model = [](std::string m) {
    HistoryQuery q;
    q.model = std::move(m);
    return q;
  };
  auto store = HistoryStore::Open(dir / "history.db", o);
  ASSERT_TRUE(store.ok());
  for (int i = 1; i <= 5; ++i) ASSERT_TRUE((*store)->Add(Sample(i)).ok());
  ASSERT_TRUE((*store)->Add(Sample(6, "/models/other")).ok());
  auto m = (*store)->Recent(model("/models/m"));
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ((*m)[0].started_ms, Sample(5).started_ms);  // newest first
  EXPECT_EQ((*m)[2].started_ms, Sample(3).started_ms);
  // The model's folder name alone matches too; the other model kept its start.
  EXPECT_EQ((*store)->Recent(model("m"))->size(), 3u);
  EXPECT_EQ((*store)->Recent(model("other"))->size(), 1u);
  EXPECT_EQ((*store)->Recent(HistoryQuery{})->size(), 4u);
}

TEST(HistoryStoreTest, SeveralThreadsWriteAtOnce) {
  testing::TempDir dir;
  const auto path = dir / "history.db";
  constexpr int kThreads = 4, kEach = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto store = HistoryStore::Open(path);  // one connection per thread
      if (!store.ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < kEach; ++i) {
        if (!(*store)->Add(Sample(t * 1000 + i)).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto all = (*HistoryStore::Open(path))->Recent(All());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), static_cast<size_t>(kThreads * kEach));
}

TEST(HistoryStoreTest, TwoProcessesWriteAtOnce) {
  testing::TempDir dir;
  const auto path = dir / "history.db";
  constexpr int kEach = 40;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  auto write_all = [&](int base) {
    auto store = HistoryStore::Open(path);
    int bad = store.ok() ? 0 : kEach;
    for (int i = 0; store.ok() && i < kEach; ++i) bad += !(*store)->Add(Sample(base + i)).ok();
    return bad;
  };
  if (child == 0) ::_exit(write_all(10'000) == 0 ? 0 : 1);
  EXPECT_EQ(write_all(0), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto all = (*HistoryStore::Open(path))->Recent(All());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), static_cast<size_t>(2 * kEach));
}

TEST(HistoryStoreTest, ACorruptFileIsAnErrorNamingIt) {
  testing::TempDir dir;
  const auto path = dir / "history.db";
  testing::WriteFile(path, std::string(8192, 'x'));
  auto store = HistoryStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find(path.string()), std::string::npos);
  EXPECT_NE(store.status().message().find("not a database"), std::string::npos)
      << store.status().message();
  EXPECT_EQ(testing::ReadFile(path), std::string(8192, 'x'));  // left as it was
}

TEST(HistoryStoreTest, AReadOnlyFolderIsAnError) {
  testing::TempDir dir;
  // root ignores permission bits: a folder of a read-only file system stands in for it.
  const bool root = ::geteuid() == 0;
  const auto ro = root ? std::filesystem::path("/proc/self") : dir / "ro";
  if (!root) {
    std::filesystem::create_directory(ro);
    ::chmod(ro.c_str(), 0555);
  }
  auto store = HistoryStore::Open(ro / "history.db");
  if (!root) ::chmod(ro.c_str(), 0755);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("history.db"), std::string::npos)
      << store.status().message();
}

TEST(HistoryStoreTest, ReadOnlyOpenNeverCreatesTheFile) {
  testing::TempDir dir;
  HistoryStoreOptions o;
  o.read_only = true;
  auto store = HistoryStore::Open(dir / "none.db", o);
  EXPECT_FALSE(store.ok());
  EXPECT_FALSE(std::filesystem::exists(dir / "none.db"));
}

TEST(HistoryStoreTest, AWriterHoldingTheLockPastTheTimeoutIsAnError) {
  testing::TempDir dir;
  const auto path = dir / "history.db";
  ASSERT_TRUE(HistoryStore::Open(path).ok());
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  HistoryStoreOptions o;
  o.busy_timeout_ms = 50;
  auto store = HistoryStore::Open(path, o);
  ASSERT_TRUE(store.ok());  // reading the schema needs no write lock
  auto id = (*store)->Add(Sample(1));
  EXPECT_FALSE(id.ok());
  EXPECT_NE(id.status().message().find("locked"), std::string::npos) << id.status().message();
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  EXPECT_TRUE((*store)->Add(Sample(1)).ok());  // and works once the lock is gone
}

}  // namespace
}  // namespace spinup
