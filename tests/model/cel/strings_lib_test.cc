// Tests for cel-go ext.Strings version 2 (model/cel/strings_lib.cc):
// code-point indexing, Go's strings.Split/Replace/TrimSpace semantics and
// the error texts of ext/strings.go. cel-spec's string_ext conformance cases
// run in conformance_test.cc; these add the edges we rely on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelStringsLibTest, Functions) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"'héllo'.charAt(1) == 'é'", "true"},
      {"'abc'.charAt(3) == ''", "true"},
      {"'abc'.charAt(4) == ''", "error: index out of range: 4"},
      {"'abc'.charAt(-1) == ''", "error: index out of range: -1"},
      {"'aéb'.indexOf('b') == 2", "true"},
      {"'abcabc'.lastIndexOf('bc') == 4", "true"},
      {"'abc'.lastIndexOf('') == 3", "true"},
      {"'NVIDIA A100'.lowerAscii() == 'nvidia a100'", "true"},
      {"'ÀbC'.upperAscii() == 'ÀBC'", "true"},
      {"'a-b-c'.replace('-', '+') == 'a+b+c'", "true"},
      {"'a-b-c'.replace('-', '+', 1) == 'a+b-c'", "true"},
      {"'ab'.replace('', '.') == '.a.b.'", "true"},
      {"'ab'.replace('', '.', 2) == '.a.b'", "true"},
      {"'a,b,,c'.split(',') == ['a', 'b', '', 'c']", "true"},
      {"'a,b,c'.split(',', 2) == ['a', 'b,c']", "true"},
      {"'a,b,c'.split(',', 0) == []", "true"},
      {"'aé'.split('') == ['a', 'é']", "true"},
      {"''.split(',') == ['']", "true"},
      {"'hello'.substring(1) == 'ello'", "true"},
      {"'hello'.substring(1, 3) == 'el'", "true"},
      {"'hello'.substring(3, 1) == ''", "error: invalid substring range. start: 3, end: 1"},
      {"'hello'.substring(6) == ''", "error: index out of range: 6"},
      {"'hello'.substring(1, 9) == ''", "error: index out of range: 9"},
      {"'  \\t x \\n'.trim() == 'x'", "true"},
      {"'\\u00a0x\\u3000'.trim() == 'x'", "true"},
      {"['a', 'b'].join() == 'ab'", "true"},
      {"['a', 'b'].join(', ') == 'a, b'", "true"},
      {"[].join('-') == ''", "true"},
      {"dyn([1]).join() == ''", "error: join: invalid input: 1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelStringsLibTest, ReplaceResultIsBounded) {
  // 5000 * 5001 bytes would be asked for; our 16 MiB guard stops it.
  std::string s(5000, 'x');
  EXPECT_EQ(Outcome("cel.bind(s, '" + s + "', s.replace('', s).size() > 0)"),
            "error: replace: result larger than 16 MiB");
  std::string t(1000, 'x');  // 1001 copies of t around its 1000 characters
  EXPECT_EQ(Outcome("cel.bind(s, '" + t + "', s.replace('', s).size() == 1002000)"), "true");
}

}  // namespace
}  // namespace gpusched::cel
