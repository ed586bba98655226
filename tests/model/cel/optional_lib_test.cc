// Tests for cel.OptionalTypes (model/cel/optional_lib.cc and the optional
// paths of the parser, checker and interpreter). cel-spec's optionals
// conformance cases run in conformance_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelOptionalLibTest, Functions) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      // ofNonZeroValue: cel-go's zero values are none.
      {"!optional.ofNonZeroValue(0).hasValue() && !optional.ofNonZeroValue(0u).hasValue()", "true"},
      {"!optional.ofNonZeroValue([]).hasValue() && !optional.ofNonZeroValue({}).hasValue()", "true"},
      {"!optional.ofNonZeroValue(false).hasValue() && optional.ofNonZeroValue(true).hasValue()", "true"},
      {"!optional.ofNonZeroValue(quantity('0')).hasValue() && optional.ofNonZeroValue('x').hasValue()", "true"},
      {"optional.of(optional.none()).hasValue()", "true"},
      {"optional.none().orValue(3) == 3 && optional.of(1).or(optional.of(2)).value() == 1", "true"},
      {"optional.of(1).or(1 / 0 == 1 ? optional.none() : optional.none()).value() == 1", "true"},
      {"device.attributes['gpu.nvidia.com'].?driverVersion.value().major() == 580", "true"},
      {"device.capacity['gpu.nvidia.com'].?memory.orValue(quantity('0')).isGreaterThan(quantity('1Gi'))", "true"},
      {"1.?x.hasValue()", "compile: compilation failed: ERROR: <input>:1:2: type 'int' does not support field "
                          "selection\n | 1.?x.hasValue()\n | .^"},
      {"device.?nope.hasValue()", "compile: compilation failed: ERROR: <input>:1:7: undefined field 'nope'\n | "
                                  "device.?nope.hasValue()\n | ......^"},
      {"[?1]", "compile: compilation failed: ERROR: <input>:1:2: Syntax error: extraneous input '?' expecting "
               "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
               "IDENTIFIER}\n | [?1]\n | .^"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelOptionalLibTest, Equality) {
  // Optionals have no size estimate: comparing them is priced at the maximum.
  const std::string expr =
      "optional.of(1) == optional.of(1) && optional.none() == optional.none() && optional.of(1) != optional.none()";
  EXPECT_EQ(Outcome(expr), "compile: too complex, exceeds cost limit");
  CompileOptions unbounded;
  unbounded.max_cost = UINT64_MAX;
  EXPECT_EQ(Outcome(expr, testing::A100(), "gpu.nvidia.com", unbounded), "true");
}

}  // namespace
}  // namespace gpusched::cel
