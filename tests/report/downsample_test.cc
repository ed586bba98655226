#include "gpusched/report/downsample.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpusched {
namespace {

TEST(DownsampleTest, Table) {
  const std::vector<double> ys = {0, 5, 1, 9, 2, 3, 8, 0, 4, 7};
  struct Case {
    size_t max_points;
    std::vector<size_t> want;
  };
  const Case cases[] = {
      {10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},  // fits: every point
      {20, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
      {6, {0, 2, 3, 6, 7, 9}},  // two buckets [1,5) and [5,9), each its min and max in index order
      {5, {0, 3, 7, 9}},        // one bucket: the 9 and the 0
      {2, {0, 3, 7, 9}},        // below 4 is taken as 4
  };
  for (const auto& c : cases) EXPECT_EQ(DownsampleIndices(ys, c.max_points), c.want) << c.max_points;
}

TEST(DownsampleTest, EmptyAndFlat) {
  EXPECT_TRUE(DownsampleIndices({}, 2000).empty());
  // A flat stretch keeps one point per bucket, not two.
  EXPECT_EQ(DownsampleIndices(std::vector<double>(10, 1.0), 6), (std::vector<size_t>{0, 1, 5, 9}));
}

TEST(DownsampleTest, KeepsSpikeWithinBudget) {
  std::vector<double> ys(100000, 1.0);
  ys[31337] = 500;  // a one-sample burst of pending pods
  ys[77777] = -3;
  std::vector<size_t> got = DownsampleIndices(ys, 2000);
  EXPECT_LE(got.size(), 2000u);
  EXPECT_EQ(got.front(), 0u);
  EXPECT_EQ(got.back(), ys.size() - 1);
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
  EXPECT_NE(std::find(got.begin(), got.end(), 31337u), got.end());
  EXPECT_NE(std::find(got.begin(), got.end(), 77777u), got.end());
}

}  // namespace
}  // namespace gpusched
