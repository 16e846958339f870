// Shared by the reader's commands (bench, warm, evict): number formatting, the terminal progress
// bar, and error reporting in the one-line `spinup: <file>: <problem>` form.
#pragma once

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "format/read_set.h"
#include "spinup/reader.h"
#include "spinup/status.h"

namespace spinup {

std::string HumanBytes(uint64_t bytes);     // "4.00 GiB"
std::string HumanRate(double bytes_per_s);  // "2.1 GB/s" (FormatRate: decimal, like fio)

// "spinup: note: 2 shard(s) named by the index are missing (...)" when the set is incomplete.
void NoteMissingShards(CliContext& ctx, const CheckpointReadSet& set);

// Prints the error (cleaned for the terminal) and sets the exit code through ExitCodeFor.
void ReportReaderError(CliContext& ctx, const Status& status);

// Redraws "[####....] 45% 1.80/4.00 GiB 2.10 GB/s ETA 1s" on a terminal every 200 ms while alive.
class ProgressBar {
 public:
  ProgressBar(std::ostream& out, const ReadControl& control, bool enabled);
  ~ProgressBar();  // stops and ends the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void Draw(double seconds);
  std::ostream& out_;
  const ReadControl& control_;
  bool enabled_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// --block and friends: "4MiB"-style sizes (ParseByteSize in base/units.h).
bool ParseSizeFlag(const std::string& text, uint64_t* out, std::string* error);

// The reader tuning flags that bench and warm share, as typed and once validated.
struct ReaderFlags {
  int threads = 0;
  int queue_depth = 0;
  std::string block;  // empty: the backend's default (DefaultBlockBytes)
  std::string backend = "auto";
};
void AddReaderFlags(CLI::App& sub, ReaderFlags& flags);
// Backend, threads, queue depth and block size as ReaderOptions (direct is the caller's).
Result<ReaderOptions> ResolveReaderFlags(const ReaderFlags& flags);

}  // namespace spinup
