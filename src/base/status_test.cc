#include "spinup/status.h"

#include <cerrno>

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(Status, FromErrnoNamesContextAndKind) {
  Status s = Status::FromErrno(ENOENT, "/models/x/model-00001.safetensors: open");
  EXPECT_EQ(s.kind(), ErrorKind::kNotFound);
  EXPECT_NE(s.message().find("model-00001.safetensors: open: "), std::string::npos);
  EXPECT_EQ(Status::FromErrno(EACCES, "f").kind(), ErrorKind::kPermission);
  EXPECT_EQ(Status::FromErrno(EIO, "f").kind(), ErrorKind::kIo);
}

TEST(Result, HoldsValueOrStatus) {
  Result<int> good(42);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);
  Result<int> bad(Status::Corrupt("f: header is not JSON"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().kind(), ErrorKind::kCorrupt);
  EXPECT_EQ(bad.status().message(), "f: header is not JSON");
}

}  // namespace
}  // namespace spinup
