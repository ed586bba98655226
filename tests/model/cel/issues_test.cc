// Tests for FormatIssues: cel-go common/errors.go's display of compile
// errors (1-based line and code-point column, snippet, caret line with
// wide dots for multi-byte characters, sorting, truncation after 100).
#include "gpusched/model/cel/issues.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

TEST(CelIssuesTest, Display) {
  EXPECT_EQ(FormatIssues("a + b", {{4, "m"}}), "ERROR: <input>:1:5: m\n | a + b\n | ....^");
  EXPECT_EQ(FormatIssues("a\n  b", {{4, "m"}}), "ERROR: <input>:2:3: m\n |   b\n | ..^");
  EXPECT_EQ(FormatIssues("x", {{kNoLocation, "limit"}}), "ERROR: <input>:-1:0: limit");
  // A wide character before the caret prints as a wide dot, one at the caret
  // as a wide caret; tabs show as spaces.
  EXPECT_EQ(FormatIssues("\xc3\xa9\txy", {{3, "m"}}), "ERROR: <input>:1:3: m\n | \xc3\xa9 xy\n | \xef\xbc\x8e.^");
  EXPECT_EQ(FormatIssues("a\xc3\xa9", {{1, "m"}}), "ERROR: <input>:1:2: m\n | a\xc3\xa9\n | .\xef\xbc\xbe");
  // At the end of the input.
  EXPECT_EQ(FormatIssues("ab", {{2, "m"}}), "ERROR: <input>:1:3: m\n | ab\n | ..^");
  // Sorted by position.
  EXPECT_EQ(FormatIssues("ab", {{1, "second"}, {0, "first"}}),
            "ERROR: <input>:1:1: first\n | ab\n | ^\nERROR: <input>:1:2: second\n | ab\n | .^");
}

TEST(CelIssuesTest, TruncatesAfterHundred) {
  std::vector<Issue> issues(102, Issue{0, "e"});
  std::string out = FormatIssues("x", issues);
  EXPECT_EQ(out.substr(out.rfind('\n') + 1), "2 more errors were truncated");
}

}  // namespace
}  // namespace gpusched::cel
