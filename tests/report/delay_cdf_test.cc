#include "gpusched/report/delay_cdf.h"

#include <gtest/gtest.h>

#include "sim_fixture.h"

namespace gpusched {
namespace {

TEST(DelayCdfTest, QueueingDelaysOfStartedPods) {
  // a: bound at arrival; b: waited 30 s; c and d never started.
  EXPECT_EQ(QueueingDelays(testing::TinyRun()), (std::vector<double>{0, 30}));
}

TEST(DelayCdfTest, EmpiricalCdf) {
  struct Case {
    std::vector<double> values;
    std::vector<std::pair<double, double>> want;
  };
  const Case cases[] = {
      {{}, {}},
      {{0, 30}, {{0, 0}, {0, 50}, {30, 100}}},
      {{30, 0, 30, 0}, {{0, 0}, {0, 50}, {30, 100}}},  // ties make one step
      {{5, 1, 2, 4}, {{1, 0}, {1, 25}, {2, 50}, {4, 75}, {5, 100}}},
      {{7}, {{7, 0}, {7, 100}}},
  };
  for (const auto& c : cases) {
    std::vector<ChartPoint> got = EmpiricalCdf(c.values);
    ASSERT_EQ(got.size(), c.want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].x, c.want[i].first) << i;
      EXPECT_EQ(got[i].y, c.want[i].second) << i;
    }
  }
}

}  // namespace
}  // namespace gpusched
