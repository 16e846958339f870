#include "cli/reader_cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "base/one_line.h"
#include "base/threads.h"
#include "base/units.h"
#include "cli/exit_codes.h"

namespace spinup {

std::string HumanBytes(uint64_t bytes) { return FormatBytesBinary(bytes); }

std::string HumanRate(double bytes_per_s) { return FormatRate(bytes_per_s); }

void NoteMissingShards(CliContext& ctx, const CheckpointReadSet& set) {
  if (set.missing.empty()) return;
  *ctx.err << "spinup: note: " << set.missing.size() << " shard(s) named by the index are missing ("
           << set.missing.front() << (set.missing.size() > 1 ? ", ..." : "")
           << "); reading the rest. spinup verify " << set.root << " says more\n";
}

void ReportReaderError(CliContext& ctx, const Status& status) {
  *ctx.err << "spinup: " << OneLine(status.message()) << "\n";
  ctx.exit_code = ExitCodeFor(status);
}

ProgressBar::ProgressBar(std::ostream& out, const ReadControl& control, bool enabled)
    : out_(out), control_(control), enabled_(enabled) {
  if (!enabled_) return;
  auto started = StartThreads(1, [this](int) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!stop_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      Draw(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  });
  // No thread to spare (a pids limit): no bar, the work still runs.
  if (started.empty()) {
    enabled_ = false;
    return;
  }
  thread_ = std::move(started.front());
}

ProgressBar::~ProgressBar() {
  if (!enabled_) return;
  stop_ = true;
  thread_.join();
  out_ << "\r\033[K" << std::flush;
}

void ProgressBar::Draw(double seconds) {
  const uint64_t done = control_.bytes_done();
  const uint64_t total = control_.bytes_total();
  const double frac = total == 0 ? 1.0 : std::min(1.0, double(done) / double(total));
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(frac * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kWidth - filled), '.');
  std::string eta = rate > 0 ? fmt::format("{:.0f}s", double(total - done) / rate) : "?";
  out_ << fmt::format("\r[{}] {:3.0f}% {}/{} {} ETA {}\033[K", bar, frac * 100, HumanBytes(done),
                      HumanBytes(total), HumanRate(rate), eta)
       << std::flush;
}

bool ParseSizeFlag(const std::string& text, uint64_t* out, std::string* error) {
  auto v = ParseByteSize(text);
  if (!v.ok()) {
    *error = v.status().message();
    return false;
  }
  *out = *v;
  return true;
}

void AddReaderFlags(CLI::App& sub, ReaderFlags& flags) {
  sub.add_option("--threads", flags.threads, "reader threads (0 = backend default)")
      ->check(CLI::Range(0, 256));
  sub.add_option("--queue-depth", flags.queue_depth,
                 "reads in flight per io_uring thread (0 = default: 32 O_DIRECT, 2 buffered)")
      ->check(CLI::Range(0, 4096));
  sub.add_option("--block", flags.block,
                 "largest single read, e.g. 4MiB (default 4MiB; 32MiB for populate)");
  sub.add_option("--backend", flags.backend,
                 "uring, pread, mmap, populate (page cache only: warm's default) or auto");
}

Result<ReaderOptions> ResolveReaderFlags(const ReaderFlags& flags) {
  ReaderOptions opt;
  auto backend = ParseReadBackend(flags.backend);
  if (!backend.ok()) return backend.status();
  opt.backend = *backend;
  opt.threads = flags.threads;
  opt.queue_depth = flags.queue_depth;
  std::string err;
  if (!flags.block.empty() && !ParseSizeFlag(flags.block, &opt.block_bytes, &err)) {
    return Status::InvalidArgument("--block: " + err);
  }
  return opt;
}

}  // namespace spinup
