#include "logs/text_find.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace spinup {
namespace {

TEST(TextFind, FindsWhatFindFinds) {
  EXPECT_EQ(scan::FindWord("no date here", "date"), 3u);
  EXPECT_EQ(scan::FindWord("updated, dates", "date", 3), 9u);
  EXPECT_EQ(scan::FindWord("(x3 over 2m) kubelet", " over ", 0, 1), 3u);
  EXPECT_EQ(scan::FindWord("dat", "date"), std::string_view::npos);
  EXPECT_EQ(scan::FindWord("date", "date", 5), std::string_view::npos);
  EXPECT_EQ(scan::FindWord("", "date"), std::string_view::npos);
}

// Every start and every pair offset against std::string_view::find, over texts long enough for
// the 16-byte blocks and their tails, of few letters so that partial matches are many.
TEST(TextFind, AgreesWithFindOnRandomText) {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    std::string text(rng() % 80, 'a');
    for (char& c : text) c = "ab d"[rng() % 4];
    std::string word(2 + rng() % 4, 'a');
    for (char& c : word) c = "ab d"[rng() % 4];
    for (size_t from = 0; from <= text.size() + 1; ++from) {
      for (size_t j = 0; j + 1 < word.size(); ++j) {
        ASSERT_EQ(scan::FindWord(text, word, from, j), std::string_view(text).find(word, from))
            << text << " / " << word << " from " << from << " j " << j;
      }
    }
  }
}

}  // namespace
}  // namespace spinup
