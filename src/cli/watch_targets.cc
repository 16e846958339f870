#include "cli/watch_targets.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string_view>

#include "proc/proc_parse.h"
#include "proc/sampler.h"

namespace spinup {
namespace {

Status CheckPid(const std::string& proc_root, int pid, uint64_t* start_ticks) {
  const std::string what = "--pid " + std::to_string(pid);
  if (pid <= 0) return Status::InvalidArgument(what + ": not a process id");
  int fd = ::open((proc_root + "/" + std::to_string(pid) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::NotFound(what + ": no such process");
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof(buf));
  ::close(fd);
  auto stat = n > 0 ? proc::ParseStat(std::string_view(buf, static_cast<size_t>(n))) : std::nullopt;
  if (!stat) return Status::NotFound(what + ": no such process");
  if (stat->state == 'Z' || stat->state == 'X') {
    return Status::NotFound(what + ": has already exited");
  }
  *start_ticks = stat->starttime_ticks;
  return Status::Ok();
}

Status CheckLog(const std::string& path) {
  const std::string what = "--log " + path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, what);
  if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(what + ": is a folder");
  // A FIFO is not opened here: opening and closing it would hand a waiting writer a reader that
  // goes away at once (SIGPIPE). Its permission is enough.
  if (S_ISFIFO(st.st_mode)) {
    return ::access(path.c_str(), R_OK) == 0 ? Status::Ok() : Status::FromErrno(errno, what);
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Status::FromErrno(errno, what);
  ::close(fd);
  return Status::Ok();
}

Status CheckUnit(const std::string& unit, const WatchRoots& roots) {
  auto pids = proc::FindCgroupPids(roots.sys_root, unit);
  if (pids.ok()) return Status::Ok();
  if (pids.status().kind() == ErrorKind::kInvalidArgument) return pids.status();
  std::string name = unit.find('.') == std::string::npos ? unit + ".service" : unit;
  // foo@bar.service comes from the template foo@.service.
  std::string templ;
  if (auto at = name.find('@'); at != std::string::npos) {
    templ = name.substr(0, at + 1) + name.substr(name.rfind('.'));
  }
  std::error_code ec;
  for (const auto& dir : roots.unit_dirs) {
    if (std::filesystem::exists(std::filesystem::path(dir) / name, ec)) return Status::Ok();
    if (!templ.empty() && std::filesystem::exists(std::filesystem::path(dir) / templ, ec)) {
      return Status::Ok();
    }
  }
  return Status::NotFound("--unit " + unit + ": no such unit (no unit file, no cgroup)");
}

}  // namespace

Status CheckWatchTargets(const WatchTargets& t, const WatchRoots& roots,
                         std::vector<uint64_t>* start_ticks) {
  start_ticks->assign(t.pids.size(), 0);
  for (size_t i = 0; i < t.pids.size(); ++i) {
    Status st = CheckPid(roots.proc_root, t.pids[i], &(*start_ticks)[i]);
    if (!st.ok()) return st;
  }
  for (const auto& log : t.logs) {
    if (log == "-") continue;  // standard input: nothing to check before reading it
    Status st = CheckLog(log);
    if (!st.ok()) return st;
  }
  if (t.live_unit && !t.unit.empty()) return CheckUnit(t.unit, roots);
  return Status::Ok();
}

}  // namespace spinup
