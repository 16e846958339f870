#include "base/json_bounded.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace spinup {
namespace {

TEST(JsonBounded, ParsesWithinLimits) {
  auto r = ParseJsonBounded(R"({"a":[1,2,{"b":"c"}]})", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->value["a"][2]["b"], "c");
  EXPECT_EQ(r->values, 8u);  // object, key a, array, 1, 2, object, key b, "c"
}

TEST(JsonBounded, DeepNestingIsRefusedBeforeAnyTree) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  auto r = ParseJsonBounded(deep, {8, 1000});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kCorrupt);
  EXPECT_NE(r.status().message().find("deeper than 8"), std::string::npos);
}

TEST(JsonBounded, TooManyValuesAreRefused) {
  // The shape that cost 3.7 GB as a DOM: many tiny arrays, 3 bytes each.
  std::string wide = "{\"a\":[";
  for (int i = 0; i < 100000; ++i) wide += "[],";
  wide += "[]]}";
  auto r = ParseJsonBounded(wide, {8, 50000});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 50000 JSON values"), std::string::npos);
  EXPECT_TRUE(ParseJsonBounded(wide, {8, 200000}).ok());
}

TEST(JsonBounded, InvalidJsonSaysWhere) {
  auto r = ParseJsonBounded("{\"a\": tru}", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not valid JSON at byte"), std::string::npos);
}

TEST(JsonBounded, SharedBudgetBoundsTreesAliveAtOnceAndRefusesTheImpossible) {
  JsonValueBudget budget(10);
  auto a = ParseJsonBounded("[1,2,3,4,5]", {}, &budget);  // 6 values
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(ParseJsonBounded("[1,2,3,4,5,6,7,8,9,10,11]", {}, &budget).ok());  // 12 > 10
  // A second tree of 6 must wait until the first is released.
  std::atomic<bool> done{false};
  std::thread t([&] {
    auto b = ParseJsonBounded("[1,2,3,4,5]", {}, &budget);
    EXPECT_TRUE(b.ok());
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load());
  { auto release = std::move(*a); }
  t.join();
  EXPECT_TRUE(done.load());
}

}  // namespace
}  // namespace spinup
