// Tests for Go's float formatting and parsing as CEL's string(double) and
// double(string) use them (strconv.FormatFloat 'g' -1, ParseFloat).
#include "gpusched/model/cel/format_double.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

TEST(CelFormatDoubleTest, FormatLikeGo) {
  struct Case {
    double in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {0.0, "0"},          {-0.0, "-0"},          {1.0, "1"},           {1.5, "1.5"},
      {-2.25, "-2.25"},    {100.0, "100"},        {123456.0, "123456"}, {1e6, "1e+06"},
      {1234567.0, "1.234567e+06"}, {0.0001, "0.0001"}, {0.00001, "1e-05"}, {0.1, "0.1"},
      {1.0 / 3.0, "0.3333333333333333"}, {1e21, "1e+21"}, {1e100, "1e+100"}, {5e-324, "5e-324"},
      {std::numeric_limits<double>::infinity(), "+Inf"}, {-std::numeric_limits<double>::infinity(), "-Inf"},
      {std::nan(""), "NaN"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.out);
    EXPECT_EQ(FormatDoubleGo(c.in), c.out);
  }
}

TEST(CelFormatDoubleTest, ParseLikeGo) {
  EXPECT_EQ(ParseDoubleGo("1.5"), 1.5);
  EXPECT_EQ(ParseDoubleGo("-1e3"), -1000.0);
  EXPECT_EQ(ParseDoubleGo(".5"), 0.5);
  EXPECT_EQ(ParseDoubleGo("+2"), 2.0);
  EXPECT_EQ(ParseDoubleGo("Inf"), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(*ParseDoubleGo("NaN")));
  EXPECT_EQ(ParseDoubleGo(""), std::nullopt);
  EXPECT_EQ(ParseDoubleGo(" 1"), std::nullopt);
  EXPECT_EQ(ParseDoubleGo("1 "), std::nullopt);
  EXPECT_EQ(ParseDoubleGo("abc"), std::nullopt);
  EXPECT_EQ(ParseDoubleGo("1e999"), std::nullopt);  // out of range
}

}  // namespace
}  // namespace gpusched::cel
