// Tests for the resource vector and resource-name classification
// (src/model/resources.cc).
//
// Upstream sources (github.com/kubernetes/kubernetes):
//   pkg/apis/core/helper/helpers.go and helpers_test.go (TestIsStandardResource,
//     TestIsStandardContainerResource, TestIsHugePageResourceName,
//     TestIsOvercommitAllowed; IsExtendedResourceName, IsIntegerResourceName)
//   pkg/apis/core/v1/helper/helpers.go and helpers_test.go (TestIsNativeResource,
//     TestIsOvercommitAllowed; IsScalarResourceName, IsPrefixedNativeResource,
//     IsAttachableVolumeResourceName)
//   pkg/scheduler/framework/types.go and types_test.go (TestNewResource:
//     ResourceList -> framework.Resource, cpu by MilliValue, others by Value)
//
// Tests marked "ours" have no upstream table: Add/Sub/Max merge the scalar
// maps by name like framework.Resource's Add/SetMaxResource do, but saturate
// instead of wrapping (upstream's int64 arithmetic wraps), and FormatAmount
// is gpusched's own message formatting; their expectations come from the
// contracts in include/gpusched/model/resources.h.
#include "gpusched/model/resources.h"

#include <gtest/gtest.h>

#include "model_test_util.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/quantity.h"

namespace gpusched {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

using testing::Q;
using testing::RL;

Resources R(int64_t milli_cpu, int64_t memory, int64_t ephemeral, int64_t pods,
            std::vector<std::pair<std::string, int64_t>> scalars = {}) {
  Resources r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  r.ephemeral_storage = ephemeral;
  r.allowed_pods = pods;
  r.scalars = std::move(scalars);
  return r;
}

struct NameCase {
  std::string name;
  bool expect;
};

void RunNames(bool (*fn)(std::string_view), const std::vector<NameCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE("\"" + c.name + "\"");
    EXPECT_EQ(fn(c.name), c.expect);
  }
}

// v1/helper TestIsNativeResource.
TEST(ResourceNamesTest, IsNativeResource) {
  RunNames(IsNativeResource, {{"pod.alpha.kubernetes.io/opaque-int-resource-foo", true},
                              {"kubernetes.io/resource-foo", true},
                              {"foo", true},
                              {"a/b", false},
                              {"", true},
                              {"nvidia.com/gpu", false}});
}

// v1/helper and core/helper TestIsOvercommitAllowed.
TEST(ResourceNamesTest, IsOvercommitAllowed) {
  RunNames(IsOvercommitAllowed, {{"pod.alpha.kubernetes.io/opaque-int-resource-foo", true},
                                 {"kubernetes.io/resource-foo", true},
                                 {"hugepages-100m", false},
                                 {"", true},
                                 {"cpu", true},
                                 {"memory", true},
                                 {"hugepages-2Mi", false},
                                 {"nvidia.com/gpu", false}});
}

// core/helper TestIsHugePageResourceName.
TEST(ResourceNamesTest, IsHugePageResourceName) {
  RunNames(IsHugePageResourceName, {{"hugepages-2Mi", true}, {"hugepages-1Gi", true}, {"cpu", false}, {"memory", false}});
}

// core/helper TestIsStandardContainerResource (plus ephemeral-storage, the
// third member of standardContainerResources).
TEST(ResourceNamesTest, IsStandardContainerResourceName) {
  RunNames(IsStandardContainerResourceName, {{"cpu", true},
                                             {"memory", true},
                                             {"disk", false},
                                             {"hugepages-2Mi", true},
                                             {"ephemeral-storage", true},
                                             {"pods", false},
                                             {"nvidia.com/gpu", false}});
}

// core/helper IsExtendedResourceName: not native, no "requests." prefix, and
// "requests.<name>" must be a qualified name. Cases ours, from that code.
TEST(ResourceNamesTest, IsExtendedResourceName) {
  RunNames(IsExtendedResourceName, {{"nvidia.com/gpu", true},
                                    {"example.com/a", true},
                                    {"my.org/resource", true},
                                    {"cpu", false},
                                    {"kubernetes.io/foo", false},
                                    {"requests.example.com/a", false},
                                    // "requests." pushes a 250-byte prefix past 253 bytes.
                                    {std::string(250, 'a') + "/foo", false},
                                    {std::string(244, 'a') + "/foo", true},
                                    {"example.com/", false},
                                    {"a/b/c", false}});
}

// v1/helper IsScalarResourceName: extended, hugepages, prefixed native or
// attachable volumes.
TEST(ResourceNamesTest, IsScalarResourceName) {
  RunNames(IsScalarResourceName, {{"nvidia.com/gpu", true},
                                  {"hugepages-2Mi", true},
                                  {"kubernetes.io/foo", true},
                                  {"attachable-volumes-aws-ebs", true},
                                  {"cpu", false},
                                  {"memory", false},
                                  {"pods", false},
                                  {"disk", false}});
}

// core/helper IsIntegerResourceName: integerResources or extended.
TEST(ResourceNamesTest, IsIntegerResourceName) {
  RunNames(IsIntegerResourceName, {{"pods", true},
                                   {"resourcequotas", true},
                                   {"services", true},
                                   {"replicationcontrollers", true},
                                   {"secrets", true},
                                   {"configmaps", true},
                                   {"persistentvolumeclaims", true},
                                   {"services.nodeports", true},
                                   {"services.loadbalancers", true},
                                   {"nvidia.com/gpu", true},
                                   {"cpu", false},
                                   {"memory", false},
                                   {"hugepages-2Mi", false},
                                   {"kubernetes.io/foo", false}});
}

// types_test.go TestNewResource, then conversions of ours from types.go's
// Resource.Add: cpu by MilliValue(), everything else by Value() (both round
// up), unknown names dropped.
TEST(ResourcesTest, FromList) {
  struct Case {
    const char* name;
    ResourceList list;
    Resources expect;
  };
  const Case cases[] = {
      {"empty resource", {}, R(0, 0, 0, 0)},
      {"complex resource",
       RL({{"cpu", "4m"},
           {"memory", "2000"},
           {"pods", "80"},
           {"ephemeral-storage", "5000"},
           {"scalar.test/scalar1", "1"},
           {"hugepages-test", "2"}}),
       R(4, 2000, 5000, 80, {{"hugepages-test", 2}, {"scalar.test/scalar1", 1}})},
      {"binary suffixes", RL({{"cpu", "1500m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "8"}}),
       R(1500, 1073741824, 0, 0, {{"nvidia.com/gpu", 8}})},
      {"rounding up", RL({{"cpu", "0.1m"}, {"memory", "1.5"}}), R(1, 2, 0, 0)},
      {"unknown names are dropped", RL({{"disk", "10G"}, {"cpu", "1"}}), R(1000, 0, 0, 0)},
      {"prefixed native and attachable volumes are scalars",
       RL({{"kubernetes.io/foo", "3"}, {"attachable-volumes-aws-ebs", "39"}}),
       R(0, 0, 0, 0, {{"attachable-volumes-aws-ebs", 39}, {"kubernetes.io/foo", 3}})},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Resources::FromList(c.list), c.expect);
  }
}

// Ours: scalar accessors keep the vector sorted and unique.
TEST(ResourcesTest, ScalarAccessorsAndGet) {
  Resources r;
  r.SetScalar("nvidia.com/gpu", 2);
  r.SetScalar("example.com/a", 5);
  r.SetScalar("nvidia.com/gpu", 4);
  r.AddScalar("example.com/b", 1);
  r.AddScalar("example.com/a", 1);
  EXPECT_EQ(r.scalars, (std::vector<std::pair<std::string, int64_t>>{
                           {"example.com/a", 6}, {"example.com/b", 1}, {"nvidia.com/gpu", 4}}));
  EXPECT_TRUE(r.HasScalar("example.com/b"));
  EXPECT_FALSE(r.HasScalar("example.com/c"));
  EXPECT_EQ(r.Scalar("example.com/c"), 0);
  r.AddScalar("nvidia.com/gpu", kMax);
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), kMax);

  Resources s = R(1500, 2048, 4096, 110, {{"nvidia.com/gpu", 8}});
  struct Case {
    const char* name;
    int64_t expect;
  };
  const Case cases[] = {{"cpu", 1500}, {"memory", 2048}, {"ephemeral-storage", 4096}, {"pods", 110},
                        {"nvidia.com/gpu", 8}, {"example.com/a", 0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(s.Get(c.name), c.expect);
  }
}

// Ours: Add/Sub/Max work per dimension and merge scalars by name.
TEST(ResourcesTest, AddSubMax) {
  struct Case {
    const char* name;
    Resources a, b;
    Resources add, sub, max;
  };
  const Case cases[] = {
      {"disjoint scalars", R(1000, 10, 0, 1, {{"example.com/a", 1}}), R(500, 20, 5, 0, {{"nvidia.com/gpu", 2}}),
       R(1500, 30, 5, 1, {{"example.com/a", 1}, {"nvidia.com/gpu", 2}}),
       R(500, -10, -5, 1, {{"example.com/a", 1}, {"nvidia.com/gpu", -2}}),
       R(1000, 20, 5, 1, {{"example.com/a", 1}, {"nvidia.com/gpu", 2}})},
      {"shared scalar", R(0, 0, 0, 0, {{"nvidia.com/gpu", 3}}), R(0, 0, 0, 0, {{"nvidia.com/gpu", 5}}),
       R(0, 0, 0, 0, {{"nvidia.com/gpu", 8}}), R(0, 0, 0, 0, {{"nvidia.com/gpu", -2}}),
       R(0, 0, 0, 0, {{"nvidia.com/gpu", 5}})},
      {"empty operand", R(7, 7, 7, 7, {{"nvidia.com/gpu", 1}}), R(0, 0, 0, 0),
       R(7, 7, 7, 7, {{"nvidia.com/gpu", 1}}), R(7, 7, 7, 7, {{"nvidia.com/gpu", 1}}),
       R(7, 7, 7, 7, {{"nvidia.com/gpu", 1}})},
      // Max takes a scalar the left side lacks even when it is smaller than 0.
      {"max of a missing scalar", R(0, 0, 0, 0), R(0, 0, 0, 0, {{"example.com/a", -1}}),
       R(0, 0, 0, 0, {{"example.com/a", -1}}), R(0, 0, 0, 0, {{"example.com/a", 1}}),
       R(0, 0, 0, 0, {{"example.com/a", -1}})},
      // The merge walk inserts a missing name between, before and after the
      // ones present, and keeps the list sorted.
      {"interleaved scalars", R(0, 0, 0, 0, {{"b.io/x", 1}, {"d.io/x", 2}}),
       R(0, 0, 0, 0, {{"a.io/x", 5}, {"b.io/x", 1}, {"c.io/x", 3}, {"e.io/x", 4}}),
       R(0, 0, 0, 0, {{"a.io/x", 5}, {"b.io/x", 2}, {"c.io/x", 3}, {"d.io/x", 2}, {"e.io/x", 4}}),
       R(0, 0, 0, 0, {{"a.io/x", -5}, {"b.io/x", 0}, {"c.io/x", -3}, {"d.io/x", 2}, {"e.io/x", -4}}),
       R(0, 0, 0, 0, {{"a.io/x", 5}, {"b.io/x", 1}, {"c.io/x", 3}, {"d.io/x", 2}, {"e.io/x", 4}})},
      {"saturation", R(kMax, kMin, kMax, 0, {{"nvidia.com/gpu", kMax}}), R(1, 1, -1, 0, {{"nvidia.com/gpu", 1}}),
       R(kMax, kMin + 1, kMax - 1, 0, {{"nvidia.com/gpu", kMax}}), R(kMax - 1, kMin, kMax, 0, {{"nvidia.com/gpu", kMax - 1}}),
       R(kMax, 1, kMax, 0, {{"nvidia.com/gpu", kMax}})},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Resources add = c.a;
    add.Add(c.b);
    EXPECT_EQ(add, c.add);
    Resources sub = c.a;
    sub.Sub(c.b);
    EXPECT_EQ(sub, c.sub);
    Resources max = c.a;
    max.Max(c.b);
    EXPECT_EQ(max, c.max);
  }
}

// Ours: a vector added to or taken from itself (no scalar is missing, so
// nothing moves under the walk).
TEST(ResourcesTest, AddSubSelf) {
  Resources r = R(3, 4, 5, 6, {{"example.com/a", 1}, {"nvidia.com/gpu", 2}});
  r.Add(r);
  EXPECT_EQ(r, R(6, 8, 10, 12, {{"example.com/a", 2}, {"nvidia.com/gpu", 4}}));
  r.Sub(r);
  EXPECT_EQ(r, R(0, 0, 0, 0, {{"example.com/a", 0}, {"nvidia.com/gpu", 0}}));
}

// Ours: saturating arithmetic at the int64 edges.
TEST(ResourcesTest, SatAddSatSub) {
  struct Case {
    int64_t a, b, add, sub;
  };
  const Case cases[] = {
      {1, 2, 3, -1},
      {kMax, 1, kMax, kMax - 1},
      {kMax, kMax, kMax, 0},
      {kMin, -1, kMin, kMin + 1},
      {kMin, 1, kMin + 1, kMin},
      {0, kMin, kMin, kMax},
      {-1, kMin, kMin, kMax},
      {kMax, kMin, -1, kMax},
      {kMin, kMax, -1, kMin},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.a) + " op " + std::to_string(c.b));
    EXPECT_EQ(SatAdd(c.a, c.b), c.add);
    EXPECT_EQ(SatSub(c.a, c.b), c.sub);
  }
}

// Ours: FormatAmount's documented contract -- cpu as cores with milli
// precision, memory-like amounts with the largest exact binary suffix,
// everything else as an integer.
TEST(ResourcesTest, FormatAmount) {
  struct Case {
    const char* resource;
    int64_t value;
    std::string expect;
  };
  const Case cases[] = {
      {"cpu", 1500, "1.5"},
      {"cpu", 1000, "1"},
      {"cpu", 0, "0"},
      {"cpu", 1, "0.001"},
      {"cpu", 250, "0.25"},
      {"cpu", 63500, "63.5"},
      {"cpu", -1500, "-1.5"},
      {"cpu", -500, "-0.5"},
      {"cpu", kMin, "-9223372036854775.808"},
      {"memory", 64LL << 30, "64Gi"},
      {"memory", 1536LL << 20, "1536Mi"},
      {"memory", 1000, "1000"},
      {"memory", 0, "0"},
      {"memory", 1024, "1Ki"},
      {"memory", -1024, "-1Ki"},
      {"memory", 1LL << 60, "1Ei"},
      {"memory", kMin, "-8Ei"},
      {"ephemeral-storage", 2048, "2Ki"},
      {"hugepages-2Mi", 4LL << 20, "4Mi"},
      {"nvidia.com/gpu", 8, "8"},
      {"nvidia.com/gpu", 1024, "1024"},
      {"pods", 110, "110"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.resource) + " " + std::to_string(c.value));
    EXPECT_EQ(FormatAmount(c.resource, c.value), c.expect);
  }
}

}  // namespace
}  // namespace gpusched
