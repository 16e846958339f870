#include "spinup/page_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/reader_tasks.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::EvictionObservable;
using testing::TempDir;
using testing::WriteSyncedFile;

// Reads [off, off+len) without readahead, so exactly those pages become resident.
void ReadExactly(const std::string& path, uint64_t off, uint64_t len) {
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
  std::vector<char> buf(len);
  ASSERT_EQ(::pread(fd, buf.data(), len, static_cast<off_t>(off)), static_cast<ssize_t>(len));
  ::close(fd);
}

TEST(PageCache, EvictDropsResidencyAndReadBringsItBack) {
  TempDir dir;
  const size_t size = (8 << 20) + 100;
  std::string path = WriteSyncedFile(dir / "a.safetensors", size);
  if (!EvictionObservable(path)) GTEST_SKIP() << "tmpfs/ramfs ignores POSIX_FADV_DONTNEED";
  ReadExactly(path, 0, size);
  auto before = MeasureFileResidency(path);
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_EQ(before->size, size);
  EXPECT_EQ(before->resident_bytes, size);  // the clipped last page counts only its bytes
  ASSERT_TRUE(EvictFile(path).ok());
  auto after = MeasureFileResidency(path);
  ASSERT_TRUE(after.ok());
  EXPECT_LT(after->resident_bytes, before->resident_bytes);
  EXPECT_LT(after->fraction(), 0.5);
}

TEST(PageCache, NonResidentRangesExcludeWhatWasRead) {
  TempDir dir;
  const size_t size = 4 << 20;
  std::string path = WriteSyncedFile(dir / "b.safetensors", size);
  if (!EvictionObservable(path)) GTEST_SKIP() << "tmpfs/ramfs ignores POSIX_FADV_DONTNEED";
  ASSERT_TRUE(EvictFile(path).ok());
  ReadExactly(path, 0, 65536);
  ReadExactly(path, 1 << 20, 4096);
  auto ranges = NonResidentRanges(path);
  ASSERT_TRUE(ranges.ok()) << ranges.status().message();
  uint64_t missing = 0;
  for (const auto& r : *ranges) {
    missing += r.length;
    EXPECT_EQ(r.offset % 4096, 0u);
    EXPECT_LE(r.offset + r.length, size);
    // Neither read region may be reported missing.
    EXPECT_TRUE(r.offset >= 65536 || r.offset + r.length <= 0);
    EXPECT_TRUE(r.offset + r.length <= (1u << 20) || r.offset >= (1u << 20) + 4096);
  }
  EXPECT_GT(missing, 0u);
  EXPECT_LE(missing, size - 65536 - 4096);
  auto res = MeasureFileResidency(path);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->resident_bytes + missing, size);
  // A merge gap larger than the file joins everything after the first read region.
  auto merged = NonResidentRanges(path, size);
  ASSERT_TRUE(merged.ok());
  ASSERT_EQ(merged->size(), 1u);
  EXPECT_EQ((*merged)[0].offset + (*merged)[0].length, size);
}

TEST(PageCache, TotalsAddUpAndEmptyFilesAreFullyResident) {
  TempDir dir;
  std::string a = WriteSyncedFile(dir / "a.bin", 10000);
  std::string e = WriteSyncedFile(dir / "e.bin", 0);
  auto res = MeasureResidency({a, e});
  ASSERT_TRUE(res.ok()) << res.status().message();
  ASSERT_EQ(res->files.size(), 2u);
  EXPECT_EQ(res->total_bytes, 10000u);
  EXPECT_EQ(res->resident_bytes, res->files[0].resident_bytes);
  EXPECT_EQ(res->files[1].fraction(), 1.0);
  EXPECT_LE(res->resident_bytes, 10000u);
}

TEST(PageCache, BadPathsAreErrorsNamingThePath) {
  TempDir dir;
  std::string fifo = dir / "pipe.safetensors";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = MeasureFileResidency(fifo);  // must not block waiting for a writer
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(fifo), std::string::npos);
  EXPECT_FALSE(EvictFile(fifo).ok());
  auto missing = MeasureResidency({dir / "nope.safetensors"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_FALSE(MeasureFileResidency("/dev/null").ok());
}

TEST(WarmFiles, ReadsOnlyWhatIsMissingAndLeavesEverythingResident) {
  TempDir dir;
  const size_t size = 6 << 20;
  std::string path = WriteSyncedFile(dir / "w.safetensors", size);
  if (!EvictionObservable(path)) GTEST_SKIP() << "tmpfs/ramfs ignores POSIX_FADV_DONTNEED";
  ASSERT_TRUE(EvictFile(path).ok());
  ReadExactly(path, 0, 2 << 20);
  auto files = ListCheckpointFiles(dir.path());
  ASSERT_TRUE(files.ok());
  ReaderOptions opt;
  opt.block_bytes = 256 << 10;
  auto warm = WarmFiles(*files, opt);
  ASSERT_TRUE(warm.ok()) << warm.status().message();
  EXPECT_EQ(warm->bytes, size);
  EXPECT_GE(warm->already_resident_bytes, 2u << 20);
  EXPECT_EQ(warm->already_resident_bytes + warm->read_bytes, size);
  EXPECT_GT(warm->resident_fraction, 0.99);
  // Warming again reads nothing.
  auto again = WarmFiles(*files, opt);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->read_bytes, 0u);
  EXPECT_EQ(again->already_resident_bytes, size);
}

TEST(BenchRead, ColdReadsEveryByte) {
  TempDir dir;
  std::string path = WriteSyncedFile(dir / "c.safetensors", (3 << 20) + 5);
  auto files = ListCheckpointFiles(dir.path());
  ASSERT_TRUE(files.ok());
  ReaderOptions opt;
  opt.direct = true;
  auto r = BenchRead(*files, opt, /*cold=*/true);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->read.bytes, (3u << 20) + 5);
  EXPECT_TRUE(r->cold);
  if (EvictionObservable(path)) {
    EXPECT_LT(r->resident_fraction_before, 0.5);
  }
}

}  // namespace
}  // namespace spinup
