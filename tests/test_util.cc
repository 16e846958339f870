#include "test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace {

// Every spinup the suite runs records its starts into a history database of this test process,
// never the host's (/var/lib/spinup): one state folder per process, removed at exit.
const bool kPrivateStateHome = [] {
  static std::string dir = "/tmp/spinup-test-state-" + std::to_string(::getpid());
  ::setenv("XDG_STATE_HOME", dir.c_str(), 1);
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  });
  return true;
}();

}  // namespace

namespace spinup::testing {

namespace fs = std::filesystem;

fs::path SourceDir() { return SPINUP_SOURCE_DIR; }
fs::path BinaryDir() { return SPINUP_BINARY_DIR; }
fs::path SpinupExe() { return SPINUP_EXE; }

std::optional<fs::path> SharedDir() {
  if (const char* env = std::getenv("SPINUP_SHARED_DIR"); env && *env) {
    if (fs::is_directory(env)) return fs::path(env);
    return std::nullopt;
  }
  fs::path p = SourceDir().parent_path() / "shared";
  if (fs::is_directory(p)) return p;
  return std::nullopt;
}

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  fs::path base = (tmp && *tmp) ? fs::path(tmp) : fs::path("/tmp");
  std::random_device rd;
  for (int i = 0; i < 100; ++i) {
    fs::path candidate =
        base / ("spinup-test-" + std::to_string(getpid()) + "-" + std::to_string(rd() % 1000000));
    std::error_code ec;
    if (fs::create_directory(candidate, ec)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  // Tests may leave read-only files (permission tests); make them removable first.
  for (auto it = fs::recursive_directory_iterator(path_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }
  fs::remove_all(path_, ec);
}

static void DrainInto(int fd, std::string& dst) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) dst.append(buf, static_cast<size_t>(n));
}

ProcessResult RunProgram(const std::vector<std::string>& argv, const std::string& stdin_text,
                         int timeout_s) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
    throw std::runtime_error("pipe failed");
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Write stdin without blocking the read side (small inputs in tests).
  {
    size_t off = 0;
    signal(SIGPIPE, SIG_IGN);
    while (off < stdin_text.size()) {
      ssize_t n = write(in_pipe[1], stdin_text.data() + off, stdin_text.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(in_pipe[1]);
  }
  ProcessResult result;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    pollfd fds[2] = {{out_open ? out_pipe[0] : -1, POLLIN, 0},
                     {err_open ? err_pipe[0] : -1, POLLIN, 0}};
    int rc = poll(fds, 2, 200);
    if (rc > 0) {
      if (fds[0].revents) {
        size_t before = result.out.size();
        DrainInto(out_pipe[0], result.out);
        if (result.out.size() == before) out_open = false;
      }
      if (fds[1].revents) {
        size_t before = result.err.size();
        DrainInto(err_pipe[0], result.err);
        if (result.err.size() == before) err_open = false;
      }
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      break;
    }
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = -WTERMSIG(status);
  }
  return result;
}

ProcessResult RunSpinup(const std::vector<std::string>& args, const std::string& stdin_text,
                        int timeout_s) {
  std::vector<std::string> argv{SpinupExe().string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProgram(argv, stdin_text, timeout_s);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

std::string WriteSyncedFile(const fs::path& path, size_t size) {
  std::string data(size, '\0');
  for (size_t i = 0; i < size; ++i) data[i] = static_cast<char>(i * 131 + 7);
  WriteFile(path, data);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  return path.string();
}

bool EvictionObservable(const fs::path& path) {
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) != 0) return false;
  return fs.f_type != TMPFS_MAGIC && fs.f_type != RAMFS_MAGIC;
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

}  // namespace spinup::testing
