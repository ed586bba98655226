#include <gtest/gtest.h>

#include "gpusched/sched/policies/paper_policies.h"
#include "../paper_place_util.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

TEST(RandomPolicyTest, UniformNodeAndReservoirDevice) {
  ClusterState cl({TraceNode("a", 8000, 4, "T4"), TraceNode("b", 8000, 4, "T4"), TraceNode("c", 8000, 4, "T4")});
  Place(cl, 1, TracePod("s", 100, 1, 700), {2});  // b: [1000, 1000, 300, 1000]
  RandomPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  EXPECT_EQ(p.NumFeasibleNodesToFind(3), 3);
  EXPECT_FALSE(p.RotatesStartIndex());
  // Node: feasible[rng.Uniform(|feasible|)], replayed from the same seed.
  Rng rng(11), replay(11);
  const Pod share_pod = TracePod("p", 100, 1, 500);
  PodInfo share = PodInfo::Make(share_pod, 0);
  const std::vector<size_t> feasible = {0, 1, 2};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(p.Select(share, cl, feasible, rng, *st, nullptr), feasible[replay.Uniform(3)]);
  // Device on b: devices 0, 1, 3 fit 500m; the k-th replaces the choice
  // when rng.Uniform(k) == 0.
  for (int i = 0; i < 5; ++i) {
    int32_t want = -1;
    uint64_t k = 0;
    for (int32_t d : {0, 1, 3})
      if (replay.Uniform(++k) == 0) want = d;
    EXPECT_EQ(p.SelectGpus(share, cl, 1, rng, *st), std::vector<int32_t>{want});
  }
  // Whole GPUs: lowest-index fully free.
  const Pod whole_pod = TracePod("w", 100, 2, 1000);
  PodInfo whole = PodInfo::Make(whole_pod, 0);
  EXPECT_EQ(p.SelectGpus(whole, cl, 1, rng, *st), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(rng.NextU64(), replay.NextU64());  // no draw for whole GPUs
}

}  // namespace
}  // namespace gpusched
