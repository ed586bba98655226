// matchAttribute and distinctAttribute constraints (allocator_constraints.h).
#include "gpusched/sched/plugins/dynamicresources/allocator_constraints.h"

#include <gtest/gtest.h>

namespace gpusched::dra {
namespace {

DeviceAttribute Str(const std::string& v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kString;
  a.string_value = v;
  return a;
}
DeviceAttribute Int(int64_t v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kInt;
  a.int_value = v;
  return a;
}
DeviceAttribute Version(const std::string& v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kVersion;
  a.string_value = v;
  return a;
}

Device WithAttr(const std::string& name, const DeviceAttribute& value) {
  Device d;
  d.name = "dev";
  d.attributes[name] = value;
  return d;
}

TEST(AllocatorConstraintsTest, LookupAttribute) {
  Device d;
  d.attributes["numa"] = Int(1);
  d.attributes["other.example.com/numa"] = Int(2);
  struct Case {
    const char* name;
    const char* driver;
    const DeviceAttribute* want;
  };
  const Case cases[] = {
      {"driver-a/numa", "driver-a", &d.attributes["numa"]},  // the driver's domain reads unqualified names
      {"other.example.com/numa", "driver-a", &d.attributes["other.example.com/numa"]},
      {"driver-b/numa", "driver-a", nullptr},
      {"numa", "driver-a", &d.attributes["numa"]},  // an exact key matches first
      {"driver-a/missing", "driver-a", nullptr},
  };
  for (const Case& c : cases) EXPECT_EQ(LookupAttribute(d, c.driver, c.name), c.want) << c.name;
}

TEST(AllocatorConstraintsTest, MatchAttribute) {
  AttributeConstraint c(AttributeConstraint::Kind::kMatch, {}, "driver-a/numa");
  EXPECT_FALSE(c.Add("r", "", Device{}, "driver-a"));                  // lacks the attribute
  EXPECT_TRUE(c.Add("r", "", WithAttr("numa", Int(1)), "driver-a"));   // first: any value
  EXPECT_TRUE(c.Add("r", "", WithAttr("numa", Int(1)), "driver-a"));
  EXPECT_FALSE(c.Add("r", "", WithAttr("numa", Int(2)), "driver-a"));
  EXPECT_FALSE(c.Add("r", "", WithAttr("numa", Str("1")), "driver-a"));  // another kind never matches
  c.Remove("r", "");
  c.Remove("r", "");
  EXPECT_TRUE(c.Add("r", "", WithAttr("numa", Int(2)), "driver-a"));  // empty again: any value
}

TEST(AllocatorConstraintsTest, MatchAttributeVersionsCompareAsText) {
  AttributeConstraint c(AttributeConstraint::Kind::kMatch, {}, "driver-a/v");
  EXPECT_TRUE(c.Add("r", "", WithAttr("v", Version("1.2.3")), "driver-a"));
  EXPECT_TRUE(c.Add("r", "", WithAttr("v", Version("1.2.3")), "driver-a"));
  EXPECT_FALSE(c.Add("r", "", WithAttr("v", Version("1.2.4")), "driver-a"));
}

TEST(AllocatorConstraintsTest, RequestsLimitWhatTheConstraintSees) {
  AttributeConstraint c(AttributeConstraint::Kind::kMatch, {"a", "b/sub"}, "driver-a/numa");
  EXPECT_TRUE(c.Add("x", "", Device{}, "driver-a"));  // not its request: always fine
  EXPECT_TRUE(c.Add("a", "", WithAttr("numa", Int(1)), "driver-a"));
  EXPECT_FALSE(c.Add("b", "sub", WithAttr("numa", Int(2)), "driver-a"));  // "<request>/<subrequest>" named
  EXPECT_TRUE(c.Add("b", "other", WithAttr("numa", Int(2)), "driver-a"));  // another subrequest: not seen
  EXPECT_FALSE(c.Add("a", "any", WithAttr("numa", Int(2)), "driver-a"));   // the parent's name covers its subrequests
}

TEST(AllocatorConstraintsTest, DistinctAttributeKeepsOneValuePerRequest) {
  AttributeConstraint c(AttributeConstraint::Kind::kDistinct, {}, "driver-a/numa");
  EXPECT_TRUE(c.Add("a", "", WithAttr("numa", Int(1)), "driver-a"));
  EXPECT_FALSE(c.Add("b", "", WithAttr("numa", Int(1)), "driver-a"));
  EXPECT_TRUE(c.Add("b", "", WithAttr("numa", Int(2)), "driver-a"));
  // v1.35 keeps the values by request name: a request's second device
  // replaces its first, and is compared with the others' only.
  EXPECT_TRUE(c.Add("a", "", WithAttr("numa", Int(3)), "driver-a"));
  EXPECT_TRUE(c.Add("c", "", WithAttr("numa", Int(1)), "driver-a"));
  EXPECT_FALSE(c.Add("d", "", WithAttr("numa", Int(3)), "driver-a"));
}

}  // namespace
}  // namespace gpusched::dra
