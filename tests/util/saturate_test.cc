#include "gpusched/util/saturate.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(SaturateTest, Int32) {
  struct Case {
    int64_t in;
    int32_t want;
  };
  const Case cases[] = {
      {0, 0},
      {-7, -7},
      {INT32_MAX, INT32_MAX},
      {int64_t{INT32_MAX} + 1, INT32_MAX},
      {INT32_MIN, INT32_MIN},
      {int64_t{INT32_MIN} - 1, INT32_MIN},
      {INT64_MAX, INT32_MAX},
      {INT64_MIN, INT32_MIN},
  };
  for (const Case& c : cases) EXPECT_EQ(SaturateInt32(c.in), c.want) << c.in;
}

}  // namespace
}  // namespace gpusched
