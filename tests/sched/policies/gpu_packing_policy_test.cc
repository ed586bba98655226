#include <gtest/gtest.h>

#include "gpusched/sched/policies/paper_policies.h"
#include "../paper_place_util.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

// A node whose devices have `free` milli, made by binding shares.
ClusterState NodeWith(const std::vector<int32_t>& free) {
  ClusterState cl({TraceNode("n", 96000, static_cast<int64_t>(free.size()), "1080")});
  for (size_t d = 0; d < free.size(); ++d)
    if (free[d] < 1000) Place(cl, 0, TracePod("s", 100, 1, 1000 - free[d]), {static_cast<int32_t>(d)});
  return cl;
}

TEST(GpuPackingPolicyTest, ScoresByHand) {
  struct Case {
    const char* name;
    std::vector<int32_t> free;
    Pod pod;
    int64_t want;
  } cases[] = {
      // gpu_packing_score_test.go's vectors.
      {"case-2: 2 whole on [200,1000,1000,500] -> 50 − 2", {200, 1000, 1000, 500}, TracePod("p", 100, 2, 1000), 48},
      {"case-3: 4 free -> max(33 − 4, 4)", {1000, 1000, 1000, 1000}, TracePod("p", 100, 2, 1000), 29},
      {"case-3: 8 free -> max(33 − 8, 8)", std::vector<int32_t>(8, 1000), TracePod("p", 100, 2, 1000), 25},
      {"case-1: 2×200 on 200 and 500 -> 100 − (20+50)/10", {200, 1000, 1000, 500}, TracePod("p", 100, 2, 200), 93},
      // By hand: a 300m share scans 200 (too small), then 600: 100 − 60/10 = 94.
      {"case-1: share on the least free that fits", {200, 1000, 600}, TracePod("p", 100, 1, 300), 94},
      // 900m: only the fully free device fits: max(50 − 1, 33) = 49.
      {"case-2: share needing a free device", {200, 1000, 600}, TracePod("p", 100, 1, 900), 49},
      // Eight 100m shares on eight 900s: 100 − 8·90/10 = 28, capped to 50.
      {"case-1 cap", std::vector<int32_t>(8, 900), TracePod("p", 100, 8, 100), 50},
      {"cpu only", {200, 1000}, TracePod("p", 100), 0},
  };
  GpuPackingPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cl = NodeWith(c.free);
    ASSERT_EQ(cl.state(0).gpu_free_milli, c.free);
    EXPECT_EQ(p.ScoreNode(PodInfo::Make(c.pod, 0), cl, 0, *st), c.want);
  }
}

}  // namespace
}  // namespace gpusched
