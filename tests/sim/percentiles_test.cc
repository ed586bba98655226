#include "gpusched/sim/percentiles.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpusched {
namespace {

TEST(PercentilesTest, NearestRank) {
  // The nearest-rank method's textbook example: the smallest value with at
  // least p% of the sample at or below it, always a value of the sample.
  const std::vector<double> five = {15, 20, 35, 40, 50};
  struct Case {
    double p, want;
  } cases[] = {{5, 15}, {20, 15}, {30, 20}, {40, 20}, {50, 35}, {90, 50}, {100, 50}, {0.0001, 15}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.p);
    EXPECT_EQ(NearestRank(five, c.p), c.want);
  }
  EXPECT_EQ(NearestRank({}, 50), 0);
  EXPECT_EQ(NearestRank({7}, 1), 7);
  EXPECT_EQ(NearestRank({7}, 100), 7);
}

TEST(PercentilesTest, ComputePercentilesSortsAndSummarises) {
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);  // 100 .. 1, unsorted input
  Percentiles p = ComputePercentiles(hundred);
  EXPECT_EQ(p.count, 100);
  EXPECT_EQ(p.p50, 50);
  EXPECT_EQ(p.p90, 90);
  EXPECT_EQ(p.p99, 99);
  EXPECT_EQ(p.max, 100);
  EXPECT_DOUBLE_EQ(p.mean, 50.5);

  Percentiles empty = ComputePercentiles({});
  EXPECT_EQ(empty.count, 0);
  EXPECT_EQ(empty.p50, 0);
  EXPECT_EQ(empty.max, 0);
  EXPECT_EQ(empty.mean, 0);

  Percentiles skewed = ComputePercentiles({0, 0, 0, 1000});
  EXPECT_EQ(skewed.p50, 0);
  EXPECT_EQ(skewed.p90, 1000);
  EXPECT_EQ(skewed.max, 1000);
  EXPECT_DOUBLE_EQ(skewed.mean, 250);
}

}  // namespace
}  // namespace gpusched
