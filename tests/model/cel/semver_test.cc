// Tests for gpusched::cel::Semver: blang/semver v4 Parse (semver.go) with its
// error texts and ordering, and semverlib.go's normalizing parse.
#include "gpusched/model/cel/semver.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

TEST(CelSemverTest, Parse) {
  struct Case {
    std::string in;
    std::string out;  // String() or the error
  };
  const std::vector<Case> cases = {
      {"1.2.3", "1.2.3"},
      {"0.0.0", "0.0.0"},
      {"580.95.5", "580.95.5"},
      {"1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5"},
      {"1.2.3-0.a-b", "1.2.3-0.a-b"},
      {"1.2.3+meta-data", "1.2.3+meta-data"},
      {"", "Version string empty"},
      {"1.2", "No Major.Minor.Patch elements found"},
      {"v1.2.3", "Invalid character(s) found in major number \"v1\""},
      {"01.2.3", "Major number must not contain leading zeroes \"01\""},
      {"1.02.3", "Minor number must not contain leading zeroes \"02\""},
      {"1.2.03", "Patch number must not contain leading zeroes \"03\""},
      {"1.x.3", "Invalid character(s) found in minor number \"x\""},
      {"1.2.x", "Invalid character(s) found in patch number \"x\""},
      {"1.2.3.4", "Invalid character(s) found in patch number \"3.4\""},
      {"1..3", "strconv.ParseUint: parsing \"\": invalid syntax"},
      {"1.2.3-", "Prerelease is empty"},
      {"1.2.3-01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
      {"1.2.3-a_b", "Invalid character(s) found in prerelease \"a_b\""},
      {"1.2.3+", "Build meta data is empty"},
      {"1.2.3+a_b", "Invalid character(s) found in build meta data \"a_b\""},
      {"18446744073709551616.0.0", "strconv.ParseUint: parsing \"18446744073709551616\": value out of range"},
      {"18446744073709551615.0.0", "18446744073709551615.0.0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    Result<Semver> v = Semver::Parse(c.in);
    EXPECT_EQ(v.ok() ? v->String() : v.status().message(), c.out);
  }
}

TEST(CelSemverTest, ParseNormalized) {
  struct Case {
    std::string in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"v1.2.3", "1.2.3"},  {"1", "1.0.0"},         {"1.2", "1.2.0"},     {"v01.002.0003", "1.2.3"},
      {"00.0.0", "0.0.0"},  {"1.2.3-rc.1", "1.2.3-rc.1"},
      {"1.2-rc", "short version cannot contain PreRelease/Build meta data"},
      {"", "strconv.ParseUint: parsing \"\": invalid syntax"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    Result<Semver> v = Semver::ParseNormalized(c.in);
    EXPECT_EQ(v.ok() ? v->String() : v.status().message(), c.out);
  }
}

TEST(CelSemverTest, Compare) {
  // semver.org's precedence example, in order.
  const std::vector<std::string> ordered = {"1.0.0-alpha",      "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                            "1.0.0-beta",       "1.0.0-beta.2",  "1.0.0-beta.11",
                                            "1.0.0-rc.1",       "1.0.0",         "1.0.1",
                                            "1.1.0",            "2.0.0",         "10.0.0"};
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      SCOPED_TRACE(ordered[i] + " vs " + ordered[j]);
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(Semver::Parse(ordered[i])->Compare(*Semver::Parse(ordered[j])), want);
    }
  }
  // Build metadata does not order.
  EXPECT_EQ(Semver::Parse("1.0.0+a")->Compare(*Semver::Parse("1.0.0+b")), 0);
}

}  // namespace
}  // namespace gpusched::cel
