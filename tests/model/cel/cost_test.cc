// Tests for the cost estimator (model/cel/cost.cc) beyond upstream's
// compile_test.go costs (device_selector_test.cc): each expected value is
// worked out by hand from cel-go checker/cost.go and k8s library/cost.go,
// as the comment next to it shows (the device's declared sizes: driver 63,
// domain 63, id 32, attribute 64, 32 entries per map).
#include "gpusched/model/cel/cost.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "gpusched/model/cel/device_selector.h"

namespace gpusched::cel {
namespace {

TEST(CelCostTest, Estimates) {
  struct Case {
    std::string expr;
    uint64_t cost;
  };
  const std::string attr = "device.attributes['d'].s";  // cost 4, size 64
  const std::vector<Case> cases = {
      {"true", 0},
      {"device.driver == device.driver", 2 + 2 + 7},  // min(63, 63) * 0.1
      {attr + ".lowerAscii() == 'x'", 4 + 7 + 1},      // 64 * 0.1, then min(64, 1) * 0.1
      {attr + ".startsWith('ab')", 4 + 1},              // size of the prefix * 0.1
      {attr + ".contains('ab')", 4 + 7 * 1},            // (64 * 0.1) * (2 * 0.1)
      {attr + ".matches('a')", 4 + 7 * 1},              // ((64 + 1) * 0.1) * (1 * 0.25)
      {"'a' + 'b' == 'ab'", 1 + 1},                     // (1 + 1) * 0.1, then min(2, 2) * 0.1
      {"'x' in ['a', 'b']", 10 + 2},                    // a list literal, then its 2 elements
      {"[1, 2, 3].map(x, x * 2).size() > 0", 10 + 10 + 3 * 14 + 1 + 1 + 1},
      {"cel.bind(x, 'abc', x.size() == 3)", 10 + 0 + (1 + 1 + 1)},
      {"true ? " + attr + " == 'a' : false", 0 + 5},    // the costlier branch
      {"device.attributes.all(d, d.size() < 10)", 2 + 0 + 32 * (2 + (1 + 1 + 1 + 1)) + 1},
      {"quantity('10Gi').isLessThan(quantity('20Gi'))", 1 + 1 + 1},  // 4 characters * 0.1 each
      {attr + ".split(',').size() > 1", 4 + 13 + 1 + 1},            // 64 * 0.2
      {attr + ".find('[0-9]+') == '1'", 4 + 7 * 2 + 1},             // ((64 + 1) * 0.1) * (6 * 0.25)
      {"dyn(device.driver) == 'a'", 1 + 2 + 1},                     // dyn keeps its argument's size
      // Two variables: the value's size is the attribute's (64).
      {"device.attributes['d'].exists(k, v, v == 'abc')", 3 + 0 + 32 * (3 + (1 + 1 + 1)) + 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    CompileOptions opts;
    opts.max_cost = std::numeric_limits<uint64_t>::max();
    Result<DeviceSelector> s = DeviceSelector::Compile(c.expr, opts);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_EQ(s->max_cost(), c.cost);
  }
}

TEST(CelCostTest, UnboundedInputs) {
  // Strings of unknown size make comparisons and regexes unbounded, which
  // validation rejects ("too complex, exceeds cost limit").
  for (const char* expr : {"device.attributes['d'].s.split(',').exists(x, x.matches('a'))",
                           "device.attributes['d'].s.lowerAscii().split(',').join('-') == 'x'"}) {
    SCOPED_TRACE(expr);
    Result<DeviceSelector> s = DeviceSelector::Compile(expr);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().message(), "too complex, exceeds cost limit");
  }
}

}  // namespace
}  // namespace gpusched::cel
