// The mmap backend's copy survives a file that shrinks under its mapping (issue 11, item 8).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "io/reader_internal.h"
#include "test_util.h"

namespace spinup::io {
namespace {

TEST(MmapBackend, CopyPastTheEndOfAShrunkFileFailsInsteadOfSigbus) {
  testing::TempDir dir;
  auto path = dir / "shard";
  const size_t size = 1 << 20;
  testing::WriteFile(path, std::string(size, 'x'));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(map, MAP_FAILED);
  // The race the backend's size check cannot close: the file shrinks after the check.
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  std::vector<char> dst(size);
  {
    SigbusCatcher catcher;
    EXPECT_TRUE(CopyFromMapping(dst.data(), map, 4096));
    EXPECT_FALSE(CopyFromMapping(dst.data(), map, size));
    // The thread is usable afterwards, and a second fault is caught too.
    EXPECT_FALSE(CopyFromMapping(dst.data(), static_cast<char*>(map) + 8192, 4096));
  }
  EXPECT_EQ(dst[0], 'x');
  ::munmap(map, size);
  ::close(fd);
}

}  // namespace
}  // namespace spinup::io
