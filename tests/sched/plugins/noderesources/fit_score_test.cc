// Ported from k8s.io/kubernetes pkg/scheduler/framework/plugins/noderesources:
//   least_allocated_test.go             TestLeastAllocatedScoringStrategy
//   most_allocated_test.go              TestMostAllocatedScoringStrategy
//   requested_to_capacity_ratio_test.go TestRequestedToCapacityRatioScoringStrategy,
//                                       TestBrokenLinearFunction (helper/shape_score.go has
//                                       no test file of its own), TestResourceBinPackingSingleExtended,
//                                       TestResourceBinPackingMultipleExtended
// The newest versions of least/most/rtc_test.go the search index holds are of
// the v1.32 era (backend/cache, Score by node name; most at 072825f9, rtc at
// 8519d339); resource_allocation_test.go's cases are in resource_allocation_test.cc.
// Pods, nodes, weights and expected scores are upstream's. Upstream's most
// table names two cases identically; the weighted one is suffixed "(weighted)".
// Not ported: the "resource with negative weight / zero weight / weight larger
// than MaxNodeScore" cases (3 in least, 3 in most): they test NewFit's args
// validation (wantErrs), which is config validation, not scoring. The
// "Resources not set" case expects an Error status with score 0 upstream; our
// ScorePlugin has no error status, so only the 0 scores are asserted.
#include <gtest/gtest.h>

#include "gpusched/sched/plugins/noderesources/fit.h"
#include "../../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNode;
using scoretest::MakeNodeWithExtended;
using scoretest::MakePod;
using scoretest::ScoreAll;

// noderesources test_util.go
constexpr const char* kExtendedRes = "abc.com/xyz";
const std::vector<ResourceSpec> kDefaultResources = {{"cpu", 1}, {"memory", 1}};
const std::vector<ResourceSpec> kExtendedResourceSet = {{"cpu", 1}, {"memory", 1}, {kExtendedRes, 1}};

struct FitScoreCase {
  const char* name;
  Pod requested_pod;
  std::vector<Node> nodes;
  std::vector<Pod> existing_pods;
  std::vector<int64_t> expected_scores;
  std::vector<ResourceSpec> resources;
};

void RunFitCases(ScoringStrategyType type, const std::vector<UtilizationShapePoint>& shape,
                 const std::vector<FitScoreCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    NodeResourcesFitArgs args;
    args.type = type;
    args.resources = c.resources;
    args.shape = shape;
    NodeResourcesFit plugin(args);
    EXPECT_TRUE(plugin.PreScore(PodInfo::Make(c.requested_pod, 0), ClusterState(std::vector<Node>{})));
    EXPECT_EQ(ScoreAll(plugin, c.requested_pod, MakeCluster(c.nodes, c.existing_pods)), c.expected_scores);
  }
}

const Pod kTwoContainers = MakePod({{{"cpu", "1000"}, {"memory", "2000"}}, {{"cpu", "2000"}, {"memory", "3000"}}});

TEST(NodeResourcesFitScoreTest, LeastAllocatedScoringStrategy) {
  const std::vector<FitScoreCase> cases = {
      // Node1/Node2: cpu ((4000 - 0) * 100) / 4000 = 100, memory 100 -> 100.
      {"nothing scheduled, nothing requested",
       MakePod(),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {kMaxNodeScore, kMaxNodeScore},
       kDefaultResources},
      // Node1: cpu 25, memory 50 -> 37. Node2: cpu 50, memory 50 -> 50.
      {"nothing scheduled, resources requested, differently sized nodes",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {37, 50},
       kDefaultResources},
      {"Resources not set, pods scheduled with error",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {kMinNodeScore, kMinNodeScore},
       {}},
      {"no resources requested, pods scheduled",
       MakePod(),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod({}, "node1"), MakePod({}, "node1"), MakePod({}, "node2"), MakePod({}, "node2")},
       {kMaxNodeScore, kMaxNodeScore},
       kDefaultResources},
      // Node1: cpu 40, memory 100 -> 70. Node2: cpu 40, memory 75 -> 57.
      {"no resources requested, pods scheduled with resources",
       MakePod(),
       {MakeNode("node1", {{"cpu", "10000"}, {"memory", "20000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"),
        MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node2"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {70, 57},
       kDefaultResources},
      // Node1: cpu 40, memory 75 -> 57. Node2: cpu 40, memory 50 -> 45.
      {"resources requested, pods scheduled with resources",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "10000"}, {"memory", "20000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {57, 45},
       kDefaultResources},
      // Node1: cpu 40, memory 75 -> 57. Node2: cpu 40, memory 80 -> 60.
      {"resources requested, pods scheduled with resources, differently sized nodes",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "10000"}, {"memory", "20000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "50000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {57, 60},
       kDefaultResources},
      // Node1: cpu 0 (6000 > 4000), memory 100 -> 50. Node2: cpu 0, memory 50 -> 25.
      {"requested resources exceed node capacity",
       MakePod({{{"cpu", "3000"}, {"memory", "0"}}}),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {50, 25},
       kDefaultResources},
      {"zero node resources, pods scheduled with resources",
       MakePod(),
       {MakeNode("node1"), MakeNode("node2")},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {kMinNodeScore, kMinNodeScore},
       kDefaultResources},
      // Node1: (25 * 1 + 50 * 2) / (1 + 2) = 41. Node2: (50 * 1 + 50 * 2) / 3 = 50.
      {"nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {41, 50},
       {{"memory", 2}, {"cpu", 1}}},
      // The extended resource is bypassed: (50 + 50) / 2 = 50 on both nodes.
      {"bypass extended resource if the pod does not request",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {50, 50},
       kExtendedResourceSet},
      // Extended: node1 (4 - 2) / 4 * 100 = 50, node2 (10 - 2) / 10 * 100 = 80.
      // node1: (50 + 50 + 50) / 3 = 50; node2: (50 + 50 + 80) / 3 = 60.
      {"honor extended resource if the pod requests",
       MakePod({{{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}}),
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {},
       {50, 60},
       kExtendedResourceSet},
      // cpu 50, memory 60; the extended resource (weight 2) is not requested -> 55.
      {"if the node doesn't have a resource",
       MakePod({{{"cpu", "3000"}, {"memory", "4000"}}}),
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {55, 55},
       {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
  };
  RunFitCases(ScoringStrategyType::kLeastAllocated, {}, cases);
}

TEST(NodeResourcesFitScoreTest, MostAllocatedScoringStrategy) {
  const std::vector<FitScoreCase> cases = {
      {"nothing scheduled, nothing requested",
       MakePod(),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {kMinNodeScore, kMinNodeScore},
       kDefaultResources},
      // Node1: cpu 75, memory 50 -> 62. Node2: cpu 50, memory 50 -> 50.
      {"nothing scheduled, resources requested, differently sized nodes",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {62, 50},
       kDefaultResources},
      {"Resources not set, pods scheduled with error",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {kMinNodeScore, kMinNodeScore},
       {}},
      // Node1: cpu 60, memory 0 -> 30. Node2: cpu 60, memory 25 -> 42.
      {"no resources requested, pods scheduled with resources",
       MakePod(),
       {MakeNode("node1", {{"cpu", "10000"}, {"memory", "20000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"),
        MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node2"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {30, 42},
       kDefaultResources},
      // Node1: cpu 60, memory 25 -> 42. Node2: cpu 60, memory 50 -> 55.
      {"resources requested, pods scheduled with resources",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "10000"}, {"memory", "20000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "0"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {42, 55},
       kDefaultResources},
      // Node1: cpu 100, memory 90 -> 95. Node2: cpu 50, memory 100 -> 75.
      {"resources requested equal node capacity",
       MakePod({{{"cpu", "2000"}, {"memory", "4000"}}, {{"cpu", "3000"}, {"memory", "5000"}}}),
       {MakeNode("node1", {{"cpu", "5000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "10000"}, {"memory", "9000"}})},
       {},
       {95, 75},
       kDefaultResources},
      // Node1: (75 * 1 + 50 * 2) / 3 = 58. Node2: (50 * 1 + 50 * 2) / 3 = 50.
      {"nothing scheduled, resources requested, differently sized nodes (weighted)",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {58, 50},
       {{"memory", 2}, {"cpu", 1}}},
      // Non-zero defaults: node1 cpu 300m / 250m -> capped 100, memory 600Mi / 1000Mi = 60 -> 80;
      // node2 cpu 100m / 250m = 40, memory 200Mi / 1000Mi = 20 -> 30.
      {"no resources requested, pods scheduled, nonzero request for resource",
       MakePod({{}}),
       {MakeNode("node1", {{"cpu", "250m"}, {"memory", "1000Mi"}}), MakeNode("node2", {{"cpu", "250m"}, {"memory", "1000Mi"}})},
       {MakePod({{}}, "node1"), MakePod({{}}, "node1")},
       {80, 30},
       kDefaultResources},
      {"bypass extended resource if the pod does not request",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {50, 50},
       kExtendedResourceSet},
      // Extended: node1 2 / 4 * 100 = 50, node2 2 / 10 * 100 = 20 -> 50 and 40.
      {"honor extended resource if the pod request",
       MakePod({{{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}}),
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {},
       {50, 40},
       kExtendedResourceSet},
      // cpu 50, memory 40 -> 45 on both nodes.
      {"if the node doesn't have a resource",
       MakePod({{{"cpu", "3000"}, {"memory", "4000"}}}),
       {MakeNode("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {45, 45},
       {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
  };
  RunFitCases(ScoringStrategyType::kMostAllocated, {}, cases);
}

TEST(NodeResourcesFitScoreTest, RequestedToCapacityRatioScoringStrategy) {
  const std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
  const std::vector<FitScoreCase> cases = {
      {"nothing scheduled, nothing requested (default - least requested nodes have priority)",
       MakePod(),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod({}, "node1"), MakePod({}, "node1")},
       {kMaxNodeScore, kMaxNodeScore},
       kDefaultResources},
      // Node1: cpu f(75) = 25, memory f(50) = 50 -> round(37.5) = 38. Node2: 50.
      {"nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
       kTwoContainers,
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {MakePod({}, "node1"), MakePod({}, "node1")},
       {38, 50},
       kDefaultResources},
      {"no resources requested, pods scheduled with resources (default - least requested nodes have priority)",
       MakePod(),
       {MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}), MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node1"), MakePod({{{"cpu", "3000"}, {"memory", "5000"}}}, "node2")},
       {38, 50},
       kDefaultResources},
  };
  RunFitCases(ScoringStrategyType::kRequestedToCapacityRatio, shape, cases);
}

TEST(NodeResourcesFitScoreTest, BrokenLinearFunction) {
  struct Assertion {
    int64_t p;
    int64_t expected;
  };
  struct Case {
    std::vector<FunctionShapePoint> points;
    std::vector<Assertion> assertions;
  };
  const std::vector<Case> cases = {
      {{{10, 1}, {90, 9}},
       {{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9}, {99, 9}, {100, 9}, {110, 9}}},
      {{{0, 2}, {40, 10}, {100, 0}},
       {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
      {{{0, 2}, {40, 2}, {100, 2}},
       {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case_" + std::to_string(i));
    for (const auto& a : cases[i].assertions) {
      SCOPED_TRACE("p=" + std::to_string(a.p));
      // Upstream asserts InDelta(expected, f(p), 0.1) on integers: exact equality.
      EXPECT_EQ(BrokenLinearFunction(cases[i].points, a.p), a.expected);
    }
  }
}

struct BinPackingCase {
  const char* name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<Node> nodes;
  std::vector<int64_t> expected_scores;
};

void RunBinPacking(const std::vector<ResourceSpec>& resources, const std::vector<BinPackingCase>& cases) {
  NodeResourcesFitArgs args;
  args.type = ScoringStrategyType::kRequestedToCapacityRatio;
  args.resources = resources;
  args.shape = {{0, 0}, {100, 1}};
  NodeResourcesFit plugin(args);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ScoreAll(plugin, c.pod, MakeCluster(c.nodes, c.pods)), c.expected_scores);
  }
}

TEST(NodeResourcesFitScoreTest, ResourceBinPackingSingleExtended) {
  const std::map<std::string, int64_t> extended_resource1 = {{"intel.com/foo", 4}};
  const std::map<std::string, int64_t> extended_resource2 = {{"intel.com/foo", 8}};
  const scoretest::Reqs extended_resource3 = {{"intel.com/foo", "2"}};
  const scoretest::Reqs extended_resource4 = {{"intel.com/foo", "4"}};
  const std::vector<Node> nodes = {MakeNodeWithExtended("node1", 4000, 10000LL * 1024 * 1024, extended_resource2),
                                   MakeNodeWithExtended("node2", 4000, 10000LL * 1024 * 1024, extended_resource1)};
  const std::vector<BinPackingCase> cases = {
      // The incoming pod does not request the extended resource.
      {"nothing scheduled, nothing requested", MakePod(), {}, nodes, {0, 0}},
      // node1: f(2 / 8 * 100 = 25) = 2; node2: f(2 / 4 * 100 = 50) = 5.
      {"resources requested, pods scheduled with less resources", MakePod({extended_resource3}), {MakePod()}, nodes,
       {2, 5}},
      // node2 already runs a pod with 2: f((2 + 2) / 4 * 100 = 100) = 10.
      {"resources requested, pods scheduled with resources, on node with existing pod running ",
       MakePod({extended_resource3}), {MakePod({extended_resource3}, "node2")}, nodes, {2, 10}},
      // node1: f(4 / 8 * 100 = 50) = 5; node2: f(4 / 4 * 100 = 100) = 10.
      {"resources requested, pods scheduled with more resources", MakePod({extended_resource4}), {MakePod()}, nodes,
       {5, 10}},
  };
  RunBinPacking({{"intel.com/foo", 1}}, cases);
}

TEST(NodeResourcesFitScoreTest, ResourceBinPackingMultipleExtended) {
  const std::map<std::string, int64_t> extended_resources1 = {{"intel.com/foo", 4}, {"intel.com/bar", 8}};
  const std::map<std::string, int64_t> extended_resources2 = {{"intel.com/foo", 8}, {"intel.com/bar", 4}};
  const scoretest::Reqs extended_resource_pod1 = {{"intel.com/foo", "2"}, {"intel.com/bar", "2"}};
  const scoretest::Reqs extended_resource_pod2 = {{"intel.com/foo", "4"}, {"intel.com/bar", "2"}};
  const std::vector<Node> nodes = {MakeNodeWithExtended("node1", 4000, 10000LL * 1024 * 1024, extended_resources2),
                                   MakeNodeWithExtended("node2", 4000, 10000LL * 1024 * 1024, extended_resources1)};
  const std::vector<BinPackingCase> cases = {
      {"nothing scheduled, nothing requested", MakePod(), {}, nodes, {0, 0}},
      // node1: foo f(25) = 2, bar f(50) = 5 -> round((2*3 + 5*5) / 8 = 3.875) = 4;
      // node2: foo f(50) = 5, bar f(25) = 2 -> round((5*3 + 2*5) / 8 = 3.125) = 3.
      {"resources requested, pods scheduled with less resources", MakePod({extended_resource_pod1}), {MakePod()},
       nodes, {4, 3}},
      // node2: foo (4 + 2) / 4 > 1 -> f(100) = 10, bar (2 + 2) / 8 -> f(50) = 5 -> round(55 / 8) = 7.
      {"resources requested, pods scheduled with resources, on node with existing pod running ",
       MakePod({extended_resource_pod1}), {MakePod({extended_resource_pod2}, "node2")}, nodes, {4, 7}},
      // node1: foo f(50) = 5, bar f(50) = 5 -> 5; node2: foo f(100) = 10, bar f(25) = 2 -> 5.
      {"resources requested, pods scheduled with more resources", MakePod({extended_resource_pod2}), {MakePod()},
       nodes, {5, 5}},
  };
  RunBinPacking({{"intel.com/foo", 3}, {"intel.com/bar", 5}}, cases);
}

// gpusched's own cases for rules the upstream tables above leave uncovered;
// the expected values are worked out by hand from the upstream formulas.
TEST(NodeResourcesFitScoreTest, GpuschedRulesNotCoveredUpstream) {
  const std::vector<Node> cpu4_mem10k = {MakeNode("node1", {{"cpu", "4"}, {"memory", "10000"}})};
  {
    SCOPED_TRACE("RTC drops a resource scoring 0 from the weight sum: f(50) = 50, not (50 + 0) / 2");
    NodeResourcesFitArgs args;
    args.type = ScoringStrategyType::kRequestedToCapacityRatio;
    args.resources = kDefaultResources;
    args.shape = {{0, 0}, {100, 10}};
    NodeResourcesFit plugin(args);
    // memory "0" is an explicit request: no 200Mi default.
    EXPECT_EQ(ScoreAll(plugin, MakePod({{{"cpu", "2"}, {"memory", "0"}}}), MakeCluster(cpu4_mem10k)),
              (std::vector<int64_t>{50}));
  }
  {
    SCOPED_TRACE("falling shape slope truncates toward zero: 100 - 1000/30 = 100 - 33");
    EXPECT_EQ(BrokenLinearFunction({{0, 100}, {30, 0}}, 10), 67);
    EXPECT_EQ(BrokenLinearFunction({{0, 0}, {30, 100}}, 10), 33);
  }
  {
    SCOPED_TRACE("\"pods\" is not scored: (cpu 75) alone, not (75 + 100) / 2");
    NodeResourcesFitArgs args;
    args.resources = {{"cpu", 1}, {"pods", 1}};
    NodeResourcesFit plugin(args);
    EXPECT_EQ(ScoreAll(plugin, MakePod({{{"cpu", "1"}}}), MakeCluster(cpu4_mem10k)), (std::vector<int64_t>{75}));
  }
  {
    SCOPED_TRACE("ephemeral-storage uses Requested: (1000 - 400 - 100) * 100 / 1000 = 50");
    NodeResourcesFitArgs args;
    args.resources = {{"ephemeral-storage", 1}};
    NodeResourcesFit plugin(args);
    const std::vector<Node> nodes = {MakeNode("node1", {{"cpu", "4"}, {"ephemeral-storage", "1000"}})};
    EXPECT_EQ(ScoreAll(plugin, MakePod({{{"ephemeral-storage", "100"}}}),
                       MakeCluster(nodes, {MakePod({{{"ephemeral-storage", "400"}}}, "node1")})),
              (std::vector<int64_t>{50}));
  }
  {
    SCOPED_TRACE("cpu/memory use the 100m / 200Mi defaults for a container without requests (LeastAllocated)");
    NodeResourcesFitArgs args;
    args.resources = kDefaultResources;
    NodeResourcesFit plugin(args);
    // node 1 cpu / 1000Mi; existing pod with no requests (100m, 200Mi), incoming the same:
    // cpu (1000 - 200) * 100 / 1000 = 80, memory (1000 - 400) * 100 / 1000 = 60 -> 70.
    const std::vector<Node> nodes = {MakeNode("node1", {{"cpu", "1"}, {"memory", "1000Mi"}})};
    EXPECT_EQ(ScoreAll(plugin, MakePod({{}}), MakeCluster(nodes, {MakePod({{}}, "node1")})),
              (std::vector<int64_t>{70}));
  }
}

}  // namespace
}  // namespace gpusched
