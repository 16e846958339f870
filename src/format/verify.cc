// VerifyCheckpoint: the load-time problems plus, on request, SHA-256 of every shard computed in
// parallel and compared with the Hugging Face cache blob name where the shard links into blobs/.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "base/readonly_file.h"
#include "base/sha256.h"
#include "base/threads.h"
#include "spinup/checkpoint.h"

namespace spinup {

namespace fs = std::filesystem;

namespace {

// Per-thread read buffer: bounded memory whatever the checkpoint size.
constexpr size_t kHashBuffer = 4 << 20;

bool IsHex64(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
         });
}

// The digest a Hugging Face cache promises: the name of the blob the shard links to.
std::optional<std::string> BlobDigest(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(path, ec)) return std::nullopt;
  fs::path target = fs::canonical(path, ec);
  if (ec) return std::nullopt;
  std::string name = target.filename().string();
  if (target.parent_path().filename() != "blobs" || !IsHex64(name)) return std::nullopt;
  return name;
}

struct HashJob {
  const ShardInfo* shard;
  std::string digest;
  std::string error;
  uint64_t bytes = 0;
};

void HashOne(HashJob* job, std::vector<unsigned char>& buf, std::atomic<uint64_t>* done) {
  auto file = ReadOnlyFile::Open(job->shard->path);
  if (!file.ok()) {
    job->error = file.status().message();
    return;
  }
  ::posix_fadvise(file->fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
  uint64_t hashed = 0;
  auto digest = Sha256Fd(file->fd(), buf, done, &hashed);
  if (!digest.ok()) {
    job->error = digest.status().message();
    return;
  }
  job->bytes = hashed;
  // A digest only means something for the file the headers were checked on, whole: the same
  // inode, the size it had then, every byte of it read, and still that size now.
  const ShardInfo& s = *job->shard;
  struct stat after {};
  if (::fstat(file->fd(), &after) != 0) {
    job->error = "cannot be checked after hashing";
    return;
  }
  if (s.inode != 0 && (static_cast<uint64_t>(after.st_dev) != s.device ||
                       static_cast<uint64_t>(after.st_ino) != s.inode)) {
    job->error = "was replaced by another file after its header was read";
    return;
  }
  const auto now = static_cast<uint64_t>(after.st_size);
  if (hashed != s.file_size || now != s.file_size) {
    job->error = fmt::format("changed while it was hashed: {} bytes when loaded, {} hashed, {} now",
                             s.file_size, hashed, now);
    return;
  }
  job->digest = std::move(*digest);
}

}  // namespace

VerifyReport VerifyCheckpoint(const Checkpoint& ck, const VerifyOptions& options) {
  VerifyReport report;
  report.path = ck.input.string();
  report.problems = ck.problems;
  for (const auto& s : ck.shards) report.checked_files += s.present ? 1 : 0;
  if (ck.index) report.checked_files += 1;

  if (options.hash) {
    std::vector<HashJob> jobs;
    uint64_t total = 0;
    for (const auto& s : ck.shards) {
      if (!s.present) continue;
      jobs.push_back(HashJob{&s, {}, {}, 0});
      total += s.file_size;
    }
    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::clamp<unsigned>(threads, 1, std::max<unsigned>(1, jobs.size()));
    std::atomic<size_t> next{0};
    std::atomic<uint64_t> done{0};
    std::atomic<unsigned> running{threads};
    std::mutex mu;
    std::condition_variable cv;
    auto worker = [&](int) {
      std::vector<unsigned char> buf(kHashBuffer);
      for (size_t j; (j = next.fetch_add(1)) < jobs.size();) HashOne(&jobs[j], buf, &done);
      std::lock_guard<std::mutex> lock(mu);
      running.fetch_sub(1);
      cv.notify_all();
    };
    std::vector<std::thread> pool = StartThreads(static_cast<int>(threads), worker);
    running.fetch_sub(threads - static_cast<unsigned>(pool.size()));
    // Not one thread to spare (a pids limit): hash here, without progress reports.
    if (pool.empty()) {
      running.fetch_add(1);
      worker(0);
    }
    {
      // The caller's thread reports progress, so the callback needs no locking of its own.
      std::unique_lock<std::mutex> lock(mu);
      while (running.load() > 0) {
        cv.wait_for(lock, std::chrono::milliseconds(100));
        if (options.progress) {
          lock.unlock();
          options.progress(done.load(), total);
          lock.lock();
        }
      }
    }
    for (auto& t : pool) t.join();
    for (auto& job : jobs) {
      report.hashed_bytes += job.bytes;
      if (!job.error.empty()) {
        report.problems.push_back({ProblemKind::kTruncated, job.shard->file, std::nullopt,
                                   "cannot be read in full: " + job.error});
        continue;
      }
      ShardDigest d{job.shard->file, job.digest, BlobDigest(job.shard->path)};
      if (d.expected && *d.expected != d.sha256) {
        report.problems.push_back(
            {ProblemKind::kHashMismatch, d.file, std::nullopt,
             fmt::format("SHA-256 is {} but the Hugging Face cache blob it links to is named {}",
                         d.sha256, *d.expected)});
      }
      report.digests.push_back(std::move(d));
    }
  }
  report.ok = report.problems.empty();
  return report;
}

}  // namespace spinup
