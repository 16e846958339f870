// The populate backend brings ranges into the page cache without delivering bytes: these tests
// check what it promises instead (every range reported once, progress, residency afterwards) and
// that it fails the way the other backends do on bad files.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/reader_internal.h"
#include "io/reader_tasks.h"
#include "spinup/page_cache.h"
#include "spinup/read_plan.h"
#include "spinup/reader.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::EvictionObservable;
using testing::TempDir;
using testing::WriteSyncedFile;

bool PopulateSupported() { return io::ProbePopulate().ok(); }

ReaderOptions Populate(int threads, uint64_t block) {
  ReaderOptions o;
  o.backend = ReadBackend::kPopulate;
  o.threads = threads;
  o.block_bytes = block;
  return o;
}

TEST(PopulateBackend, UnalignedRangesBecomeResidentAndAreEachReportedOnce) {
  if (!PopulateSupported()) GTEST_SKIP() << "kernel without MADV_POPULATE_READ";
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "a.safetensors", (3 << 20) + 777);
  const std::string b = WriteSyncedFile(dir / "b.safetensors", 5000);
  if (!EvictionObservable(a)) GTEST_SKIP() << "tmpfs/ramfs ignores POSIX_FADV_DONTNEED";
  ASSERT_TRUE(EvictFiles({a, b}).ok());
  // Offsets and lengths off page boundaries, an empty range, a range ending at EOF.
  auto plan = PlanFromRanges({{a, 4097, (1 << 20) + 3, 0},
                              {a, (2 << 20) + 1, (1 << 20) + 776, 1},
                              {b, 0, 0, 2},
                              {b, 10, 4990, 3}});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  std::mutex mu;
  std::multiset<size_t> reported;
  ReadControl control;
  auto report =
      ReadToSink(*plan, Populate(3, 256 << 10), &control, [&](size_t index, const ReadRange&) {
        std::lock_guard<std::mutex> lock(mu);
        reported.insert(index);
      });
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->backend, ReadBackend::kPopulate);
  EXPECT_FALSE(report->direct);
  EXPECT_EQ(report->threads, 3);
  EXPECT_EQ(report->bytes, plan->TotalBytes());
  EXPECT_EQ(control.bytes_done(), plan->TotalBytes());
  EXPECT_EQ(reported, (std::multiset<size_t>{0, 1, 2, 3}));
  // Every page of a requested range is in the cache now. Pages outside them (the first page, the
  // gap between the two ranges of a) may or may not be: readahead decides, so only what was
  // asked is checked.
  auto missing = NonResidentRanges(a);
  ASSERT_TRUE(missing.ok());
  for (const auto& m : *missing) {
    for (const auto& r : plan->ranges) {
      if (r.file != 0 || r.length == 0) continue;
      const uint64_t first = r.offset & ~uint64_t{4095};
      const uint64_t end = r.offset + r.length;
      EXPECT_FALSE(m.offset < end && first < m.offset + m.length)
          << "not resident: " << m.offset << " +" << m.length << ", inside range " << r.tag;
    }
  }
  auto rb = MeasureFileResidency(b);
  ASSERT_TRUE(rb.ok());
  EXPECT_EQ(rb->resident_bytes, rb->size);
}

TEST(PopulateBackend, HasNoDestinationSoReadIntoRefusesIt) {
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "a.safetensors", 10000);
  auto plan = PlanWholeFiles({a});
  ASSERT_TRUE(plan.ok());
  std::vector<std::byte> dest(plan->DestBytes());
  auto report = ReadInto(*plan, dest, Populate(1, 0));
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(report.status().message().find("page cache"), std::string::npos);
}

TEST(PopulateBackend, DirectIsNotedAndIgnoredAndBlockDefaultsTo32MiB) {
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "a.safetensors", 70000);
  auto plan = PlanWholeFiles({a});
  ASSERT_TRUE(plan.ok());
  ReaderOptions opt = Populate(0, 0);
  opt.direct = true;
  auto report = ReadToSink(*plan, opt);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->bytes, 70000u);
  EXPECT_FALSE(report->direct);
  ASSERT_FALSE(report->notes.empty());
  if (PopulateSupported()) {
    EXPECT_EQ(report->backend, ReadBackend::kPopulate);
    EXPECT_EQ(report->block_bytes, kDefaultPopulateBlockBytes);
    EXPECT_EQ(report->threads, DefaultThreads(ReadBackend::kPopulate, false));
    EXPECT_NE(report->notes[0].find("O_DIRECT not used"), std::string::npos) << report->notes[0];
  } else {
    EXPECT_NE(report->notes[0].find("MADV_POPULATE_READ unavailable"), std::string::npos);
  }
}

TEST(PopulateBackend, FileThatShrankIsAShortReadNotASignal) {
  if (!PopulateSupported()) GTEST_SKIP() << "kernel without MADV_POPULATE_READ";
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "t.safetensors", (1 << 20) + 100);
  auto plan = PlanWholeFiles({a});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(::truncate(a.c_str(), 300000), 0);
  auto report = ReadToSink(*plan, Populate(2, 64 << 10));
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kIo);
  const std::string& msg = report.status().message();
  EXPECT_NE(msg.find(a), std::string::npos) << msg;
  EXPECT_NE(msg.find("short read at offset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shrink"), std::string::npos) << msg;
}

TEST(PopulateBackend, MissingFileAndFifoAreErrorsNamingThePath) {
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "m.safetensors", 10000);
  const std::string p = WriteSyncedFile(dir / "p.safetensors", 10000);
  auto plan_a = PlanWholeFiles({a});
  auto plan_p = PlanWholeFiles({p});
  ASSERT_TRUE(plan_a.ok() && plan_p.ok());
  std::filesystem::remove(a);
  std::filesystem::remove(p);
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  auto missing = ReadToSink(*plan_a, Populate(2, 0));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find(a), std::string::npos);
  auto fifo = ReadToSink(*plan_p, Populate(2, 0));
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.status().message().find("not a regular file"), std::string::npos);
}

TEST(PopulateBackend, CancelledBeforeStartReadsNothing) {
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "c.safetensors", 2 << 20);
  auto plan = PlanWholeFiles({a});
  ASSERT_TRUE(plan.ok());
  ReadControl control;
  control.Cancel();
  auto report = ReadToSink(*plan, Populate(2, 64 << 10), &control);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kCancelled);
  EXPECT_EQ(control.bytes_done(), 0u);
}

TEST(PopulateBackend, WarmUsesItByDefault) {
  TempDir dir;
  const std::string a = WriteSyncedFile(dir / "w.safetensors", 3 << 20);
  if (EvictionObservable(a)) {
    ASSERT_TRUE(EvictFile(a).ok());
  }
  auto files = ListCheckpointFiles(dir.path());
  ASSERT_TRUE(files.ok());
  auto warm = WarmFiles(*files, ReaderOptions{});
  ASSERT_TRUE(warm.ok()) << warm.status().message();
  EXPECT_EQ(warm->bytes, 3u << 20);
  EXPECT_GT(warm->resident_fraction, 0.99);
  if (warm->read_bytes > 0) {
    EXPECT_EQ(warm->read.backend,
              PopulateSupported() ? ReadBackend::kPopulate : ReadBackend::kUring);
  }
  // An explicit backend is kept.
  if (EvictionObservable(a)) {
    ASSERT_TRUE(EvictFile(a).ok());
  }
  ReaderOptions pread;
  pread.backend = ReadBackend::kPread;
  auto warm_pread = WarmFiles(*files, pread);
  ASSERT_TRUE(warm_pread.ok());
  if (warm_pread->read_bytes > 0) {
    EXPECT_EQ(warm_pread->read.backend, ReadBackend::kPread);
  }
}

}  // namespace
}  // namespace spinup
