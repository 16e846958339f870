#include "live/log_sources.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "live/child_process.h"
#include "live/journal_entry.h"
#include "live/libsystemd.h"

namespace spinup {

namespace {

void WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;  // a closed terminal must not stop the watch
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
}

}  // namespace

// ---- FileFollower -------------------------------------------------------------------------

FileFollower::FileFollower(std::string path, size_t max_read)
    : path_(std::move(path)), max_read_(max_read) {}

FileFollower::~FileFollower() {
  if (fd_ >= 0) ::close(fd_);
}

std::string FileFollower::ReadAvailable() {
  std::string out;
  char buf[64 << 10];
  while (out.size() < max_read_) {
    size_t want = std::min(sizeof(buf), max_read_ - out.size());
    // A FIFO has no offsets: read what is there (O_NONBLOCK: EAGAIN when empty, 0 when no
    // writer is attached right now).
    ssize_t n =
        fifo_ ? ::read(fd_, buf, want) : ::pread(fd_, buf, want, static_cast<off_t>(offset_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    offset_ += static_cast<uint64_t>(n);
  }
  return out;
}

std::string FileFollower::Read() {
  std::string out;
  if (fd_ < 0) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd_ < 0) return out;  // not there (yet): keep waiting
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
      ::close(fd_);
      fd_ = -1;
      return out;
    }
    // A FIFO stays open for the whole watch, as `tail -F` keeps it: closing it between reads
    // would leave its writer without a reader (SIGPIPE) and lose what it wrote meanwhile.
    fifo_ = S_ISFIFO(st.st_mode);
    inode_ = st.st_ino;
    device_ = st.st_dev;
    offset_ = 0;
  }
  if (fifo_) {
    out = ReadAvailable();
    struct stat path_st {};
    if (::stat(path_.c_str(), &path_st) == 0 &&
        (static_cast<uint64_t>(path_st.st_ino) != inode_ ||
         static_cast<uint64_t>(path_st.st_dev) != device_)) {
      ::close(fd_);  // the path names something else now: follow it
      fd_ = -1;
      ++reopens_;
    }
    return out;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && static_cast<uint64_t>(st.st_size) < offset_) {
    offset_ = 0;  // truncated in place (copytruncate): read it again from the start
    ++reopens_;
  }
  out = ReadAvailable();
  last_write_ms_.reset();
  if (struct stat end{}; ::fstat(fd_, &end) == 0 && static_cast<uint64_t>(end.st_size) == offset_) {
    last_write_ms_ =
        static_cast<int64_t>(end.st_mtim.tv_sec) * 1000 + end.st_mtim.tv_nsec / 1000000;
  }
  // Rotation: the path now names another file. Finish the old one first (done above), then
  // switch, so no line written just before the rename is lost.
  struct stat path_st {};
  if (::stat(path_.c_str(), &path_st) == 0 && (static_cast<uint64_t>(path_st.st_ino) != inode_ ||
                                               static_cast<uint64_t>(path_st.st_dev) != device_)) {
    out += ReadAvailable();
    ::close(fd_);
    fd_ = -1;
    ++reopens_;
    if (out.size() < max_read_) out += Read();
  }
  return out;
}

// ---- PipeSource ---------------------------------------------------------------------------

PipeSource::PipeSource(int fd, std::string name, int tee_fd, int log_fd)
    : fd_(fd), name_(std::move(name)), tee_fd_(tee_fd), log_fd_(log_fd) {}

PipeSource::~PipeSource() {
  if (fd_ >= 0) ::close(fd_);
}

std::string PipeSource::Read() {
  std::string out;
  if (done_) return out;
  char buf[64 << 10];
  for (int i = 0; i < 16; ++i) {
    ssize_t n = ::read(fd_, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;  // EAGAIN: drained
    if (n == 0) {
      done_ = true;
      break;
    }
    if (tee_fd_ >= 0) WriteAll(tee_fd_, buf, static_cast<size_t>(n));
    if (log_fd_ >= 0) WriteAll(log_fd_, buf, static_cast<size_t>(n));
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// ---- Journal ------------------------------------------------------------------------------

namespace {

constexpr size_t kJournalReadBytes = 4u << 20;  // per Read()
constexpr int kJournalReadEntries = 10000;      // per Read()
constexpr size_t kJournalMaxEvents = 1000;      // per Read(): a burst is cut there

class JournalSource final : public LogSource {
 public:
  JournalSource(const SdJournalApi& sd, sd_journal* j, std::string name, std::string unit,
                bool files)
      : sd_(sd), j_(j), name_(std::move(name)), unit_(std::move(unit)), files_(files) {}
  ~JournalSource() override { sd_.close(j_); }
  JournalSource(const JournalSource&) = delete;
  JournalSource& operator=(const JournalSource&) = delete;
  std::string Read() override {
    std::string out;
    events_.clear();
    if (done_) return out;
    // sd_journal_process keeps the view current when journald rotates or adds files.
    sd_.process(j_);
    for (int i = 0; i < kJournalReadEntries && out.size() < kJournalReadBytes &&
                    events_.size() < kJournalMaxEvents;
         ++i) {
      int r = sd_.next(j_);
      if (r <= 0) {
        // A file does not grow under us: its end (or an unreadable entry) ends it.
        if (files_) done_ = true;
        break;
      }
      JournalFields fields;
      uint64_t usec = 0;
      if (sd_.get_realtime_usec(j_, &usec) >= 0) {
        fields.realtime_ms = static_cast<int64_t>(usec / 1000);
      }
      const void* data = nullptr;
      size_t len = 0;
      sd_.restart_data(j_);
      while (fields.items.size() < kMaxJournalFields &&
             sd_.enumerate_available_data(j_, &data, &len) > 0) {
        fields.Add(std::string_view(static_cast<const char*>(data), len));
      }
      JournalEntryFacts facts = ClassifyJournalEntry(fields, unit_);
      if (facts.event) events_.push_back({out.size(), std::move(*facts.event)});
      if (facts.line) {
        out.append(*facts.line);
        out.push_back('\n');
      }
    }
    return out;
  }
  bool Done() const override { return done_; }
  std::string Name() const override { return name_; }
  std::vector<PlacedUnitEvent> TakeUnitEvents() override { return std::move(events_); }

 private:
  const SdJournalApi& sd_;
  sd_journal* j_;
  std::string name_;
  std::string unit_;
  bool files_;
  bool done_ = false;
  std::vector<PlacedUnitEvent> events_;
};

// journalctl -u's matches, less the coredump ones: the unit's processes, or the manager (PID 1)
// about the unit, or a user manager about a user unit.
int AddUnitMatches(const SdJournalApi& sd, sd_journal* j, const std::string& unit) {
  auto add = [&](const std::string& m) { return sd.add_match(j, m.data(), m.size()); };
  int r = add("_SYSTEMD_UNIT=" + unit);
  if (r >= 0) r = sd.add_disjunction(j);
  if (r >= 0) r = add("_PID=1");
  if (r >= 0) r = add("UNIT=" + unit);
  if (r >= 0) r = sd.add_disjunction(j);
  if (r >= 0) r = add("_SYSTEMD_USER_UNIT=" + unit);
  if (r >= 0) r = sd.add_disjunction(j);
  if (r >= 0) r = add("USER_UNIT=" + unit);
  return r;
}

}  // namespace

Result<std::unique_ptr<LogSource>> OpenJournalSource(const JournalOptions& options) {
  auto loaded = LoadSdJournal();
  if (!loaded.ok()) return loaded.status();
  const SdJournalApi& sd = **loaded;
  sd_journal* j = nullptr;
  int r = 0;
  std::string name;
  const bool files = !options.journal_files.empty();
  if (files) {
    std::vector<const char*> paths;
    for (const auto& p : options.journal_files) paths.push_back(p.c_str());
    paths.push_back(nullptr);
    r = sd.open_files(&j, paths.data(), 0);
    name = "journal file " + options.journal_files.front();
  } else {
    r = sd.open(&j, SD_JOURNAL_LOCAL_ONLY);
    name = "journal";
  }
  if (r < 0) return Status::FromErrno(-r, name + ": cannot open journal");
  // A hint to libsystemd: spinup looks at no more than this of any field (MESSAGE is capped
  // further by the classifier).
  sd.set_data_threshold(j, 64 << 10);
  const std::string unit = NormalizeUnitName(options.unit);
  if (!unit.empty()) {
    r = AddUnitMatches(sd, j, unit);
    if (r < 0) {
      sd.close(j);
      return Status::FromErrno(-r, name + ": bad unit match");
    }
    name += " " + unit;
  }
  if (options.since_ms > 0) {
    sd.seek_realtime_usec(j, static_cast<uint64_t>(options.since_ms) * 1000);
  } else {
    sd.seek_head(j);
  }
  return std::unique_ptr<LogSource>(std::make_unique<JournalSource>(sd, j, name, unit, files));
}

}  // namespace spinup

// ---- Standard input and log commands ------------------------------------------------------

namespace spinup {

Result<std::unique_ptr<LogSource>> OpenStdinSource() {
  // A fresh open of the same pipe gets its own O_NONBLOCK; a terminal or file falls back to fd 0.
  int fd = ::open("/proc/self/fd/0", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    fd = ::dup(STDIN_FILENO);
    if (fd < 0) return Status::FromErrno(errno, "--log -: standard input");
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  return std::unique_ptr<LogSource>(std::make_unique<PipeSource>(fd, "stdin", -1, -1));
}

LogCommandSource::LogCommandSource(LogCommandOptions options) : options_(std::move(options)) {
  if (!options_.now_s) {
    options_.now_s = [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  }
  delay_s_ = options_.first_delay_s;
  Start();
}

namespace {

// SIGTERM to the command's process group, SIGKILL after 2 s if the command is still there (a
// command that ignores SIGTERM must not hang spinup's exit); then reaps it. Its wait status.
int EndGroup(pid_t pid) {
  ::kill(-pid, SIGTERM);
  int status = 0;
  for (int i = 0; i < 40; ++i) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return status;
    ::usleep(50'000);
  }
  ::kill(-pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

LogCommandSource::~LogCommandSource() {
  if (pid_ > 0) EndGroup(pid_);
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

void LogCommandSource::Start() {
  restart_at_ = -1;
  produced_ = false;
  auto child = SpawnChild({"/bin/sh", "-c", options_.command});
  ++starts_;
  if (!child.ok()) {
    if (options_.note) options_.note(Name() + ": " + child.status().message());
    restart_at_ = options_.now_s() + delay_s_;
    return;
  }
  pid_ = child->pid;
  out_fd_ = child->stdout_fd;
  err_fd_ = child->stderr_fd;
}

std::string LogCommandSource::Drain(int& fd) {
  std::string out;
  if (fd < 0) return out;
  char buf[64 << 10];
  for (int i = 0; i < 16; ++i) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (n == 0) {
      ::close(fd);
      fd = -1;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

void LogCommandSource::Reap() {
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == 0) {  // closed its output but lives on: it cannot feed us any more
    status = EndGroup(pid_);
    r = pid_;
  }
  pid_ = -1;
  int code = r > 0 ? ExitCodeFromWaitStatus(status) : -1;
  if (produced_) delay_s_ = options_.first_delay_s;
  restart_at_ = options_.now_s() + delay_s_;
  if (options_.note) {
    char delay[32];
    std::snprintf(delay, sizeof(delay), "%gs", delay_s_);
    options_.note(Name() + " exited with status " + std::to_string(code) + "; restarting in " +
                  delay);
  }
  delay_s_ = std::min(options_.max_delay_s, delay_s_ * 2);
}

std::string LogCommandSource::Read() {
  if (restart_at_ >= 0) {
    if (options_.now_s() < restart_at_) return {};
    Start();
  }
  std::string out = Drain(out_fd_);
  out += Drain(err_fd_);
  if (!out.empty()) produced_ = true;
  // Both pipes closed: the command has exited (or closed its output, which ends it for us).
  if (pid_ > 0 && out_fd_ < 0 && err_fd_ < 0) Reap();
  return out;
}

}  // namespace spinup
