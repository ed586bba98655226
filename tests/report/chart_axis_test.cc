#include "gpusched/report/chart_axis.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(ChartAxisTest, NiceAxisLabels) {
  struct Case {
    double lo, hi;
    int target;
    bool integer_steps;
    std::vector<std::string> want;  // tick labels
  };
  const Case cases[] = {
      {0, 100, 5, false, {"0", "20", "40", "60", "80", "100"}},
      {0, 100, 6, false, {"0", "20", "40", "60", "80", "100"}},
      {0, 27.8, 6, false, {"0", "5", "10", "15", "20", "25", "30"}},
      {0, 7.3, 5, false, {"0", "2", "4", "6", "8"}},
      {0, 0.37, 5, false, {"0.0", "0.1", "0.2", "0.3", "0.4"}},
      {0, 0.3, 3, false, {"0.0", "0.1", "0.2", "0.3"}},  // 0.1 * 3 would print 0.30000000000000004 unformatted
      {0, 0, 5, false, {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},  // empty range widened to [0, 1]
      {0, 3, 5, true, {"0", "1", "2", "3"}},
      {0, 1, 5, true, {"0", "1"}},  // pods: no 0.2 steps
      {0, 1e6, 5, false, {"0", "200000", "400000", "600000", "800000", "1000000"}},
      {-7, 12, 4, false, {"-10", "-5", "0", "5", "10", "15"}},
      {0, 0.0042, 4, false, {"0.000", "0.002", "0.004", "0.006"}},
  };
  for (const auto& c : cases) {
    Axis a = NiceAxis(c.lo, c.hi, c.target, c.integer_steps);
    std::vector<std::string> got;
    for (double t : a.ticks) got.push_back(TickLabel(a, t));
    EXPECT_EQ(got, c.want) << c.lo << ".." << c.hi;
    EXPECT_EQ(a.lo, a.ticks.front());
    EXPECT_EQ(a.hi, a.ticks.back());
  }
}

TEST(ChartAxisTest, TicksAreTheNearestDoubles) {
  Axis a = NiceAxis(0, 0.3, 3);
  ASSERT_EQ(a.ticks.size(), 4u);
  EXPECT_EQ(a.ticks[3], 0.3);
  EXPECT_EQ(a.decimals, 1);
}

TEST(ChartAxisTest, ChooseTimeScale) {
  struct Case {
    double max_seconds;
    double per_unit;
    const char* unit;
  };
  const Case cases[] = {{0, 1, "s"}, {100, 1, "s"}, {7199, 1, "s"}, {7200, 3600, "h"}, {86400 * 30, 3600, "h"}};
  for (const auto& c : cases) {
    TimeScale ts = ChooseTimeScale(c.max_seconds);
    EXPECT_EQ(ts.seconds_per_unit, c.per_unit) << c.max_seconds;
    EXPECT_EQ(ts.unit, c.unit) << c.max_seconds;
  }
}

}  // namespace
}  // namespace gpusched
