#include "base/threads.h"

#include <atomic>
#include <cerrno>
#include <system_error>

namespace spinup {
namespace {

std::atomic<int> g_test_allowed{-1};

std::thread Spawn(const std::function<void(int)>& fn, int index) {
  int allowed = g_test_allowed.load();
  while (allowed >= 0) {
    if (allowed == 0) throw std::system_error(EAGAIN, std::generic_category(), "test limit");
    if (g_test_allowed.compare_exchange_weak(allowed, allowed - 1)) break;
  }
  return std::thread(fn, index);
}

}  // namespace

std::vector<std::thread> StartThreads(int n, const std::function<void(int)>& fn, int first_index) {
  std::vector<std::thread> pool;
  if (n <= 0) return pool;
  pool.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    try {
      pool.push_back(Spawn(fn, first_index + i));
    } catch (const std::system_error&) {
      break;  // EAGAIN: the pids limit or RLIMIT_NPROC; run with what we have
    }
  }
  return pool;
}

int RunOnThreads(int n, const std::function<void(int)>& worker) {
  std::vector<std::thread> pool = StartThreads(n - 1, worker, 1);
  worker(0);
  for (auto& t : pool) t.join();
  return 1 + static_cast<int>(pool.size());
}

void SetThreadLimitForTesting(int allowed) { g_test_allowed.store(allowed); }

}  // namespace spinup
