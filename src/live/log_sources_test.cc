#include "live/log_sources.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace spinup {
namespace {

void Append(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::app | std::ios::binary);
  f << text;
}

TEST(FileFollowerTest, WaitsForTheFileThenReadsWhatIsAppended) {
  testing::TempDir dir;
  auto path = dir / "server.log";
  FileFollower f(path.string());
  EXPECT_EQ(f.Read(), "");
  Append(path, "one\n");
  EXPECT_EQ(f.Read(), "one\n");
  EXPECT_EQ(f.Read(), "");
  Append(path, "two\nthr");
  EXPECT_EQ(f.Read(), "two\nthr");
  Append(path, "ee\n");
  EXPECT_EQ(f.Read(), "ee\n");
}

TEST(FileFollowerTest, FollowsRotationWithoutLosingTheOldFilesTail) {
  testing::TempDir dir;
  auto path = dir / "server.log";
  Append(path, "a\n");
  FileFollower f(path.string());
  EXPECT_EQ(f.Read(), "a\n");
  Append(path, "b\n");  // written just before the rotation
  std::filesystem::rename(path, dir / "server.log.1");
  Append(path, "c\n");
  EXPECT_EQ(f.Read(), "b\nc\n");
  EXPECT_EQ(f.reopen_count(), 1);
  Append(path, "d\n");
  EXPECT_EQ(f.Read(), "d\n");
}

// Issue 11 item 13: a FIFO was opened and closed every interval, killing its writer with SIGPIPE
// and reporting an empty log.
TEST(FileFollowerTest, FollowsAFifoWithoutDroppingItsWriter) {
  testing::TempDir dir;
  auto path = dir / "server.fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  FileFollower f(path.string());
  EXPECT_EQ(f.Read(), "");  // opens it; no writer yet
  // A writer that opens without blocking needs a reader to exist (else ENXIO).
  int w = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(w, 0) << "no reader kept the FIFO open";
  ASSERT_EQ(::write(w, "one\n", 4), 4);
  EXPECT_EQ(f.Read(), "one\n");
  EXPECT_EQ(f.Read(), "");
  ASSERT_EQ(::write(w, "two\n", 4), 4);  // the reader is still there: no EPIPE
  EXPECT_EQ(f.Read(), "two\n");
  ::close(w);
  EXPECT_EQ(f.Read(), "");
  // A new writer finds the reader still there.
  w = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(w, 0);
  ASSERT_EQ(::write(w, "three\n", 6), 6);
  EXPECT_EQ(f.Read(), "three\n");
  ::close(w);
}

TEST(FileFollowerTest, StartsOverAfterTruncation) {
  testing::TempDir dir;
  auto path = dir / "server.log";
  Append(path, "first attempt line\n");
  FileFollower f(path.string());
  EXPECT_EQ(f.Read(), "first attempt line\n");
  { std::ofstream trunc(path, std::ios::trunc); }
  Append(path, "new\n");
  EXPECT_EQ(f.Read(), "new\n");
  EXPECT_EQ(f.reopen_count(), 1);
}

TEST(FileFollowerTest, NeverWritesTheFile) {
  testing::TempDir dir;
  auto path = dir / "server.log";
  Append(path, "x\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_read);
  FileFollower f(path.string());
  EXPECT_EQ(f.Read(), "x\n");  // a read-only file is enough
  EXPECT_EQ(testing::ReadFile(path), "x\n");
}

TEST(FileFollowerTest, BoundsOneRead) {
  testing::TempDir dir;
  auto path = dir / "big.log";
  Append(path, std::string(10000, 'x'));
  FileFollower f(path.string(), 4096);
  EXPECT_EQ(f.Read().size(), 4096u);
  EXPECT_EQ(f.Read().size(), 4096u);
  EXPECT_EQ(f.Read().size(), 10000u - 8192u);
}

// The session learns the log's time zone from when its end was written: known only when a read
// reached the end.
TEST(FileFollowerTest, KnowsWhenTheEndItReadWasWritten) {
  testing::TempDir dir;
  auto path = dir / "server.log";
  Append(path, std::string(10000, 'x'));
  const struct timespec times[2] = {{1773057630, 250000000}, {1773057630, 250000000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  FileFollower f(path.string(), 4096);
  f.Read();
  EXPECT_FALSE(f.LastWriteMs().has_value());  // more to read: this is not the end
  f.Read();
  f.Read();
  ASSERT_TRUE(f.LastWriteMs().has_value());
  EXPECT_EQ(*f.LastWriteMs(), 1773057630250);
}

TEST(PipeSourceTest, PassesBytesThroughUnchangedAndReportsEof) {
  int p[2], tee[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_EQ(::pipe(tee), 0);
  PipeSource src(p[0], "stdout", tee[1], -1);
  const std::string text = "line one\r\n\x1b[1mbold\x1b[0m\n";
  ASSERT_EQ(::write(p[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(p[1]);
  std::string got = src.Read();
  EXPECT_EQ(got, text);
  EXPECT_TRUE(src.Done());
  char buf[256];
  ssize_t n = ::read(tee[0], buf, sizeof(buf));
  EXPECT_EQ(std::string(buf, static_cast<size_t>(n)), text);
  ::close(tee[0]);
  ::close(tee[1]);
}

TEST(JournalSourceTest, MissingJournalFileIsAnError) {
  JournalOptions o;
  o.journal_files = {"/nonexistent/spinup/test.journal"};
  auto src = OpenJournalSource(o);
  // sd_journal_open_files fails on a missing file, or opens an empty view: either way no lines.
  if (src.ok()) {
    EXPECT_EQ((*src)->Read(), "");
  } else {
    EXPECT_FALSE(src.status().message().empty());
  }
}

}  // namespace
}  // namespace spinup
