#include "gpusched/report/fixed_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpusched {
namespace {

TEST(FixedFormatTest, FormatFixed) {
  struct Case {
    double v;
    int decimals;
    const char* want;
  };
  const Case cases[] = {
      {12.5, 2, "12.50"},
      {2.0 / 3, 4, "0.6667"},
      {-1.5, 1, "-1.5"},
      {-0.001, 2, "0.00"},  // no "-0.00"
      {-0.0, 1, "0.0"},
      {1e6, 0, "1000000"},
      {std::nan(""), 2, "nan"},
      {std::numeric_limits<double>::infinity(), 2, "inf"},
      {-std::numeric_limits<double>::infinity(), 2, "-inf"},
  };
  for (const auto& c : cases) EXPECT_EQ(FormatFixed(c.v, c.decimals), c.want) << c.v;
}

TEST(FixedFormatTest, FormatGpus) {
  struct Case {
    int64_t milli;
    const char* want;
  };
  const Case cases[] = {{0, "0"},       {2000, "2"},     {500, "0.5"},     {1250, "1.25"},
                        {1001, "1.001"}, {-1500, "-1.5"}, {80000, "80"}};
  for (const auto& c : cases) EXPECT_EQ(FormatGpus(c.milli), c.want) << c.milli;
}

TEST(FixedFormatTest, Durations) {
  struct Case {
    double max_seconds;
    double value;
    const char* unit;
    const char* want;
  };
  const Case cases[] = {
      {0, 0, "s", "0.0"},           {119.9, 42, "s", "42.0"},    {120, 42, "min", "0.7"},
      {7199, 5400, "min", "90.0"},  {7200, 5400, "h", "1.50"},   {90000, 90000, "h", "25.00"},
      {std::nan(""), 3, "s", "3.0"},  // an unusable maximum falls back to seconds
  };
  for (const auto& c : cases) {
    DurationUnit u = ChooseDurationUnit(c.max_seconds);
    EXPECT_EQ(u.name, c.unit) << c.max_seconds;
    EXPECT_EQ(FormatDuration(c.value, u), c.want) << c.max_seconds;
  }
}

}  // namespace
}  // namespace gpusched
