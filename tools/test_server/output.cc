#include "test_server/output.h"

#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>

#include <fmt/format.h>

#include "test_server/options.h"

namespace test_server {

int g_log_fd = -1;

namespace {

std::mutex g_log_mu;

std::string Timestamp() {
  time_t now = time(nullptr);
  tm t{};
  localtime_r(&now, &t);
  char buf[32];
  strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &t);
  return buf;
}

std::string RankTag() {
  if (g_opt.rank < 0 || g_opt.tp <= 1) return "";
  return fmt::format(" TP{}", g_opt.rank);
}

}  // namespace

void WriteAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

void Raw(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  std::string s = line + "\n";
  WriteAll(2, s);
  if (g_log_fd >= 0) WriteAll(g_log_fd, s);
}

void Log(const std::string& msg) { Raw(fmt::format("[{}{}] {}", Timestamp(), RankTag(), msg)); }

}  // namespace test_server
