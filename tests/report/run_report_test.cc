#include "gpusched/report/run_report.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

struct Scenario {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  QueueOrder order = QueueOrder::kFifo;
};

Summary SummarizeScenario(const Scenario& sc, size_t rejected = 0) {
  ClusterState c(sc.nodes);
  std::vector<const Pod*> ptrs;
  for (const auto& p : sc.pods) ptrs.push_back(&p);
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(ptrs, c, s, sc.order);
  std::vector<InputError> rej(rejected, InputError{"Pod/default/x", "f.yaml", 1, "bad"});
  std::vector<std::string> warnings;
  RunReport rr{c, ptrs, r, rej, warnings, "first-fit", "fifo"};
  return Summarize(rr);
}

TEST(RunReportTest, VerdictsAndCounts) {
  struct Case {
    const char* name;
    Scenario sc;
    size_t rejected;
    int64_t placed, pending, forever, capacity, requested, allocated;
    std::string verdict;
  } cases[] = {
      {"all placed", {{GpuNode("a", 4)}, {GpuPod("p", 2)}}, 0, 1, 0, 0, 4, 2, 2, "every pod was placed"},
      {"all valid placed", {{GpuNode("a", 4)}, {GpuPod("p", 2)}}, 1, 1, 0, 0, 4, 2, 2, "every valid pod was placed"},
      {"over capacity",
       {{GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)},
        {GpuPod("a", 2), GpuPod("b", 1), GpuPod("c", 3), GpuPod("d", 1), GpuPod("e", 2)}},
       0, 4, 1, 0, 6, 9, 6,
       "the pods request 9 GPUs but the cluster has 6: no queue order or policy can place them all at once; at least "
       "3 GPUs' worth of pods must wait for others to finish"},
      {"fragmented",
       {{GpuNode("a", 4), GpuNode("b", 4)}, {GpuPod("x", 2), GpuPod("y", 3), GpuPod("z", 1), GpuPod("w", 2)}},
       0, 3, 1, 0, 8, 8, 6,
       "the pods request 8 of 8 GPUs, so they could all fit, but free GPUs are fragmented across nodes; try --order "
       "largest-first or a bin-packing policy"},
      // Waiting does not help a pod bigger than every node: no "must wait".
      {"never fits", {{GpuNode("a", 4)}, {GpuPod("big", 8)}}, 0, 0, 1, 1, 4, 8, 0,
       "1 pending pod can never fit on this cluster as it is (see why pending)"},
      {"never fits beside pods that wait", {{GpuNode("a", 4)}, {GpuPod("big", 8), GpuPod("p", 3), GpuPod("q", 3)}},
       0, 1, 2, 1, 4, 14, 3,
       "1 pending pod can never fit on this cluster as it is (see why pending); the pods that can fit request 6 GPUs "
       "but the cluster has 4: no queue order or policy can place them all at once; at least 2 GPUs' worth of pods "
       "must wait for others to finish"},
      {"one GPU over", {{GpuNode("a", 2)}, {GpuPod("p", 2), GpuPod("q", 1)}}, 0, 1, 1, 0, 2, 3, 2,
       "the pods request 3 GPUs but the cluster has 2: no queue order or policy can place them all at once; at least "
       "1 GPU's worth of pods must wait for others to finish"},
      // Pods were given, all refused: not "no pods to schedule".
      {"every pod rejected", {{GpuNode("a", 2)}, {}}, 2, 0, 0, 0, 2, 0, 0,
       "no valid pod to schedule: fix what is rejected (see rejected) and run again"},
      {"nothing at all", {{GpuNode("a", 2)}, {}}, 0, 0, 0, 0, 2, 0, 0, "no pods to schedule"},
      {"no GPUs advertised", {{GpuNode("a", -1)}, {GpuPod("p", 1)}}, 0, 0, 1, 1, 0, 1, 0,
       "1 pending pod can never fit on this cluster as it is (see why pending); the pods request 1 GPU and the "
       "cluster advertises none"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Summary s = SummarizeScenario(c.sc, c.rejected);
    EXPECT_EQ(s.placed, c.placed);
    EXPECT_EQ(s.pending, c.pending);
    EXPECT_EQ(s.pending_forever, c.forever);
    EXPECT_EQ(s.gpus_capacity, c.capacity);
    EXPECT_EQ(s.gpus_requested, c.requested);
    EXPECT_EQ(s.gpus_allocated, c.allocated);
    EXPECT_EQ(s.gpus_free, c.capacity - c.allocated);
    EXPECT_EQ(s.verdict, c.verdict);
  }
}

TEST(RunReportTest, NamesAndPlurals) {
  Pod p = GpuPod("x", 0);
  EXPECT_EQ(DisplayName(p), "x");
  p.meta.namespace_ = "ml";
  EXPECT_EQ(DisplayName(p), "ml/x");
  EXPECT_EQ(Plural(1, "node"), "1 node");
  EXPECT_EQ(Plural(0, "node"), "0 nodes");
  EXPECT_EQ(Plural(2, "pod"), "2 pods");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// A GPU share counts at its size in what is requested; a device lent to
// shares counts whole in what is allocated, as kubectl shows it.
TEST(RunReportTest, GpuSharesCountInGpus) {
  Pod share = testing::GpuPod("share", 0, 100);
  share.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
  Pod pending_share = share;
  pending_share.meta.name = "late-share";
  pending_share.meta.annotations["alibabacloud.com/gpu-milli"] = "700";
  Scenario sc{{testing::GpuNode("a", 2)}, {share, testing::GpuPod("whole", 1), pending_share}};
  Summary s = SummarizeScenario(sc);
  EXPECT_EQ(s.placed, 2);
  EXPECT_EQ(s.pending, 1);
  EXPECT_EQ(s.gpus_requested, 1);  // nvidia.com/gpu only, as -o json always had it
  EXPECT_EQ(s.gpu_milli_requested, 2200);
  EXPECT_EQ(s.gpu_milli_pending, 700);
  EXPECT_EQ(s.gpus_allocated, 2);
  EXPECT_EQ(s.gpus_holding_shares, 1);
  EXPECT_EQ(s.gpu_milli_in_shares, 500);
  // 2.2 GPUs asked of 2: not everything can be placed.
  EXPECT_EQ(s.verdict,
            "the pods request 2.2 GPUs but the cluster has 2: no queue order or policy can place them all at once; at "
            "least 0.2 GPUs' worth of pods must wait for others to finish");
}

}  // namespace
}  // namespace gpusched
