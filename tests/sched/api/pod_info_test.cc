// Ours: what PodInfo::Make reads off a pod once (include/gpusched/sched/api/pod_info.h),
// so that the scheduler's fast path need not load the Pod again.
#include "gpusched/sched/api/pod_info.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace gpusched {
namespace {

using testing::ResourcePod;

TEST(PodInfoTest, MakeReadsTheFastPathFactsOnce) {
  struct Case {
    const char* name;
    void (*edit)(Pod&);
    int64_t whole_gpus;
    bool other_extended;
    bool unconstrained;
    int32_t priority;
  };
  const Case cases[] = {
      {"plain", [](Pod&) {}, 2, false, true, 0},
      {"priority", [](Pod& p) { p.priority = 1000; }, 2, false, true, 1000},
      {"nodeName", [](Pod& p) { p.node_name = "n0"; }, 2, false, false, 0},
      {"nodeSelector", [](Pod& p) { p.node_selector["zone"] = "a"; }, 2, false, false, 0},
      {"node affinity (preferred only, still not cacheable)", [](Pod& p) { p.node_affinity = NodeAffinity{}; }, 2,
       false, false, 0},
      {"a toleration", [](Pod& p) { p.tolerations.push_back(Toleration{}); }, 2, false, false, 0},
      {"another extended resource", [](Pod& p) { p.containers[0].requests["example.com/foo"] = Quantity::FromInt(1); },
       2, true, true, 0},
      {"another extended resource at zero",
       [](Pod& p) { p.containers[0].requests["example.com/foo"] = Quantity::FromInt(0); }, 2, false, true, 0},
      {"no GPU", [](Pod& p) { p.containers[0].requests.erase("nvidia.com/gpu"); }, 0, false, true, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Pod pod = ResourcePod({{1000, 0, 0, {{"nvidia.com/gpu", 2}}}});
    c.edit(pod);
    const PodInfo info = PodInfo::Make(pod, 7);
    EXPECT_EQ(info.whole_gpus, c.whole_gpus);
    EXPECT_EQ(info.gpus(), c.whole_gpus);
    EXPECT_EQ(info.other_extended, c.other_extended);
    EXPECT_EQ(info.unconstrained, c.unconstrained);
    EXPECT_EQ(info.priority, c.priority);
    EXPECT_EQ(info.input_index, 7u);
  }
}

}  // namespace
}  // namespace gpusched
