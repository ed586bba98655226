#include "gpusched/model/duration.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// time.ParseDuration's grammar without a sign, plus bare seconds.
TEST(DurationTest, SecondsOrGoDurations) {
  struct Case {
    const char* text;
    std::optional<double> seconds;
  };
  const Case cases[] = {{"90", 90},        {"1.5", 1.5},      {".5", 0.5},         {"90s", 90},
                        {"5m", 300},       {"1h30m", 5400},   {"250ms", 0.25},     {"1.5h", 5400},
                        {"2us", 2e-6},     {"3ns", 3e-9},     {"", std::nullopt},  {"-5", std::nullopt},
                        {"+5", std::nullopt}, {"1e3", std::nullopt}, {"5 m", std::nullopt}, {"5d", std::nullopt},
                        {"m", std::nullopt}, {"NaN", std::nullopt}};
  for (const Case& c : cases) {
    const std::optional<double> got = ParseDurationSeconds(c.text);
    ASSERT_EQ(got.has_value(), c.seconds.has_value()) << c.text;
    // Sub-second units are scaled in floating point; equal to the last ulps.
    if (got) {
      EXPECT_DOUBLE_EQ(*got, *c.seconds) << c.text;
    }
  }
}

}  // namespace
}  // namespace gpusched
