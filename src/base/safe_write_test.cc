#include "base/safe_write.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;

TEST(SafeWrite, WritesNewFileAndLeavesNoTemporary) {
  testing::TempDir dir;
  auto out = dir / "r.html";
  ASSERT_TRUE(WriteFileAtomically(out.string(), "hello").ok());
  EXPECT_EQ(testing::ReadFile(out), "hello");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(SafeWrite, RefusesSymlinkAndKeepsItsTarget) {
  testing::TempDir dir;
  auto victim = dir / "victim";
  testing::WriteFile(victim, "precious");
  auto link = dir / "r.html";
  fs::create_symlink(victim, link);
  Status st = WriteFileAtomically(link.string(), "html");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not a regular file"), std::string::npos) << st.message();
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(testing::ReadFile(victim), "precious");
}

TEST(SafeWrite, RefusesDevicesFifosAndFolders) {
  testing::TempDir dir;
  auto fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(WriteFileAtomically(fifo.string(), "x").ok());
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_FALSE(WriteFileAtomically(dir.path().string(), "x").ok());
  // /dev/null as root would otherwise be replaced by a regular file for the whole host.
  EXPECT_FALSE(WriteFileAtomically("/dev/null", "x").ok());
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(SafeWrite, PlantedFixedTemporaryNameIsNotFollowed) {
  testing::TempDir dir;
  auto victim = dir / "victim";
  testing::WriteFile(victim, "precious");
  auto out = dir / "r.html";
  fs::create_symlink(victim, out.string() + ".tmp");  // the old fixed temporary name
  ASSERT_TRUE(WriteFileAtomically(out.string(), "html").ok());
  EXPECT_EQ(testing::ReadFile(victim), "precious");
  EXPECT_EQ(testing::ReadFile(out), "html");
}

TEST(SafeWrite, KeepsModeOfExistingFile) {
  testing::TempDir dir;
  auto out = dir / "r.html";
  testing::WriteFile(out, "old");
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  ASSERT_TRUE(WriteFileAtomically(out.string(), "new").ok());
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(testing::ReadFile(out), "new");
}

TEST(SafeWrite, MissingFolderIsNotFoundAndFullDiskIsAnError) {
  testing::TempDir dir;
  Status st = WriteFileAtomically((dir / "no" / "x.html").string(), "x");
  EXPECT_EQ(st.kind(), ErrorKind::kNotFound) << st.message();
  int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) GTEST_SKIP() << "no /dev/full";
  EXPECT_EQ(WriteAll(fd, "x"), ENOSPC);
  ::close(fd);
}

}  // namespace
}  // namespace spinup
