// Where live log text comes from: a followed file (across rotation and truncation), a child's
// pipe, or the systemd journal. Sources only move bytes (and, for the journal, the service
// manager's structured facts about the unit); the log parser turns bytes into events.
// Every source is read-only towards what it watches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spinup/startup.h"
#include "spinup/status.h"

namespace spinup {

class LogSource {
 public:
  virtual ~LogSource() = default;
  // A descriptor the loop can poll for readability, or -1 when the source is polled each tick.
  virtual int PollFd() const { return -1; }
  // New text since the last call (whole or partial lines; at most a bounded amount per call).
  virtual std::string Read() = 0;
  // True once the source can never produce more (a closed pipe).
  virtual bool Done() const { return false; }
  // Short name for messages ("log /var/log/x.log", "stderr", "journal sglang.service").
  virtual std::string Name() const = 0;
  // What the service manager said about the unit during the last Read(), in order, each with the
  // offset in that Read()'s text before which it happened (the journal source only).
  struct PlacedUnitEvent {
    size_t offset = 0;
    UnitEvent event;
  };
  virtual std::vector<PlacedUnitEvent> TakeUnitEvents() { return {}; }
  // When the last Read() reached the end of a file: when that end was written (its mtime, ms
  // since the epoch). What the session learns the log's time zone from.
  virtual std::optional<int64_t> LastWriteMs() const { return std::nullopt; }
};

// Follows a file like `tail -F`: starts at its beginning (a startup is judged from its first line),
// reopens it when the path points to a new inode (rotation), starts over when it shrinks
// (truncation), and waits quietly while it does not exist. A FIFO is opened once and kept open
// (its writers never lose their reader). Opened O_RDONLY only.
class FileFollower final : public LogSource {
 public:
  explicit FileFollower(std::string path, size_t max_read = 4 << 20);
  ~FileFollower() override;
  FileFollower(const FileFollower&) = delete;
  FileFollower& operator=(const FileFollower&) = delete;
  std::string Read() override;
  std::string Name() const override { return "log " + path_; }
  // How often the file was found rotated or truncated (for tests and evidence).
  int reopen_count() const { return reopens_; }
  std::optional<int64_t> LastWriteMs() const override { return last_write_ms_; }

 private:
  std::string ReadAvailable();
  std::string path_;
  size_t max_read_;
  int fd_ = -1;
  uint64_t inode_ = 0;
  uint64_t device_ = 0;
  uint64_t offset_ = 0;
  int reopens_ = 0;
  bool fifo_ = false;
  std::optional<int64_t> last_write_ms_;
};

// Reads a pipe (the child's stdout or stderr under `spinup run`) and, when `tee_fd` >= 0, writes
// every byte on unchanged (pass-through) and appends to `log_fd` when >= 0.
class PipeSource final : public LogSource {
 public:
  PipeSource(int fd, std::string name, int tee_fd, int log_fd);
  ~PipeSource() override;
  PipeSource(const PipeSource&) = delete;
  PipeSource& operator=(const PipeSource&) = delete;
  int PollFd() const override { return done_ ? -1 : fd_; }
  std::string Read() override;
  bool Done() const override { return done_; }
  std::string Name() const override { return name_; }

 private:
  int fd_;
  std::string name_;
  int tee_fd_;
  int log_fd_;
  bool done_ = false;
};

// Standard input (`--log -`: `kubectl logs -f POD | spinup watch --log -`), read without blocking
// through its own open file description, so the shell's stdin flags are left alone. Done at EOF.
Result<std::unique_ptr<LogSource>> OpenStdinSource();

// `--log-command 'kubectl logs -f POD'`: runs the command with `/bin/sh -c` in its own process
// group and follows its stdout and stderr. When it exits, `note` is told why and it is started
// again after a delay (1 s, doubling to 30 s while runs produce no output), because a log stream
// ends whenever the pod or the API server blinks. The destructor ends the command's group
// (SIGTERM, then SIGKILL after 2 s); the command gets SIGKILL if spinup dies (PR_SET_PDEATHSIG).
struct LogCommandOptions {
  std::string command;
  double first_delay_s = 1.0;
  double max_delay_s = 30.0;
  std::function<double()> now_s;  // monotonic seconds (default: steady_clock)
  std::function<void(const std::string&)>
      note;  // "log command '...' exited with 1; restarting in 1s"
};
class LogCommandSource final : public LogSource {
 public:
  explicit LogCommandSource(LogCommandOptions options);
  ~LogCommandSource() override;
  LogCommandSource(const LogCommandSource&) = delete;
  LogCommandSource& operator=(const LogCommandSource&) = delete;
  int PollFd() const override { return out_fd_; }
  std::string Read() override;
  std::string Name() const override { return "log command '" + options_.command + "'"; }
  int starts() const { return starts_; }

 private:
  void Start();
  void Reap();
  std::string Drain(int& fd);
  LogCommandOptions options_;
  int pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  int starts_ = 0;
  bool produced_ = false;  // this run printed something: the next delay starts over
  double delay_s_ = 0;
  double restart_at_ = -1;  // when to start again (-1: running)
};

// The journal of one systemd unit: its processes' lines (`_SYSTEMD_UNIT=`) and what systemd
// logged about it (`UNIT=` from PID 1: starts, exits, failures, scheduled restarts with their
// counter; see journal_entry.h); without a unit, every entry's MESSAGE. Live journals start
// `since_ms` back in time, so the current start and recent restarts are seen, and are followed;
// journal files are read to their end, then the source is done (like `journalctl --file`).
struct JournalOptions {
  std::string unit;                        // "sglang" or "sglang.service"; empty: all entries
  std::vector<std::string> journal_files;  // empty: the local system journal
  int64_t since_ms = 0;                    // only entries at or after this wall-clock time
};
Result<std::unique_ptr<LogSource>> OpenJournalSource(const JournalOptions& options);

}  // namespace spinup
