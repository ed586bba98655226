// server/recent_texts.h: entries found by the text the input begins with,
// the most recent first, replaced by text, evicted past capacity, and texts
// over the bound not kept.
#include "gpusched/server/recent_texts.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

struct Entry {
  std::string text;
  int value = 0;
};

std::shared_ptr<const Entry> Make(std::string text, int value) {
  return std::make_shared<const Entry>(Entry{std::move(text), value});
}

TEST(RecentTextsTest, FindsByPrefixMostRecentFirst) {
  RecentTexts<Entry> cache(3, 8);
  EXPECT_EQ(cache.Match("[1]"), nullptr);
  cache.Insert(Make("[1]", 1));
  cache.Insert(Make("[1,2]", 2));
  ASSERT_NE(cache.Match("[1]}"), nullptr);
  EXPECT_EQ(cache.Match("[1]}")->value, 1);
  EXPECT_EQ(cache.Match("[1,2],\"x\"")->value, 2);
  EXPECT_EQ(cache.Match("[1,3]"), nullptr);
  EXPECT_EQ(cache.Match("[1"), nullptr);  // shorter than every text
  // The same text again replaces the entry.
  cache.Insert(Make("[1]", 10));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Match("[1]")->value, 10);
  // Past capacity the least recently used goes: [1,2] (used before [1]).
  cache.Insert(Make("[3]", 3));
  EXPECT_EQ(cache.Match("[1,2]")->value, 2);  // used: now the most recent
  cache.Insert(Make("[4]", 4));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.Match("[1]"), nullptr);
  EXPECT_EQ(cache.Match("[1,2]")->value, 2);
  EXPECT_EQ(cache.Match("[3]")->value, 3);
  EXPECT_EQ(cache.Match("[4]")->value, 4);
  // Over max_bytes: not kept.
  cache.Insert(Make("[1,2,3,4,5]", 5));
  EXPECT_EQ(cache.Match("[1,2,3,4,5]"), nullptr);
  RecentTexts<Entry> none(0);
  none.Insert(Make("[]", 0));
  EXPECT_EQ(none.Match("[]"), nullptr);
}

}  // namespace
}  // namespace gpusched
