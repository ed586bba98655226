#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filters.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(FitPoliciesTest, BestFitPacksWorstFitSpreads) {
  struct Case {
    const char* policy;
    std::vector<size_t> want;  // node of each pod: 1, 1, 2 GPUs
  } cases[] = {
      // Nodes: a 8 GPUs, b 2 GPUs, c 4 GPUs.
      {"first-fit", {0, 0, 0}},
      {"best-fit", {1, 1, 2}},   // b fills up first, then c (4 left) beats a (8 left)
      {"worst-fit", {0, 0, 0}},  // a keeps the most free: 7, 6, then 4 (c has 4-2=2)
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.policy);
    ClusterState cl({GpuNode("a", 8), GpuNode("b", 2), GpuNode("c", 4)});
    std::unique_ptr<Policy> p;
    if (std::string(c.policy) == "best-fit") p = std::make_unique<BestFitPolicy>();
    else if (std::string(c.policy) == "worst-fit") p = std::make_unique<WorstFitPolicy>();
    else p = std::make_unique<FirstFitPolicy>();
    Scheduler s(DefaultFilters(), std::move(p), 1);
    std::vector<Pod> pods = {GpuPod("p1", 1), GpuPod("p2", 1), GpuPod("p3", 2)};
    for (size_t i = 0; i < pods.size(); ++i) EXPECT_EQ(s.ScheduleOne(PodInfo::Make(pods[i], i), cl).node, c.want[i]);
  }
}

TEST(FitPoliciesTest, BestFitTieBreaksOnCpuThenNodeOrder) {
  ClusterState cl({GpuNode("a", 2, 16000), GpuNode("b", 2, 8000), GpuNode("c", 2, 8000)});
  Scheduler s(DefaultFilters(), std::make_unique<BestFitPolicy>(), 1);
  Pod p = GpuPod("p", 1, 1000);
  PodExplain e;
  EXPECT_EQ(s.ScheduleOne(PodInfo::Make(p, 0), cl, &e).node, 1u);
  EXPECT_EQ(e.why, "best-fit: leaves 1 GPUs and 7 cpu free (first in node order on ties)");
}

}  // namespace
}  // namespace gpusched
