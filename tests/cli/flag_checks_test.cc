#include "gpusched/cli/flag_checks.h"

#include <gtest/gtest.h>

#include <limits>

namespace gpusched {
namespace {

std::string Check(const CLI::Validator& v, std::string value) { return v(value); }

TEST(FlagChecksTest, WholeNumber) {
  const CLI::Validator v = WholeNumber(1, 256);
  EXPECT_EQ(Check(v, "1"), "");
  EXPECT_EQ(Check(v, "256"), "");
  for (const char* bad : {"0", "257", "-1", "+3", "1.0", "", " 2", "0x10", "99999999999999999999999"})
    EXPECT_EQ(Check(v, bad), std::string("invalid value \"") + bad + "\": must be a whole number from 1 to 256") << bad;
  EXPECT_EQ(Check(WholeNumber(0, std::numeric_limits<uint64_t>::max()), "18446744073709551615"), "");
}

TEST(FlagChecksTest, Number) {
  const CLI::Validator v = Number(0, 10, "a multiple of GPU capacity", "(0: off)");
  for (const char* ok : {"0", "1.3", "10", "1e1", "0.0"}) EXPECT_EQ(Check(v, ok), "") << ok;
  for (const char* bad : {"-3", "10.5", "nan", "inf", "", "1.3x", "abc"})
    EXPECT_EQ(Check(v, bad),
              std::string("invalid value \"") + bad + "\": must be a multiple of GPU capacity from 0 to 10 (0: off)")
        << bad;
  const CLI::Validator seconds = Number(0, std::numeric_limits<double>::infinity(), "a number of seconds");
  EXPECT_EQ(Check(seconds, "1e9"), "");
  EXPECT_EQ(Check(seconds, "-0.5"), "invalid value \"-0.5\": must be a number of seconds, 0 or more");
}

TEST(FlagChecksTest, CountOrAll) {
  const CLI::Validator v = CountOrAll();
  EXPECT_EQ(Check(v, "all"), "");
  EXPECT_EQ(Check(v, "20"), "");
  EXPECT_EQ(Check(v, "0"), "invalid value \"0\": must be a whole number, 1 or more, or \"all\"");
  EXPECT_EQ(Check(v, "All"), "invalid value \"All\": must be a whole number, 1 or more, or \"all\"");
  EXPECT_EQ(ParseCountOrAll("20"), 20u);
  EXPECT_EQ(ParseCountOrAll("all"), std::numeric_limits<size_t>::max());
}

}  // namespace
}  // namespace gpusched
