// Ported from TestNodeResourcesBalancedAllocation in k8s.io/kubernetes
// pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go,
// the v1.35 version (the one with the DRA extended-resource cases, before
// PR #135573). The newest upstream file (v1.36) expects the new
// with/without-pod formula (e.g. 68/75 instead of 87/100 for the second case);
// gpusched targets v1.35, so these are the v1.35 expectations.
// Not ported: the two "include DRA resource on a node for balanced resource
// allocation" cases (with and without PreScore): they need DRA ResourceSlices
// and DeviceClasses, which gpusched does not model.
#include <gtest/gtest.h>

#include "gpusched/sched/plugins/noderesources/balanced_allocation.h"
#include "../../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNodeWithExtended;
using scoretest::MakePod;
using scoretest::ScoreAll;

struct BalancedCase {
  const char* name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<Node> nodes;
  std::vector<int64_t> expected_list;
  std::vector<ResourceSpec> resources;
  bool run_pre_score = true;
  bool want_pre_score_skip = false;
};

TEST(BalancedAllocationTest, NodeResourcesBalancedAllocation) {
  const Pod cpu_and_memory_and_gpu =
      MakePod({{{"cpu", "1000m"}, {"memory", "2000"}}, {{"cpu", "2000m"}, {"memory", "3000"}, {"nvidia.com/gpu", "3"}}},
              "node1");
  const Pod cpu_only = MakePod({{{"cpu", "1000m"}, {"memory", "0"}}, {{"cpu", "2000m"}, {"memory", "0"}}}, "node1");
  const Pod cpu_and_memory =
      MakePod({{{"cpu", "1000m"}, {"memory", "2000"}}, {{"cpu", "2000m"}, {"memory", "3000"}}}, "node2");
  const std::vector<ResourceSpec> default_set = {{"cpu", 1}, {"memory", 1}};
  const std::vector<ResourceSpec> with_gpu = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  const std::map<std::string, int64_t> scalar_resource = {{"nvidia.com/gpu", 8}};

  const std::vector<BalancedCase> cases = {
      // bestEffort pods, skip in PreScore
      {"nothing scheduled, nothing requested, skip in PreScore",
       MakePod(),
       {},
       {MakeNodeWithExtended("node1", 4000, 10000), MakeNodeWithExtended("node2", 4000, 10000)},
       {},
       default_set,
       true,
       true},
      // Node1: cpu 3000 / 4000 = 75%, memory 5000 / 10000 = 50%, std (0.75 - 0.5) / 2 = 0.125 -> 87.
      // Node2: cpu 3000 / 6000 = 50%, memory 50%, std 0 -> 100.
      {"nothing scheduled, resources requested, differently sized nodes",
       cpu_and_memory,
       {},
       {MakeNodeWithExtended("node1", 4000, 10000), MakeNodeWithExtended("node2", 6000, 10000)},
       {87, kMaxNodeScore},
       default_set},
      // Node1: cpu 6000 / 10000 = 60%, memory 5000 / 20000 = 25%, std 0.175 -> 82.
      // Node2: cpu 60%, memory 10000 / 20000 = 50%, std 0.05 -> 95.
      {"resources requested, pods scheduled with resources",
       cpu_and_memory,
       {cpu_only, cpu_and_memory},
       {MakeNodeWithExtended("node1", 10000, 20000), MakeNodeWithExtended("node2", 10000, 20000)},
       {82, 95},
       default_set},
      // Node2: cpu 60%, memory 10000 / 50000 = 20%, std 0.2 -> 80.
      {"resources requested, pods scheduled with resources, differently sized nodes",
       cpu_and_memory,
       {cpu_only, cpu_and_memory},
       {MakeNodeWithExtended("node1", 10000, 20000), MakeNodeWithExtended("node2", 10000, 50000)},
       {82, 80},
       default_set},
      // Node1: cpu 6000 / 6000 = 1, memory 0, std 0.5 -> 50.
      // Node2: cpu 1, memory 5000 / 10000 = 50%, std 0.25 -> 75.
      {"requested resources at node capacity",
       cpu_only,
       {cpu_only, cpu_and_memory},
       {MakeNodeWithExtended("node1", 6000, 10000), MakeNodeWithExtended("node2", 6000, 10000)},
       {50, 75},
       default_set},
      // Node1: cpu 3000 / 3500, memory 5000 / 40000, gpu 4 / 8 -> std 0.3002 -> 70.
      // Node2: cpu 3000 / 3500, memory 5000 / 40000, gpu 1 / 8 -> std 0.345 -> 65.
      {"include scalar resource on a node for balanced resource allocation",
       MakePod({{{"memory", "0"}, {"nvidia.com/gpu", "1"}}}),
       {cpu_and_memory, cpu_and_memory_and_gpu},
       {MakeNodeWithExtended("node1", 3500, 40000, scalar_resource),
        MakeNodeWithExtended("node2", 3500, 40000, scalar_resource)},
       {70, 65},
       with_gpu},
      // The pod does not request the scalar resource, which is skipped:
      // cpu 3000 / 3500, memory 5000 / 40000, std 0.36605 -> 63 on both nodes.
      {"node without the scalar resource should skip the scalar resource",
       cpu_and_memory,
       {},
       {MakeNodeWithExtended("node1", 3500, 40000, scalar_resource), MakeNodeWithExtended("node2", 3500, 40000)},
       {63, 63},
       with_gpu},
      {"resources requested, pods scheduled with resources if PreScore not called",
       cpu_and_memory,
       {cpu_only, cpu_and_memory},
       {MakeNodeWithExtended("node1", 10000, 20000), MakeNodeWithExtended("node2", 10000, 20000)},
       {82, 95},
       default_set,
       false},
  };

  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    NodeResourcesBalancedAllocationArgs args;
    args.resources = c.resources;
    NodeResourcesBalancedAllocation plugin(args);
    if (c.run_pre_score) {
      const bool scored = plugin.PreScore(PodInfo::Make(c.pod, 0), ClusterState(std::vector<Node>{}));
      EXPECT_EQ(!scored, c.want_pre_score_skip);
      if (!scored) continue;  // "skipping score test as PreScore returned skip"
    }
    EXPECT_EQ(ScoreAll(plugin, c.pod, MakeCluster(c.nodes, c.pods)), c.expected_list);
  }
}

// gpusched's own cases for rules the upstream table leaves uncovered; values
// worked out by hand from the v1.35 formula.
TEST(BalancedAllocationTest, GpuschedRulesNotCoveredUpstream) {
  NodeResourcesBalancedAllocationArgs args;
  args.resources = {{"cpu", 1}, {"memory", 1}};
  NodeResourcesBalancedAllocation plugin(args);
  const std::vector<Node> nodes = {MakeNodeWithExtended("node1", 4000, 10000, {{"nvidia.com/gpu", 8}})};
  {
    SCOPED_TRACE("a fraction above 1 is capped: (min(1.5, 1) - 0.2) / 2 = 0.4 -> 60, not 35");
    EXPECT_EQ(ScoreAll(plugin, MakePod({{{"cpu", "6000m"}, {"memory", "2000"}}}), MakeCluster(nodes)),
              (std::vector<int64_t>{60}));
  }
  {
    SCOPED_TRACE("plain requests, no 100m / 200Mi defaults: cpu 1000m / 4000m = 0.25, memory 0 -> 87");
    EXPECT_EQ(ScoreAll(plugin, MakePod({{{"cpu", "1000m"}}}), MakeCluster(nodes, {MakePod({{}}, "node1")})),
              (std::vector<int64_t>{87}));
  }
  {
    SCOPED_TRACE("a pod requesting only an unlisted resource is best effort for this plugin");
    const Pod gpu_only = MakePod({{{"nvidia.com/gpu", "1"}}});
    EXPECT_FALSE(plugin.PreScore(PodInfo::Make(gpu_only, 0), ClusterState(std::vector<Node>{})));
    EXPECT_EQ(ScoreAll(plugin, gpu_only, MakeCluster(nodes)), (std::vector<int64_t>{0}));
  }
  {
    SCOPED_TRACE("one fraction only: std 0 -> 100");
    NodeResourcesBalancedAllocationArgs cpu_gpu;
    cpu_gpu.resources = {{"cpu", 1}, {"nvidia.com/gpu", 1}};
    NodeResourcesBalancedAllocation p2(cpu_gpu);
    // The gpu is not requested, so only cpu is left.
    EXPECT_EQ(ScoreAll(p2, MakePod({{{"cpu", "1000m"}}}), MakeCluster(nodes)), (std::vector<int64_t>{100}));
  }
}

}  // namespace
}  // namespace gpusched
