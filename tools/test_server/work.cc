#include "test_server/work.h"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>

#include "test_server/options.h"

namespace test_server {

namespace {

std::mutex g_idle_mu;
std::condition_variable g_idle_cv;
bool g_never = false;

void IdleThread() {
  std::unique_lock<std::mutex> lock(g_idle_mu);
  g_idle_cv.wait(lock, [] { return g_never; });
}

}  // namespace

void Sleep(double seconds) {
  if (seconds <= 0) return;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds * g_opt.time_scale));
}

double J(int phase) {
  if (g_opt.jitter <= 0) return 1.0;
  std::mt19937_64 rng(g_opt.seed * 1000003u + static_cast<uint64_t>(phase));
  std::normal_distribution<double> d(1.0, g_opt.jitter);
  return std::clamp(d(rng), 0.3, 3.0);
}

void Spin(double seconds) {
  auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds * g_opt.time_scale);
  volatile uint64_t x = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 10000; ++i) x = x + static_cast<uint64_t>(i);
  }
}

void StartIdleThreads(int n) {
  for (int i = 0; i < n; ++i) std::thread(IdleThread).detach();
}

void OpenExtraFds(int n) {
  for (int i = 0; i < n; ++i) ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

void BlockForever() {
  std::unique_lock<std::mutex> lock(g_idle_mu);
  for (;;) g_idle_cv.wait(lock);
}

int ThreadsPerProcess() {
  int procs = g_opt.tp + 1;
  if (g_opt.threads <= 0) return 4;
  return std::max(1, g_opt.threads / procs);
}

}  // namespace test_server
