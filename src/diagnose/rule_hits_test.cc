// RuleHits: rule id → hits in first-hit order, found by id, emptied with its buffers kept.
#include "diagnose/rule_hits.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace spinup {
namespace {

std::vector<std::string> Ids(const RuleHits& h) {
  std::vector<std::string> out;
  for (const auto& [id, hit] : h) out.push_back(id);
  return out;
}

TEST(RuleHits, WalksInFirstHitOrderAndFindsEachId) {
  RuleHits h;
  std::vector<std::string> want;
  // Enough ids to grow the index twice; many share their length and both ends' bytes.
  for (int i = 0; i < 200; ++i) {
    const std::string id =
        "vllm.rule_" + std::to_string(i % 10) + "_x" + std::to_string(i) + ".end";
    auto [it, fresh] = h.try_emplace(id);
    ASSERT_TRUE(fresh) << id;
    it->second.count = static_cast<uint64_t>(i);
    want.push_back(id);
  }
  EXPECT_FALSE(h.try_emplace(want[7]).second);
  EXPECT_EQ(Ids(h), want);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(h.at(want[static_cast<size_t>(i)]).count, uint64_t(i));
  EXPECT_EQ(h.count("vllm.absent"), 0u);
  EXPECT_THROW(h.at("vllm.absent"), std::out_of_range);
}

TEST(RuleHits, ClearedTableStartsFresh) {
  RuleHits h;
  auto [a, fa] = h.try_emplace("x.one");
  a->second.count = 5;
  a->second.quiet_only = false;
  a->second.first_text = "first";
  a->second.last_text = "last";
  a->second.last_ms = 9;
  h.try_emplace("x.two");
  h.Clear();
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.find("x.one"), h.end());
  auto [b, fb] = h.try_emplace("x.three");
  ASSERT_TRUE(fb);
  EXPECT_EQ(b->first, "x.three");
  EXPECT_EQ(b->second.count, 0u);
  EXPECT_TRUE(b->second.quiet_only);
  EXPECT_TRUE(b->second.first_text.empty());
  EXPECT_TRUE(b->second.last_text.empty());
  EXPECT_FALSE(b->second.last_ms.has_value());
  EXPECT_EQ(Ids(h), std::vector<std::string>{"x.three"});
  EXPECT_EQ(h.count("x.two"), 0u);
}

TEST(RuleHits, AMovedFromTableIsEmptyAndUsable) {
  RuleHits a;
  a.try_emplace("x.one");
  RuleHits b = std::move(a);
  EXPECT_EQ(b.size(), 1u);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): what this test checks
  EXPECT_EQ(a.find("x.one"), a.end());
  EXPECT_TRUE(a.try_emplace("x.two").second);
  EXPECT_EQ(Ids(a), std::vector<std::string>{"x.two"});
}

}  // namespace
}  // namespace spinup
