#include "gpusched/report/html_escape.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(HtmlEscapeTest, Table) {
  struct Case {
    std::string in;
    std::string want;
  };
  const Case cases[] = {
      {"plain-name_1.2", "plain-name_1.2"},
      {"a<&>b", "a&lt;&amp;&gt;b"},
      {"say \"hi\" 'there'", "say &quot;hi&quot; &#39;there&#39;"},
      {"&amp;", "&amp;amp;"},  // escaped once more: text is never taken as markup
      {"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
      {std::string("nul\0bell\x07", 9), "nul\xEF\xBF\xBD" "bell\xEF\xBF\xBD"},
      {"caf\xC3\xA9", "caf\xC3\xA9"},  // UTF-8 passes through
      {"", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(HtmlEscape(c.in), c.want) << c.in;
}

}  // namespace
}  // namespace gpusched
