// The light pass over JSON text (src/io/json_scan.cc): where a value ends,
// where a List's items are, and line/column of positions. Expected values
// are counted by hand from the inputs.
#include "../../src/io/json_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace gpusched {
namespace {

using json_scan::ItemsSplit;
using json_scan::Locator;
using json_scan::SplitItems;
using json_scan::StringEnd;
using json_scan::ValueEnd;

// Containers longer than 16 bytes take the SSE2 path; escapes and brackets
// inside strings must not count.
TEST(JsonScanTest, ValueEnd) {
  struct Case {
    std::string text;
    long end;  // offset one past the value, -1 for nullptr
  } cases[] = {
      {R"("abc" , 1)", 5},
      {R"("a\"b\\" x)", 8},
      {"123,4", 3},
      {"true}", 4},
      {R"({"a":[1,2,{"b":"]}"}],"c":"\\"} tail)", 31},
      {R"([["x{[", "y]}\""], {"long key to pass sixteen bytes": [1, 2, 3]}] rest)", 65},
      {R"({"a":1)", -1},
      {R"("open)", -1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const char* p = c.text.data();
    const char* e = ValueEnd(p, p + c.text.size());
    EXPECT_EQ(e ? e - p : -1, c.end);
  }
  const std::string s = R"("a\\\"b" )";
  EXPECT_EQ(StringEnd(s.data(), s.data() + s.size()) - s.data(), 7);
}

TEST(JsonScanTest, SplitItems) {
  const std::string list = R"({"kind":"List", "items" : [ {"a":1} , [2], "s" ], "x":{}})";
  ItemsSplit split;
  ASSERT_TRUE(SplitItems(list.data(), list.data() + list.size(), split));
  EXPECT_EQ(split.open - list.data(), 26);
  EXPECT_EQ(split.close - list.data(), 47);
  std::vector<std::string> items;
  for (const auto& [a, b] : split.items) items.emplace_back(a, b);
  EXPECT_EQ(items, (std::vector<std::string>{R"({"a":1})", "[2]", R"("s")"}));

  const std::string empty = R"({"items":[]})";
  ASSERT_TRUE(SplitItems(empty.data(), empty.data() + empty.size(), split));
  EXPECT_TRUE(split.items.empty());
  EXPECT_EQ(split.close - empty.data(), 10);

  for (const std::string& text : {std::string(R"({"kind":"Pod"})"), std::string(R"({"items":{}})"),
                                 std::string("{}"), std::string(R"({"items":[1,)")}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(SplitItems(text.data(), text.data() + text.size(), split));
  }
}

TEST(JsonScanTest, LocatorCountsLinesForwards) {
  const std::string text = "ab\ncd\n\nef";
  Locator where(text.data(), 10);
  EXPECT_EQ(where(text.data()), (std::pair<int, int>{10, 1}));
  EXPECT_EQ(where(text.data() + 1), (std::pair<int, int>{10, 2}));
  EXPECT_EQ(where(text.data() + 4), (std::pair<int, int>{11, 2}));
  EXPECT_EQ(where(text.data() + 8), (std::pair<int, int>{13, 2}));
}

}  // namespace
}  // namespace gpusched
