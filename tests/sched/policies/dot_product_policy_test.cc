#include <gtest/gtest.h>

#include "gpusched/sched/policies/paper_policies.h"
#include "../paper_place_util.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

TEST(DotProductPolicyTest, ScoresByHand) {
  // score = int(100·(1 − (cpuLeft/128000·cpu/128000 + gpuLeft/8000·gpu/8000)/2)).
  // Nodes: a = 64000m, 8 free GPUs -> [0.5, 1]; b = 16000m, 2 free -> [0.125,
  // 0.25]; c = 2000m left (8000m with a 6000m pod), 1 GPU.
  ClusterState cl({TraceNode("a", 64000, 8, "G2"), TraceNode("b", 16000, 2, "T4"), TraceNode("c", 8000, 1, "P100")});
  Place(cl, 2, TracePod("cpu", 6000), {});
  struct Case {
    const char* name;
    Pod pod;
    std::vector<int64_t> want;
  } cases[] = {
      // Pod [4000/128000, 1000/8000] = [0.03125, 0.125].
      // a: .5·.03125 + 1·.125 = .140625 -> 1 − .0703125 -> 92.96875 -> 92.
      // b: .125·.03125 + .25·.125 = .03515625 -> 1 − .017578125 -> 98.2421875 -> 98.
      // c: 2000m left < 4000m: no match group -> 0.
      {"one GPU", TracePod("w", 4000, 1, 1000), {92, 98, 0}},
      // Pod [0.125, 0]: a: .0625 -> 1 − .03125 -> 96.875 -> 96; b: .015625 ->
      // 99.21875 -> 99; c: 2000m < 16000m -> 0.
      {"cpu only", TracePod("c", 16000), {96, 99, 0}},
      // A share counts count·milli = 500: pod [1000/128000, 0.0625].
      // a: .5·.0078125 + 1·.0625 = .06640625 -> 96.6796875 -> 96.
      {"share", TracePod("s", 1000, 1, 500), {96, 99, 99}},
  };
  // share on b: .125·.0078125 + .25·.0625 = .0166015625 -> 99.169921875 -> 99;
  // on c (2000m, 1000 free): .015625·.0078125 + .125·.0625 = .0079345703125
  // -> 99.603271484375 -> 99.
  DotProductPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    PodInfo pi = PodInfo::Make(c.pod, 0);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(p.ScoreNode(pi, cl, i, *st), c.want[i]) << "node " << i;
  }
  // gpusel best: the share goes to the least free device that fits.
  Rng rng(1);
  Place(cl, 0, TracePod("x", 0, 1, 300), {3});
  EXPECT_EQ(p.SelectGpus(PodInfo::Make(TracePod("s", 1000, 1, 500), 0), cl, 0, rng, *st), std::vector<int32_t>{3});
}

}  // namespace
}  // namespace gpusched
