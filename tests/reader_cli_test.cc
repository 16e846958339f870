// spinup bench / warm / evict end to end: JSON keys, and bad inputs giving one-line errors.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include <gtest/gtest.h>

#include "format/checkpoint_writer.h"
#include "io/reader_internal.h"
#include "test_util.h"

namespace spinup {
namespace {

using testing::RunSpinup;
using testing::TempDir;

void MakeModel(const TempDir& dir) {
  testing::WriteFile(dir / "model-00001-of-00002.safetensors", std::string(300000, 'x'));
  testing::WriteFile(dir / "model-00002-of-00002.safetensors", std::string(123457, 'y'));
  testing::WriteFile(dir / "config.json", "{}");
}

// The error contract: non-zero exit, exactly one line on stderr starting "spinup: ".
void ExpectOneLineError(const testing::ProcessResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_GT(r.exit_code, 0) << "killed by a signal or timed out";
  EXPECT_EQ(r.err.rfind("spinup: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(ReaderCli, BenchJsonHasTheDocumentedKeys) {
  TempDir dir;
  MakeModel(dir);
  for (const char* mode : {"--direct", "--buffered"}) {
    auto r = RunSpinup({"bench", dir.path(), mode, "--cold", "--json", "--block", "64KiB",
                        "--queue-depth", "4", "--threads", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["bytes"], 423457);
    for (const char* key :
         {"seconds", "bytes_per_s", "backend", "direct", "threads", "queue_depth", "block_bytes"}) {
      EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["block_bytes"], 65536);
    EXPECT_EQ(j["threads"], 2);
    if (std::string(mode) == "--buffered") {
      EXPECT_EQ(j["direct"], false);
    }
  }
  auto mmap = RunSpinup({"bench", dir.path(), "--backend", "mmap", "--threads", "1", "--json"});
  ASSERT_EQ(mmap.exit_code, 0) << mmap.err;
  EXPECT_EQ(nlohmann::json::parse(mmap.out)["backend"], "mmap");
}

TEST(ReaderCli, WarmCheckAndEvictReportResidency) {
  TempDir dir;
  MakeModel(dir);
  auto warm = RunSpinup({"warm", dir.path(), "--json"});
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  auto w = nlohmann::json::parse(warm.out);
  for (const char* key :
       {"bytes", "already_resident_bytes", "seconds", "bytes_per_s", "resident_fraction"}) {
    EXPECT_TRUE(w.contains(key)) << key;
  }
  EXPECT_EQ(w["bytes"], 423457);
  EXPECT_GT(w["resident_fraction"].get<double>(), 0.99);
  EXPECT_TRUE(warm.err.empty()) << "no progress bar when not on a terminal: " << warm.err;
  EXPECT_EQ(w["read_bytes"].get<uint64_t>() + w["already_resident_bytes"].get<uint64_t>(), 423457u);
  EXPECT_EQ(w["backend"], io::ProbePopulate().ok() ? "populate" : "uring");

  // Flags choose another backend and block; bench can measure populate too.
  auto pread = RunSpinup({"warm", dir.path(), "--json", "--backend", "pread", "--block", "1MiB"});
  ASSERT_EQ(pread.exit_code, 0) << pread.err;
  auto p = nlohmann::json::parse(pread.out);
  EXPECT_EQ(p["backend"], "pread");
  EXPECT_EQ(p["block_bytes"], 1 << 20);
  auto bench = RunSpinup({"bench", dir.path(), "--json", "--backend", "populate", "--cold"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  auto b = nlohmann::json::parse(bench.out);
  EXPECT_EQ(b["bytes"], 423457);
  EXPECT_FALSE(b["direct"].get<bool>());
  EXPECT_FALSE(b["notes"].empty()) << "O_DIRECT (bench's default) cannot apply to populate";

  auto check = RunSpinup({"warm", "--check", dir.path(), "--json"});
  ASSERT_EQ(check.exit_code, 0) << check.err;
  auto c = nlohmann::json::parse(check.out);
  ASSERT_EQ(c["files"].size(), 2u);
  EXPECT_EQ(c["bytes"], 423457);
  auto text = RunSpinup({"warm", "--check", dir.path()});
  EXPECT_NE(text.out.find("total (2 files)"), std::string::npos) << text.out;

  auto evict = RunSpinup({"evict", dir.path(), "--json"});
  ASSERT_EQ(evict.exit_code, 0) << evict.err;
  auto e = nlohmann::json::parse(evict.out);
  EXPECT_EQ(e["bytes"], 423457);
  EXPECT_LE(e["resident_bytes_after"].get<uint64_t>(), e["bytes"].get<uint64_t>());
}

TEST(ReaderCli, InspectMeasureReadFillsTheRateAndPrediction) {
  TempDir dir;
  ASSERT_TRUE(gen::WriteCheckpoint(dir / "model", gen::DenseSpec({})).ok());
  auto r = RunSpinup({"inspect", dir / "model", "--measure-read", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("read_bytes_per_s")) << r.out;
  EXPECT_GT(j["read_bytes_per_s"].get<double>(), 0);
  EXPECT_GT(j["predicted_load_seconds"].get<double>(), 0);
}

TEST(ReaderCli, MissingPathIsAOneLineUsageError) {
  TempDir dir;
  for (const char* cmd : {"bench", "warm", "evict"}) {
    auto r = RunSpinup({cmd, dir / "no-such-model"});
    ExpectOneLineError(r, "no-such-model");
    EXPECT_EQ(r.exit_code, 2);
  }
}

TEST(ReaderCli, DirectoryWithoutShardsIsAnError) {
  TempDir dir;
  testing::WriteFile(dir / "config.json", "{}");
  for (const char* cmd : {"bench", "warm", "evict"}) {
    ExpectOneLineError(RunSpinup({cmd, dir.path()}), "no checkpoint shards");
  }
}

TEST(ReaderCli, FifoAndDevicePathsAreRefusedWithoutHanging) {
  TempDir dir;
  std::string fifo = dir / "model.safetensors";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const char* cmd : {"bench", "warm", "evict"}) {
    ExpectOneLineError(RunSpinup({cmd, fifo}, "", 20), "FIFO");
    ExpectOneLineError(RunSpinup({cmd, dir.path()}, "", 20), "FIFO");
  }
  ExpectOneLineError(RunSpinup({"bench", "/dev/zero"}, "", 20), "device");
}

TEST(ReaderCli, PermissionDeniedIsAnError) {
  TempDir dir;
  std::string path = dir / "model.safetensors";
  testing::WriteFile(path, "data");
  ASSERT_EQ(::chmod(path.c_str(), 0), 0);
  if (::access(path.c_str(), R_OK) != 0) {
    ExpectOneLineError(RunSpinup({"bench", path}), "ermission denied");
    return;
  }
  // Root reads a mode-000 file anyway: run spinup as nobody through setpriv when it exists.
  const char* setpriv = "/usr/bin/setpriv";
  if (::access(setpriv, X_OK) != 0)
    GTEST_SKIP() << "running as root and no setpriv to drop privileges";
  ::chmod(dir.path().c_str(), 0755);
  auto r = testing::RunProgram({setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                                testing::SpinupExe(), "bench", path},
                               "", 60);
  if (r.err.find("setpriv") != std::string::npos) GTEST_SKIP() << "setpriv failed: " << r.err;
  ExpectOneLineError(r, "ermission denied");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(ReaderCli, BadFlagValuesAreUsageErrors) {
  TempDir dir;
  MakeModel(dir);
  auto block = RunSpinup({"bench", dir.path(), "--block", "4XB"});
  ExpectOneLineError(block, "--block");
  EXPECT_EQ(block.exit_code, 2);
  auto backend = RunSpinup({"bench", dir.path(), "--backend", "aio"});
  ExpectOneLineError(backend, "aio");
  EXPECT_EQ(RunSpinup({"bench", dir.path(), "--direct", "--buffered"}).exit_code, 2);
  EXPECT_EQ(RunSpinup({"warm", dir.path(), "--threads", "-1"}).exit_code, 2);
}

}  // namespace
}  // namespace spinup
