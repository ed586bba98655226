#include "gpusched/io/name_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

// Inserts `names` in order, as a loader does (the position is where the
// object would be kept); returns, per name, whether it was new.
std::vector<bool> InsertAll(const std::vector<std::string>& names, size_t expected) {
  std::vector<std::string> kept;
  NameSet set(expected, [&kept](size_t i) -> std::string_view { return kept[i]; });
  std::vector<bool> fresh;
  for (const std::string& n : names) {
    const bool added = set.Insert(n, set.Prefetch(n), kept.size());
    if (added) kept.push_back(n);
    fresh.push_back(added);
  }
  EXPECT_EQ(set.size(), kept.size());
  return fresh;
}

struct Case {
  const char* name;
  std::vector<std::string> names;
  size_t expected;
  std::vector<bool> fresh;
};

TEST(NameSetTest, RefusesNamesSeenBefore) {
  const Case cases[] = {
      {"none", {}, 0, {}},
      {"distinct", {"a", "b", "c"}, 3, {true, true, true}},
      {"repeat", {"a", "b", "a", "b", "a"}, 5, {true, true, false, false, false}},
      {"empty name", {"", "", "x"}, 3, {true, false, true}},
      {"prefix is another name", {"pod", "pod-1", "pod"}, 3, {true, true, false}},
      // More names than expected: the array grows, and names inserted
      // before the growth are still found.
      {"more than expected", {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "a", "j"}, 1,
       {true, true, true, true, true, true, true, true, true, true, false, false}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(InsertAll(c.names, c.expected), c.fresh);
  }
}

TEST(NameSetTest, SizedOnceForTheExpectedNamesAndGrowsBeyond) {
  std::vector<std::string> kept;
  NameSet set(1000, [&kept](size_t i) -> std::string_view { return kept[i]; });
  // At most half full: 1000 names take 2048 slots.
  EXPECT_EQ(set.capacity(), 2048u);
  for (int i = 0; i < 5000; ++i) {
    kept.push_back("pod-" + std::to_string(i));
    ASSERT_TRUE(set.Insert(kept.back(), set.Prefetch(kept.back()), kept.size() - 1));
  }
  EXPECT_EQ(set.capacity(), 16384u);
  for (int i = 0; i < 5000; ++i) {
    const std::string n = "pod-" + std::to_string(i);
    EXPECT_FALSE(set.Insert(n, set.Prefetch(n), kept.size())) << n;
  }
  EXPECT_EQ(set.size(), 5000u);
}

}  // namespace
}  // namespace gpusched
