#include "base/threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

namespace spinup {
namespace {

struct LimitGuard {
  explicit LimitGuard(int allowed) { SetThreadLimitForTesting(allowed); }
  ~LimitGuard() { SetThreadLimitForTesting(-1); }
};

TEST(Threads, RunsEveryWorkerWhenThreadsAreThere) {
  std::mutex mu;
  std::set<int> seen;
  int ran = RunOnThreads(4, [&](int i) {
    std::lock_guard lock(mu);
    seen.insert(i);
  });
  EXPECT_EQ(ran, 4);
  EXPECT_EQ(seen, (std::set<int>{0, 1, 2, 3}));
}

// Issue 11 item 7: a pids limit made std::thread throw and spinup abort.
TEST(Threads, RefusedThreadsMeanFewerWorkersNotAnAbort) {
  LimitGuard limit(1);
  std::atomic<int> next{0}, done{0};
  int ran = RunOnThreads(8, [&](int) {
    while (next.fetch_add(1) < 100) done.fetch_add(1);
  });
  EXPECT_EQ(ran, 2);  // the caller and the one thread allowed
  EXPECT_EQ(done.load(), 100);
}

TEST(Threads, NoThreadAtAllStillRunsOnTheCaller) {
  LimitGuard limit(0);
  EXPECT_TRUE(StartThreads(3, [](int) {}).empty());
  int calls = 0;
  EXPECT_EQ(RunOnThreads(3, [&](int) { ++calls; }), 1);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace spinup
