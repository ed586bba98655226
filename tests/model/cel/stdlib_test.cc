// Tests for the CEL standard library (model/cel/stdlib.cc) beyond the
// cel-spec conformance cases: conversions with Go's strconv texts, size in
// code points, matches with RE2, cross-type numeric comparisons and the
// checker-visible declarations (no overload for int == uint).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelStdlibTest, Functions) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"size('héllo') == 5 && 'héllo'.size() == 5 && size(b'\\xc3\\xa9') == 2", "true"},
      {"size([1, 2]) == 2 && {'a': 1}.size() == 1", "true"},
      {"'NVIDIA A100'.contains('A10') && 'gpu-0'.startsWith('gpu') && 'gpu-0'.endsWith('-0')", "true"},
      {"'A100'.matches('^A[0-9]+$') && matches('x', 'x') && !'a'.matches('^b')", "true"},
      {"'aaa'.matches('a{2}')", "true"},
      {"int('-12') == -12 && int(2.9) == 2 && int(-2.9) == -2 && int(5u) == 5", "true"},
      {"int('9223372036854775808') == 0",
       "error: strconv.ParseInt: parsing \"9223372036854775808\": value out of range"},
      {"int(' 1') == 1", "error: strconv.ParseInt: parsing \" 1\": invalid syntax"},
      {"uint('12') == 12u && uint(3) == 3u", "true"},
      {"uint('-1') == 1u", "error: strconv.ParseUint: parsing \"-1\": invalid syntax"},
      {"double('1e3') == 1000.0 && double(2) == 2.0", "true"},
      {"double('x') == 1.0", "error: strconv.ParseFloat: parsing \"x\": invalid syntax"},
      {"string(1.5) == '1.5' && string(1e6) == '1e+06' && string(12u) == '12' && string(true) == 'true'", "true"},
      {"bool('true') && !bool('F') && bool('1')", "true"},
      {"bool('yes')", "error: strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"bytes('é') == b'\\xc3\\xa9'", "true"},
      // Type values have no size estimate, so cel-go's estimator prices their
      // equality at the maximum: such a selector is too complex.
      {"type(1u) == uint", "compile: too complex, exceeds cost limit"},
      {"1 < 2u && 2u < 3.5 && -1 < 1u && 1.0 == dyn(1) && dyn(1u) == 1.0", "true"},
      {"1.0 == 1", "compile: compilation failed: ERROR: <input>:1:5: found no matching overload for '_==_' applied to "
                   "'(double, int)'\n | 1.0 == 1\n | ....^"},
      {"1 == 1u", "compile: compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied to "
                  "'(int, uint)'\n | 1 == 1u\n | ..^"},
      {"-(1u) == 1u", "compile: compilation failed: ERROR: <input>:1:1: found no matching overload for '-_' applied to "
                      "'(uint)'\n | -(1u) == 1u\n | ^"},
      {"2 in [1, 2] && 'a' in {'a': 1} && !(3 in [1, 2])", "true"},
      {"[1] + [2] == [1, 2] && 'a' + 'b' == 'ab' && b'a' + b'b' == b'ab'", "true"},
      {"-9223372036854775808 % -1 == 0", "error: integer overflow"},
      {"7 / -2 == -3 && 7 % -2 == 1 && -7 % 2 == -1", "true"},
      {"1.0 / 0.0 > 1e308 && -1.0 / 0.0 < -1e308", "true"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

}  // namespace
}  // namespace gpusched::cel
