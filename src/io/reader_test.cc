// The reader harness: every backend, direct and buffered, reads the same generated files and must
// deliver exactly the expected bytes, report each range once, count progress, cancel, and fail
// with a clear error on short reads and missing files.
#include "spinup/reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "format/checkpoint_writer.h"
#include "spinup/checkpoint.h"
#include "spinup/read_plan.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::TempDir;

// Deterministic content: byte i of file `seed` (so any range can be checked on its own).
std::byte Expected(uint64_t seed, uint64_t i) {
  uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (seed * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 29;
  return static_cast<std::byte>(x & 0xff);
}

std::string MakeFile(const TempDir& dir, const std::string& name, uint64_t seed, uint64_t size) {
  std::string path = dir / name;
  std::string data(size, '\0');
  for (uint64_t i = 0; i < size; ++i) data[i] = static_cast<char>(Expected(seed, i));
  testing::WriteFile(path, data);
  return path;
}

struct Config {
  ReadBackend backend;
  bool direct;
  int threads;
};

std::string ConfigName(const ::testing::TestParamInfo<Config>& info) {
  return std::string(ReadBackendName(info.param.backend)) +
         (info.param.direct ? "_direct" : "_buffered") + "_t" + std::to_string(info.param.threads);
}

class ReaderTest : public ::testing::TestWithParam<Config> {
 protected:
  ReaderOptions Options(uint64_t block = 64 << 10, int queue_depth = 8) const {
    ReaderOptions o;
    o.backend = GetParam().backend;
    o.direct = GetParam().direct;
    o.threads = GetParam().threads;
    o.block_bytes = block;
    o.queue_depth = queue_depth;
    return o;
  }
  TempDir dir_;
};

// Checks every range of the plan landed at its destination with the expected bytes.
void ExpectRangesMatch(const ReadPlan& plan, const std::byte* base,
                       const std::vector<uint64_t>& seeds) {
  for (size_t i = 0; i < plan.ranges.size(); ++i) {
    const ReadRange& r = plan.ranges[i];
    const std::byte* got = r.dest != nullptr ? r.dest : base + r.dest_offset;
    for (uint64_t k = 0; k < r.length; ++k) {
      if (got[k] != Expected(seeds[r.file], r.offset + k)) {
        FAIL() << "range " << i << " of " << plan.files[r.file].path << " differs at byte "
               << r.offset + k;
      }
    }
  }
}

TEST_P(ReaderTest, WholeFilesOfOddSizesAreByteExact) {
  const std::vector<uint64_t> sizes = {0, 1, 4095, 4096, 4097, (1 << 20) + 123, (3 << 20) + 7};
  std::vector<std::string> paths;
  std::vector<uint64_t> seeds;
  for (size_t i = 0; i < sizes.size(); ++i) {
    paths.push_back(MakeFile(dir_, "f" + std::to_string(i) + ".safetensors", i + 1, sizes[i]));
    seeds.push_back(i + 1);
  }
  auto plan = PlanWholeFiles(paths);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  std::vector<std::byte> dest(plan->DestBytes() + 1);
  ReadControl control;
  std::mutex mu;
  std::multiset<size_t> reported;
  // Files larger than the 64 KiB blocks and a queue of 4: many buffer reuses per file.
  auto report = ReadInto(*plan, dest, Options(64 << 10, 4), &control,
                         [&](size_t index, const ReadRange& range) {
                           std::lock_guard<std::mutex> lock(mu);
                           EXPECT_EQ(range.tag, index);
                           reported.insert(index);
                         });
  ASSERT_TRUE(report.ok()) << report.status().message();
  ExpectRangesMatch(*plan, dest.data(), seeds);
  EXPECT_EQ(reported.size(), sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_EQ(reported.count(i), 1u) << i;
  }
  uint64_t total = 0;
  for (auto s : sizes) total += s;
  EXPECT_EQ(report->bytes, total);
  EXPECT_EQ(control.bytes_done(), total);
  EXPECT_EQ(control.ranges_done(), sizes.size());
  EXPECT_EQ(report->backend, GetParam().backend);
  if (GetParam().direct && GetParam().backend != ReadBackend::kMmap && report->notes.empty()) {
    EXPECT_TRUE(report->direct);
  }
  if (!GetParam().direct) {
    EXPECT_FALSE(report->direct);
  }
}

TEST_P(ReaderTest, UnalignedRangesEmptyRangesAndUnalignedDestination) {
  const uint64_t size = (2 << 20) + 333;
  std::string path = MakeFile(dir_, "a.safetensors", 7, size);
  std::mt19937_64 rng(42);
  std::vector<FileRange> wanted;
  for (int i = 0; i < 300; ++i) {
    uint64_t len = (i % 10 == 0) ? 0 : rng() % 70000;
    uint64_t off = rng() % (size - len + 1);
    wanted.push_back({path, off, len, static_cast<uint64_t>(i)});
  }
  wanted.push_back({path, size - 5, 5, 300});  // the file's unaligned tail
  wanted.push_back({path, size, 0, 301});      // empty, at the very end
  auto plan = PlanFromRanges(wanted);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // Destination deliberately one byte off any alignment.
  std::vector<std::byte> storage(plan->DestBytes() + 64);
  std::span<std::byte> dest(storage.data() + 1, plan->DestBytes());
  std::atomic<size_t> calls{0};
  auto report = ReadInto(*plan, dest, Options(16 << 10, 8), nullptr,
                         [&](size_t, const ReadRange&) { calls++; });
  ASSERT_TRUE(report.ok()) << report.status().message();
  ExpectRangesMatch(*plan, dest.data(), {7});
  EXPECT_EQ(calls.load(), wanted.size());
}

TEST_P(ReaderTest, ManySmallRangesWithOwnDestinationsAcrossFiles) {
  std::vector<std::string> paths = {MakeFile(dir_, "x.bin", 11, 100000),
                                    MakeFile(dir_, "y.bin", 12, 77777)};
  std::mt19937_64 rng(5);
  std::vector<FileRange> wanted;
  for (int i = 0; i < 2000; ++i) {
    uint64_t f = rng() % 2;
    uint64_t fsize = f == 0 ? 100000 : 77777;
    uint64_t len = rng() % 300;
    wanted.push_back({paths[f], rng() % (fsize - len), len, static_cast<uint64_t>(i)});
  }
  auto plan = PlanFromRanges(wanted);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // Give every range its own destination pointer instead of a buffer offset.
  std::vector<std::vector<std::byte>> owned(plan->ranges.size());
  for (size_t i = 0; i < plan->ranges.size(); ++i) {
    owned[i].resize(plan->ranges[i].length + 1);
    plan->ranges[i].dest = owned[i].data();
  }
  ReadControl control;
  auto report = ReadInto(*plan, {}, Options(4096, 16), &control);
  ASSERT_TRUE(report.ok()) << report.status().message();
  std::vector<uint64_t> seeds(plan->files.size());
  for (size_t i = 0; i < plan->files.size(); ++i) {
    seeds[i] = plan->files[i].path == paths[0] ? 11 : 12;
  }
  ExpectRangesMatch(*plan, nullptr, seeds);
  EXPECT_EQ(control.ranges_done(), 2000u);
  EXPECT_EQ(control.bytes_done(), plan->TotalBytes());
}

TEST_P(ReaderTest, SinkModeCountsEveryByteWithBoundedBuffers) {
  std::string path = MakeFile(dir_, "s.safetensors", 3, (5 << 20) + 17);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  ReadControl control;
  std::atomic<bool> done{false};
  std::vector<uint64_t> samples;
  std::thread watcher([&] {
    while (!done.load()) {
      samples.push_back(control.bytes_done());
      std::this_thread::yield();
    }
  });
  auto report = ReadToSink(*plan, Options(256 << 10, 4), &control);
  done = true;
  watcher.join();
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->bytes, (5u << 20) + 17);
  EXPECT_EQ(control.bytes_done(), (5u << 20) + 17);
  EXPECT_TRUE(std::is_sorted(samples.begin(), samples.end()));  // progress never goes back
  for (auto s : samples) {
    EXPECT_LE(s, (5u << 20) + 17);
  }
}

TEST_P(ReaderTest, CancellationStopsEarly) {
  const uint64_t size = 16 << 20;
  std::string path = MakeFile(dir_, "c.safetensors", 9, size);
  std::vector<FileRange> wanted;
  for (uint64_t off = 0; off < size; off += 4096) wanted.push_back({path, off, 4096, off});
  auto plan = PlanFromRanges(wanted);
  ASSERT_TRUE(plan.ok());
  std::vector<std::byte> dest(plan->DestBytes());
  ReadControl control;
  auto report = ReadInto(*plan, dest, Options(4096, 4), &control,
                         [&](size_t, const ReadRange&) { control.Cancel(); });
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kCancelled) << report.status().message();
  EXPECT_LT(control.bytes_done(), size);
}

TEST_P(ReaderTest, FileThatShrankAfterPlanningIsAShortReadNamingFileAndOffset) {
  const uint64_t size = (1 << 20) + 100;
  std::string path = MakeFile(dir_, "t.safetensors", 4, size);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(::truncate(path.c_str(), 300000), 0);
  std::vector<std::byte> dest(plan->DestBytes());
  auto report = ReadInto(*plan, dest, Options(64 << 10, 4));
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kIo);
  const std::string& msg = report.status().message();
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("short read at offset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shrink"), std::string::npos) << msg;
}

TEST_P(ReaderTest, MissingFileAfterPlanningNamesTheFile) {
  std::string path = MakeFile(dir_, "m.safetensors", 4, 10000);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  std::filesystem::remove(path);
  auto report = ReadToSink(*plan, Options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(report.status().message().find(path), std::string::npos);
}

TEST_P(ReaderTest, FifoSwappedInAfterPlanningIsRefusedWithoutBlocking) {
  std::string path = MakeFile(dir_, "p.safetensors", 4, 10000);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto report = ReadToSink(*plan, Options());
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("not a regular file"), std::string::npos);
}

TEST_P(ReaderTest, DestinationTooSmallIsRejectedBeforeReading) {
  std::string path = MakeFile(dir_, "d.safetensors", 4, 10000);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  std::vector<std::byte> dest(9999);
  auto report = ReadInto(*plan, dest, Options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::kInvalidArgument);
}

TEST_P(ReaderTest, CheckpointTensorsLandExactlyWhereTheHeadersSay) {
  gen::DenseOptions dense;
  dense.layers = 3;
  dense.shards = 3;
  dense.hidden = 96;  // odd-sized tensors at unaligned offsets
  ASSERT_TRUE(gen::WriteCheckpoint(dir_ / "model", gen::DenseSpec(dense)).ok());
  auto ck = LoadCheckpoint(dir_ / "model");
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  auto plan = PlanFromCheckpoint(*ck);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->ranges.size(), ck->tensor_count());
  std::vector<std::byte> dest(plan->DestBytes());
  std::atomic<size_t> calls{0};
  auto report =
      ReadInto(*plan, dest, Options(8192, 4), nullptr, [&](size_t, const ReadRange&) { calls++; });
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(calls.load(), plan->ranges.size());
  EXPECT_EQ(report->bytes, ck->tensor_bytes());
  for (const auto& r : plan->ranges) {
    std::string file = testing::ReadFile(plan->files[r.file].path);
    ASSERT_LE(r.offset + r.length, file.size());
    ASSERT_EQ(std::memcmp(dest.data() + r.dest_offset, file.data() + r.offset, r.length), 0)
        << "tensor " << r.tag;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllBackends, ReaderTest,
    ::testing::Values(Config{ReadBackend::kUring, true, 1}, Config{ReadBackend::kUring, false, 1},
                      Config{ReadBackend::kUring, true, 2}, Config{ReadBackend::kPread, true, 3},
                      Config{ReadBackend::kPread, false, 3}, Config{ReadBackend::kPread, false, 1},
                      Config{ReadBackend::kMmap, false, 1}, Config{ReadBackend::kMmap, false, 2},
                      Config{ReadBackend::kMmap, true, 1}),
    ConfigName);

TEST(ReaderPlan, CheckpointWithAMissingShardIsAnErrorNamingIt) {
  TempDir dir;
  ASSERT_TRUE(gen::WriteCheckpoint(dir / "model", gen::DenseSpec({})).ok());
  auto ck = LoadCheckpoint(dir / "model");
  ASSERT_TRUE(ck.ok());
  ASSERT_FALSE(ck->shards.empty());
  ck->shards[0].present = false;
  auto plan = PlanFromCheckpoint(*ck);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find(ck->shards[0].path.string()), std::string::npos);
}

TEST(ReaderBackend, ParseAndNames) {
  for (ReadBackend b : {ReadBackend::kAuto, ReadBackend::kUring, ReadBackend::kPread,
                        ReadBackend::kMmap, ReadBackend::kPopulate}) {
    auto parsed = ParseReadBackend(ReadBackendName(b));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, b);
  }
  EXPECT_FALSE(ParseReadBackend("aio").ok());
}

TEST(ReaderBackend, AutoUsesUringOrNotesTheFallback) {
  TempDir dir;
  std::string path = MakeFile(dir, "a.safetensors", 1, 50000);
  auto plan = PlanWholeFiles({path});
  ASSERT_TRUE(plan.ok());
  std::vector<std::byte> dest(plan->DestBytes());
  auto report = ReadInto(*plan, dest, ReaderOptions{});
  ASSERT_TRUE(report.ok()) << report.status().message();
  if (report->backend == ReadBackend::kPread) {
    ASSERT_FALSE(report->notes.empty());
    EXPECT_NE(report->notes[0].find("io_uring"), std::string::npos);
  } else {
    EXPECT_EQ(report->backend, ReadBackend::kUring);
  }
  ExpectRangesMatch(*plan, dest.data(), {1});
}

}  // namespace
}  // namespace spinup
