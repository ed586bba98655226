#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::TraceNode;
using testing::TracePod;

TEST(PaperBestFitPolicyTest, ScoresByHandThenNormalised) {
  // int(100·(1 − [.5·(cpuLeft − cpu)/128000 + .5·(gpuLeft − gpu)/8000])) for
  // a (4000m, 1 GPU) pod:
  //  a: 64000m, 8 GPUs: .5·60000/128000 + .5·7000/8000 = .234375 + .4375 -> 32.8125 -> 32.
  //  b: 16000m, 2 GPUs: .046875 + .0625 -> 89.0625 -> 89.
  //  c: 8000m, 1 GPU: .015625 + 0 -> 98.4375 -> 98.
  // Min-max over the three (range 66): 0, 57·100/66 = 86, 100.
  ClusterState cl({TraceNode("a", 64000, 8, "G2"), TraceNode("b", 16000, 2, "T4"), TraceNode("c", 8000, 1, "P100")});
  PaperBestFitPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  const Pod pi_pod = TracePod("w", 4000, 1, 1000);
  PodInfo pi = PodInfo::Make(pi_pod, 0);
  std::vector<int64_t> scores(3);
  p.Score(pi, cl, {0, 1, 2}, scores, *st);
  EXPECT_EQ(scores, (std::vector<int64_t>{32, 89, 98}));
  p.Normalize(scores);
  EXPECT_EQ(scores, (std::vector<int64_t>{0, 86, 100}));

  Scheduler s(DefaultFilters(), std::make_unique<PaperBestFitPolicy>(), 3);
  PodExplain e;
  Decision d = s.ScheduleOne(pi, cl, &e);
  EXPECT_EQ(d.node, 2u);
  EXPECT_EQ(e.nodes[1].scores[0].raw, 89);
  EXPECT_EQ(e.nodes[1].scores[0].normalized, 86);
  EXPECT_EQ(e.nodes[1].total, 86000);
}

TEST(PaperBestFitPolicyTest, NormalizationCanMergeScores) {
  struct Case {
    std::vector<int64_t> raw, want;
  } cases[] = {
      {{10, 11, 210}, {0, 0, 100}},  // 1·100/200 = 0: a tie the raw scores did not have
      {{7, 7, 7}, {0, 0, 0}},        // equal: all MinNodeScore
      {{-5, 5}, {0, 100}},
  };
  PaperBestFitPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    p.Normalize(c.raw);
    EXPECT_EQ(c.raw, c.want);
  }
}

// SelectIndexed picks by raw score, so min-max must keep exactly the nodes
// with the highest raw score at the top (100, or all 0 when all are equal),
// merging only lower scores.
TEST(PaperBestFitPolicyTest, NormalizationKeepsTheHighestOnTop) {
  struct Case {
    std::vector<int64_t> raw, want;
  } cases[] = {
      {{98, 99, 0, 99}, {98, 100, 0, 100}},
      {{2147483647, 2147483646, -2147483648}, {100, 99, 0}},  // 32-bit extremes: no overflow
      {{-3, -3}, {0, 0}},
  };
  PaperBestFitPolicy p;
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    p.Normalize(c.raw);
    EXPECT_EQ(c.raw, c.want);
  }
}

}  // namespace
}  // namespace gpusched
