// PlainScan (src/sched/framework/plain_scan.cc), kube-scheduler's
// findNodesThatPassFilters run sequentially: from the start index, stopping
// at the nodes wanted, the start moving past the nodes visited; when none
// passes, the FitError counts every node's reason, the rejecting filters
// are named and DefaultPreemption's dry run is added.
#include "gpusched/sched/framework/plain_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "../test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace plain_scan_test {

using testing::GpuNode;
using testing::GpuPod;

// a cordoned (8 GPUs), b (2), c (4), d tainted NoSchedule (8); e removed.
ClusterState Cluster() {
  Node a = GpuNode("a", 8), d = GpuNode("d", 8);
  a.unschedulable = true;
  d.taints.push_back({"dedicated", "x", "NoSchedule"});
  ClusterState c({a, GpuNode("b", 2), GpuNode("c", 4), d, GpuNode("e", 8)});
  c.RemoveNode(4);
  return c;
}

TEST(PlainScanTest, ScansFromTheStartUntilEnoughNodesPass) {
  const ClusterState cluster = Cluster();
  const auto filters = DefaultFilters();
  FirstFitPolicy policy;
  const auto state = policy.NewState();
  Rng rng(1);
  struct Case {
    const char* name;
    int64_t gpus;
    size_t start;
    int64_t to_find;
    std::vector<size_t> want;
    size_t want_next;
  };
  const Case cases[] = {
      {"first fit from 0: stops at c", 4, 0, 1, {2}, 3},
      {"from 3: d, e, a, b fail, c passes", 4, 3, 1, {2}, 3},
      {"two wanted, one found: every slot visited", 4, 1, 2, {2}, 1},
      {"one GPU from 2: c, then d fails, then b", 1, 2, 2, {2, 1}, 2},
      {"stops once enough: b then c", 1, 1, 2, {1, 2}, 3},
  };
  PlainScan scan(/*preemption=*/false);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Pod pod = GpuPod("p", c.gpus);
    const PodInfo info = PodInfo::Make(pod, 0);
    std::vector<size_t> feasible = {99};
    size_t next = 99;
    FitError err;
    std::optional<PreemptionVerdict> preemption;
    uint64_t rejectors = 0;
    ASSERT_TRUE(scan.Run(SearchContext{info, cluster, filters, policy, *state, rng, c.start, c.to_find}, nullptr,
                         feasible, next, err, preemption, rejectors));
    EXPECT_EQ(feasible, c.want);
    EXPECT_EQ(next, c.want_next);
  }
}

TEST(PlainScanTest, AFailureCountsEveryNodeAndNamesTheRejectingFilters) {
  const ClusterState cluster = Cluster();
  const auto filters = DefaultFilters();
  FirstFitPolicy policy;
  const auto state = policy.NewState();
  Rng rng(1);
  const Pod pod = GpuPod("p", 16);
  const PodInfo info = PodInfo::Make(pod, 0);
  for (bool preempts : {false, true}) {
    SCOPED_TRACE(preempts);
    PlainScan scan(preempts);
    std::vector<size_t> feasible;
    size_t next = 99;
    FitError err;
    err.num_all_nodes = 4;
    std::optional<PreemptionVerdict> preemption;
    uint64_t rejectors = 0;
    PodExplain explain;
    ASSERT_FALSE(scan.Run(SearchContext{info, cluster, filters, policy, *state, rng, 1, 1}, &explain, feasible, next,
                          err, preemption, rejectors));
    EXPECT_TRUE(feasible.empty());
    EXPECT_EQ(next, 1u);  // every slot visited: back where it started
    // NodeUnschedulable (0), TaintToleration (1), NodeResourcesFit (3).
    EXPECT_EQ(rejectors, 0b1011u);
    const std::string fit =
        "0/4 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient "
        "nvidia.com/gpu.";
    if (preempts) {
      ASSERT_TRUE(preemption.has_value());
      EXPECT_FALSE(preemption->would_help);
      EXPECT_EQ(err.Error(), fit + " preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.");
    } else {
      EXPECT_FALSE(preemption.has_value());
      EXPECT_EQ(err.Error(), fit);
    }
    ASSERT_EQ(explain.nodes.size(), 5u);
    EXPECT_EQ(explain.start_index, 1u);
    EXPECT_EQ(explain.nodes[0].failed_plugin, "NodeUnschedulable");
    EXPECT_EQ(explain.nodes[2].failed_plugin, "NodeResourcesFit");
    EXPECT_EQ(explain.nodes[3].failed_plugin, "TaintToleration");
    EXPECT_FALSE(explain.nodes[4].evaluated);  // removed
    EXPECT_TRUE(explain.nodes[1].evaluated);
  }
}

}  // namespace plain_scan_test
}  // namespace gpusched
