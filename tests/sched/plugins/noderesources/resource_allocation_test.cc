// Ported from k8s.io/kubernetes pkg/scheduler/framework/plugins/noderesources/
// resource_allocation_test.go (a v1.34+ version, 65fa3971, with DRA cases):
// TestResourceAllocationScorerCalculateRequests (all 8) and
// TestCalculateResourceAllocatableRequest (the 2 device-plugin cases; the
// DRA-backed cases need ResourceSlices, not modelled).
#include "gpusched/sched/plugins/noderesources/resource_allocation.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "../../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNode;

Container C(const scoretest::Reqs& requests) { return Container{"c", "img", scoretest::ToList(requests), {}, ""}; }

TEST(NodeResourcesFitScoreTest, ResourceAllocationScorerCalculateRequests) {
  constexpr int64_t kOneMi = 1048576;
  struct Case {
    const char* name;
    Pod pod;
    std::map<std::string, int64_t> expected;
  };
  auto make = [](std::vector<Container> init, std::vector<Container> containers, const scoretest::Reqs& overhead) {
    Pod p;
    p.init_containers = std::move(init);
    p.containers = std::move(containers);
    p.overhead = scoretest::ToList(overhead);
    return p;
  };
  const scoretest::Reqs one = {{"cpu", "1"}, {"memory", "1Mi"}};
  const std::vector<Case> cases = {
      {"overhead only", make({}, {}, one), {{"cpu", 1000}, {"memory", kOneMi}}},
      {"1x requestless container", make({}, {C({})}, {}),
       {{"cpu", kDefaultMilliCPURequest}, {"memory", kDefaultMemoryRequest}}},
      // should accumulate once per container without a request
      {"2x requestless container", make({}, {C({}), C({})}, {}),
       {{"cpu", 2 * kDefaultMilliCPURequest}, {"memory", 2 * kDefaultMemoryRequest}}},
      {"request container + requestless container", make({}, {C(one), C({})}, {}),
       {{"cpu", 1000 + kDefaultMilliCPURequest}, {"memory", kOneMi + kDefaultMemoryRequest}}},
      {"container + requestless container + overhead", make({}, {C(one), C({})}, one),
       {{"cpu", 2000 + kDefaultMilliCPURequest}, {"memory", 2 * kOneMi + kDefaultMemoryRequest}}},
      {"init container + container + requestless container + overhead", make({C({{"cpu", "3"}})}, {C(one), C({})}, one),
       {{"cpu", 4000}, {"memory", 2 * kOneMi + kDefaultMemoryRequest}}},
      {"requestless init container + small init container + small container ",
       make({C({}), C({{"cpu", "1m"}, {"memory", "1"}})}, {C({{"cpu", "3m"}, {"memory", "3"}})}, {}),
       {{"cpu", kDefaultMilliCPURequest}, {"memory", kDefaultMemoryRequest}}},
      {"requestless init container + small init container + small container + requestless container ",
       make({C({}), C({{"cpu", "1m"}, {"memory", "1"}})}, {C({{"cpu", "3m"}, {"memory", "3"}}), C({})}, {}),
       {{"cpu", 3 + kDefaultMilliCPURequest}, {"memory", 3 + kDefaultMemoryRequest}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const PodInfo info = PodInfo::Make(c.pod, 0);
    for (const auto& [resource, want] : c.expected) {
      SCOPED_TRACE(resource);
      EXPECT_EQ(PodResourceRequest(info, resource, /*use_requested=*/false), want);
    }
  }
}

TEST(NodeResourcesFitScoreTest, CalculateResourceAllocatableRequest) {
  // "device-plugin-resource-feature-disabled" and "...-feature-enabled": a
  // device-plugin extended resource scores the same with or without the
  // DRAExtendedResource gate.
  const char* kExplicitExtendedResource = "example.com/gpu";  // stands in for upstream's extendedResourceName
  for (const char* name : {"device-plugin-resource-feature-disabled", "device-plugin-resource-feature-enabled"}) {
    SCOPED_TRACE(name);
    const auto cluster = MakeCluster({MakeNode("resource-node", {{kExplicitExtendedResource, "4"}})});
    const AllocatableRequest ar = CalculateResourceAllocatableRequest(cluster.state(0), kExplicitExtendedResource, 1,
                                                                      /*use_requested=*/false);
    EXPECT_EQ(ar.allocatable, 4);
    EXPECT_EQ(ar.requested, 1);
  }
}

}  // namespace
}  // namespace gpusched
