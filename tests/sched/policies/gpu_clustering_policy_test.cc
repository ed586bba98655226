#include <gtest/gtest.h>

#include "gpusched/sched/policies/paper_policies.h"
#include "../paper_place_util.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

TEST(GpuClusteringPolicyTest, ScoresByHand) {
  // base = 25·(8000 − gpuLeft)/8000 in integers, 8000 for every node.
  //  n0: empty 8-GPU node: base 0, no tags.
  //  n1: a 300m share: left 7700, base 25·300/8000 = 0; tags {share}.
  //  n2: a 300m share and a 1-GPU pod: left 6700, base 32500/8000 = 4; {share, 1-gpu}.
  //  n3: 4-GPU node with a 2-GPU pod: left 2000, base 150000/8000 = 18; {2-gpu}.
  //  n4: a CPU-only pod: left 8000, base 0, no tags (no-gpu is not a tag).
  ClusterState cl({TraceNode("n0", 64000, 8, "G2"), TraceNode("n1", 64000, 8, "G2"), TraceNode("n2", 64000, 8, "G2"),
                   TraceNode("n3", 64000, 4, "V100M16"), TraceNode("n4", 64000, 8, "G2")});
  Place(cl, 1, TracePod("s", 1000, 1, 300), {0});
  Place(cl, 2, TracePod("s", 1000, 1, 300), {0});
  Place(cl, 2, TracePod("w", 1000, 1, 1000), {1});
  Place(cl, 3, TracePod("w2", 1000, 2, 1000), {0, 1});
  Place(cl, 4, TracePod("c", 1000), {});
  struct Case {
    const char* name;
    Pod pod;
    std::vector<int64_t> want;  // n0..n4
  } cases[] = {
      // share: n0 25+0; n1 only share 75+0; n2 mixed incl. 50+4; n3 other 18; n4 no GPU pods 25+0.
      {"share", TracePod("p", 1000, 1, 500), {25, 75, 54, 18, 25}},
      // 1-gpu: n1 other tags 0; n2 mixed 54; n3 other 18.
      {"1-gpu", TracePod("p", 1000, 1, 1000), {25, 0, 54, 18, 25}},
      // 2-gpu: n3 only 2-gpu: 75+18 = 93.
      {"2-gpu", TracePod("p", 1000, 2, 1000), {25, 0, 4, 93, 25}},
      {"cpu only", TracePod("p", 1000), {0, 0, 0, 0, 0}},
  };
  GpuClusteringPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    PodInfo pi = PodInfo::Make(c.pod, 0);
    for (size_t i = 0; i < 5; ++i) EXPECT_EQ(p.ScoreNode(pi, cl, i, *st), c.want[i]) << "node " << i;
  }
  // The cached tags follow the node: a share on n3 makes it mixed for 2-gpu
  // pods (left 1500: base 162500/8000 = 20 -> 50+20).
  Place(cl, 3, TracePod("s", 1000, 1, 500), {2});
  EXPECT_EQ(p.ScoreNode(PodInfo::Make(TracePod("p", 1000, 2, 1000), 0), cl, 3, *st), 70);
}

}  // namespace
}  // namespace gpusched
