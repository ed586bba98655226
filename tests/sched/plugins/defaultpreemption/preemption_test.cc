// DefaultPreemption's message when preemption cannot help, as kube-scheduler
// v1.35 prints it (pkg/scheduler/framework/preemption/preemption.go,
// defaultpreemption/default_preemption.go).
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

Decision Schedule(ClusterState& c, const Pod& p) {
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  return s.ScheduleOne(PodInfo::Make(p, 99), c);
}

TEST(PreemptionTest, SeedClusterMessage) {
  ClusterState c({GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)});
  Pod a = GpuPod("a", 3);
  c.Bind(0, PodInfo::Make(a, 0).requests, PodInfo::Make(a, 0).requests, 0, 0);
  Decision d = Schedule(c, GpuPod("training-job-c", 3));
  ASSERT_FALSE(d.scheduled);
  // gpu-node-1: resolvable but nothing of lower priority to evict;
  // gpu-node-2: 3 > 2 allocatable, Unresolvable.
  EXPECT_EQ(d.fit_error.Error(),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 1 No "
            "preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.");
}

TEST(PreemptionTest, WouldHelpLeavesNoSuffix) {
  ClusterState c({GpuNode("a", 4)});
  Pod low = GpuPod("low", 4);
  c.Bind(0, PodInfo::Make(low, 0).requests, PodInfo::Make(low, 0).requests, 0, /*priority=*/-10);
  Decision d = Schedule(c, GpuPod("high", 2));
  ASSERT_FALSE(d.scheduled);
  ASSERT_TRUE(d.preemption.has_value());
  EXPECT_TRUE(d.preemption->would_help);
  EXPECT_EQ(d.preemption->victims, 1);
  EXPECT_EQ(d.fit_error.Error(), "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
}

TEST(PreemptionTest, EvictingIsNotEnough) {
  ClusterState c({GpuNode("a", 4)});
  Pod low = GpuPod("low", 1), same = GpuPod("same", 3);
  c.Bind(0, PodInfo::Make(low, 0).requests, PodInfo::Make(low, 0).requests, 0, -1);
  c.Bind(0, PodInfo::Make(same, 1).requests, PodInfo::Make(same, 1).requests, 1, 0);
  Decision d = Schedule(c, GpuPod("p", 2));
  EXPECT_EQ(d.fit_error.Error(),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 "
            "Insufficient nvidia.com/gpu.");
}

TEST(PreemptionTest, PreemptionPolicyNever) {
  ClusterState c({GpuNode("a", 1)});
  Pod p = GpuPod("p", 2);
  p.preemption_policy = "Never";
  EXPECT_EQ(Schedule(c, p).fit_error.Error(),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

TEST(PreemptionTest, TaintedNodesAreNotHelpful) {
  Node t = GpuNode("t", 8);
  t.taints.push_back({"k", "v", "NoSchedule"});
  ClusterState c({t, GpuNode("small", 1)});
  EXPECT_EQ(Schedule(c, GpuPod("p", 4)).fit_error.Error(),
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint(s). preemption: "
            "0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
}

}  // namespace
}  // namespace gpusched
