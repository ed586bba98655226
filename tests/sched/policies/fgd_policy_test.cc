#include <gtest/gtest.h>

#include <string>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../paper_place_util.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

// Target workload for the hand-worked cases: T1 = (1000m, 500m × 1) and
// T2 = (2000m, 1000m × 1), p = 0.5 each.
TypicalPods TwoTypes() {
  return TypicalPods{{{PodShape{1000, 500, 1, ""}, 0.5}, {PodShape{2000, 1000, 1, ""}, 0.5}}};
}

// A: 4000m left, free [1000, 1000]: F = 0 (both types Q3, no device too small).
// B: 4000m left, free [500, 1000]:  F = .5·500 = 250 (T2 is Q3 with 500 on a too-small device).
// C: 1500m left, free [1000, 1000]: F = .5·2000 = 1000 (T2 lacks CPU: Q4, all R).
ClusterState HandCluster() {
  ClusterState cl({TraceNode("a", 4000, 2, "T4"), TraceNode("b", 8000, 2, "T4"), TraceNode("c", 1500, 2, "T4")});
  Place(cl, 1, TracePod("used", 4000, 1, 500), {0});
  return cl;
}

TEST(FgdPolicyTest, ScoresByHand) {
  // score = int(100·sigmoid((F − F')/1000)); sigmoid(±0.25) = .5622/.4378,
  // sigmoid(−0.5) = .3775, sigmoid(−1) = .2689.
  struct Case {
    const char* name;
    Pod pod;
    std::vector<int64_t> want;  // a, b, c
  } cases[] = {
      // Share (1000m, 500m): A on device 0 -> [500, 1000]: T2 gets 500 too
      // small, F' = 250 -> 43. B device 0 -> [0, 1000]: F' = 0 -> 56 (device 1
      // -> [500, 500]: T2 lacks a GPU, F' = 500 -> 43). C -> 500m left: both
      // types lack CPU, F' = 1500 -> 37.
      {"share", TracePod("s", 1000, 1, 500), {43, 56, 37}},
      // One whole GPU (2000m): A -> [0, 1000], 2000m: F' = 0 -> 50. B -> [500,
      // 0]: T2 lacks a GPU, F' = .5·500 = 250 = F -> 50. C: 1500m < 2000m, so
      // NodeResource.Sub leaves the node unchanged -> 50.
      {"whole", TracePod("w", 2000, 1, 1000), {50, 50, 50}},
      // CPU only (3000m): A -> 1000m left: T2 Q4, F' = 1000 -> 26. B -> F' =
      // .5·1500 = 750 -> 37. C: Sub fails (1500m < 3000m) -> unchanged, 50.
      {"cpu", TracePod("c", 3000), {26, 37, 50}},
  };
  ClusterState cl = HandCluster();
  FgdPolicy p(TwoTypes());
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    PodInfo pi = PodInfo::Make(c.pod, 0);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(p.ScoreNode(pi, cl, i, *st), c.want[i]) << "node " << i;
  }
  // A pod with no requests at all scores 100 (MaxNodeScore) everywhere.
  Pod empty = TracePod("e", 0);
  empty.containers[0].requests.clear();
  EXPECT_EQ(p.ScoreNode(PodInfo::Make(empty, 0), cl, 2, *st), 100);
}

TEST(FgdPolicyTest, BoundsByHand) {
  // Bound = int(100·sigmoid(g·w/1000)), g the milli taken, w the freq of
  // the types the node does not satisfy plus, for a share, of those it does
  // with more milli than the least free device that fits. A and B satisfy
  // T1 and T2; C lacks CPU for T2 (w = .5).
  struct Case {
    const char* name;
    Pod pod;
    std::vector<int64_t> want;  // a, b, c; the scores are in ScoresByHand
  } cases[] = {
      // g = 500. A: least fitting device 1000, no satisfied type above: 50.
      // B: least 500, T2 (1000m) above: w = .5 -> sigmoid(.25) -> 56 (tight).
      // C: w = .5 -> 56.
      {"share", TracePod("s", 1000, 1, 500), {50, 56, 56}},
      // g = 1000 from wholly free devices: C -> sigmoid(.5) -> 62.
      {"whole", TracePod("w", 2000, 1, 1000), {50, 50, 62}},
      // g = 0: F can only grow, 50.
      {"cpu", TracePod("c", 3000), {50, 50, 50}},
  };
  ClusterState cl = HandCluster();
  FgdPolicy p(TwoTypes());
  const std::unique_ptr<PolicyState> st = p.NewState();
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<int64_t> bounds(3);
    EXPECT_TRUE(p.ScoreBound(PodInfo::Make(c.pod, 0), cl, {0, 1, 2}, bounds, *st));
    EXPECT_EQ(bounds, c.want);
  }
  // No requests: every score is 100, no bound is offered.
  Pod empty = TracePod("e", 0);
  empty.containers[0].requests.clear();
  std::vector<int64_t> bounds(1);
  EXPECT_FALSE(p.ScoreBound(PodInfo::Make(empty, 0), cl, {0}, bounds, *st));
}

TEST(FgdPolicyTest, BoundNeverBelowTheScore) {
  // Random nodes (0-8 devices, some partly used, two models) and pods
  // (shares, whole GPUs, multi-GPU shares, CPU-only, model lists) against a
  // workload with CPU-only and model-bound types.
  TypicalPods t{{{PodShape{1000, 500, 1, ""}, .2},
                 {PodShape{8000, 1000, 2, ""}, .2},
                 {PodShape{4000, 0, 0, ""}, .2},
                 {PodShape{2000, 300, 1, "A100"}, .2},
                 {PodShape{12000, 1000, 1, ""}, .2}}};
  FgdPolicy p(t);
  const std::unique_ptr<PolicyState> st = p.NewState();
  Rng rng(5);
  int64_t checked = 0, tight = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<Node> nodes;
    for (int i = 0; i < 4; ++i)
      nodes.push_back(TraceNode("n" + std::to_string(i), 4000 * static_cast<int64_t>(1 + rng.Uniform(8)),
                                static_cast<int64_t>(rng.Uniform(9)), rng.Uniform(2) ? "T4" : "A100"));
    ClusterState cl(nodes);
    for (size_t i = 0; i < cl.size(); ++i) {
      const auto& free = cl.state(i).gpu_free_milli;
      for (size_t d = 0; d < free.size(); ++d)
        if (rng.Uniform(3) == 0) Place(cl, i, TracePod("u", 1000, 1, 100 * (1 + rng.Uniform(10))), {static_cast<int32_t>(d)});
    }
    static const int64_t kMilli[] = {0, 150, 500, 900, 1000};
    const int64_t milli = kMilli[rng.Uniform(5)];
    const int64_t count = milli == 0 ? 0 : 1 + rng.Uniform(2);
    const Pod pod = TracePod("p", 1000 * static_cast<int64_t>(1 + rng.Uniform(16)), count, milli,
                             rng.Uniform(4) == 0 ? "A100" : "");
    const PodInfo pi = PodInfo::Make(pod, 0);
    std::vector<int64_t> bounds(cl.size());
    ASSERT_TRUE(p.ScoreBound(pi, cl, {0, 1, 2, 3}, bounds, *st));
    for (size_t i = 0; i < cl.size(); ++i) {
      const int64_t score = p.ScoreNode(pi, cl, i, *st);
      EXPECT_GE(bounds[i], score) << "round " << round << " node " << i;
      ++checked;
      tight += bounds[i] == score;
    }
  }
  EXPECT_EQ(checked, 800);
  EXPECT_EQ(tight, 210);  // the bound is often exact
}

TEST(FgdPolicyTest, CacheFollowsNodeVersion) {
  ClusterState cl = HandCluster();
  FgdPolicy p(TwoTypes());
  const std::unique_ptr<PolicyState> st = p.NewState();
  Pod share = TracePod("s", 1000, 1, 500);
  PodInfo pi = PodInfo::Make(share, 0);
  EXPECT_EQ(p.ScoreNode(pi, cl, 0, *st), 43);
  // A becomes B's twin (a 500m share on device 0, 4000m -> 0m left): the
  // cached score must be recomputed. 0m left: every type lacks CPU; the
  // share (1000m) leaves -1000m: F' = R' = 1000 vs F = 1500 -> sigmoid(.5)
  // = .6225 -> 62 (device 0 -> [0, 1000]; device 1 -> [500, 500] same R').
  Place(cl, 0, TracePod("x", 4000, 1, 500), {0});
  EXPECT_EQ(p.ScoreNode(pi, cl, 0, *st), 62);
  // Another ClusterState at another address: caches are dropped.
  ClusterState fresh = HandCluster();
  EXPECT_EQ(p.ScoreNode(pi, fresh, 0, *st), 43);
}

TEST(FgdPolicyTest, ShareDeviceIsTheArgmax) {
  // One type T = (1000m, 500m × 1), p = 1. Node: 8000m left, free [600, 1000].
  // F = 0. A 200m share: device 0 -> [400, 1000]: 400 too small, F' = 400 ->
  // int(100·sigmoid(−.4)) = 40; device 1 -> [600, 800]: F' = 0 -> 50. FGD
  // takes device 1, where gpusel "best" (least free that fits) takes 0.
  TypicalPods t{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  ClusterState cl({TraceNode("n", 9000, 2, "T4")});
  Place(cl, 0, TracePod("used", 1000, 1, 400), {0});
  FgdPolicy p(t);
  const std::unique_ptr<PolicyState> st = p.NewState();
  Rng rng(1);
  const Pod pi_pod = TracePod("s", 1000, 1, 200);
  PodInfo pi = PodInfo::Make(pi_pod, 0);
  EXPECT_EQ(p.ScoreNode(pi, cl, 0, *st), 50);
  EXPECT_EQ(p.SelectGpus(pi, cl, 0, rng, *st), std::vector<int32_t>{1});
  EXPECT_EQ(cl.DefaultGpuChoice(0, pi.gpu), std::vector<int32_t>{0});
  // Equal scores keep the first index: on [1000, 1000] both give F' = 0.
  ClusterState empty({TraceNode("n", 9000, 2, "T4")});
  EXPECT_EQ(p.SelectGpus(pi, empty, 0, rng, *st), std::vector<int32_t>{0});
  // Whole GPUs: lowest-index fully free devices.
  const Pod whole_pod = TracePod("w", 1000, 1, 1000);
  PodInfo whole = PodInfo::Make(whole_pod, 0);
  EXPECT_EQ(p.SelectGpus(whole, cl, 0, rng, *st), std::vector<int32_t>{1});
}

TEST(FgdPolicyTest, TiesGoToTheSmallestRankAndExplain) {
  // Three empty identical nodes: a whole GPU scores 50 on each (F = F' = 0
  // for T1/T2 on 4 free devices with CPU to spare), so the seeded rank decides.
  ClusterState cl({TraceNode("a", 32000, 4, "T4"), TraceNode("b", 32000, 4, "T4"), TraceNode("c", 32000, 4, "T4")});
  Scheduler s(DefaultFilters(), std::make_unique<FgdPolicy>(TwoTypes()), 5);
  Pod pod = TracePod("w", 2000, 1, 1000);
  PodExplain e;
  Decision d = s.ScheduleOne(PodInfo::Make(pod, 0), cl, &e);
  ASSERT_TRUE(d.scheduled);
  const auto& ranks = PaperScorePolicy::Ranks(s.policy_state());
  ASSERT_EQ(ranks.size(), 3u);
  size_t want = 0;
  for (size_t i = 1; i < 3; ++i)
    if (ranks[i] < ranks[want]) want = i;
  EXPECT_EQ(d.node, want);
  EXPECT_EQ(d.gpus, std::vector<int32_t>{0});
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(e.nodes[i].scores.size(), 1u);
    const PluginScore& ps = e.nodes[i].scores[0];
    EXPECT_EQ(ps.plugin, "FGDScore");
    EXPECT_EQ(ps.raw, 50);
    EXPECT_EQ(ps.weight, 1000);
    EXPECT_EQ(e.nodes[i].total, 50000);
  }
  EXPECT_EQ(e.why.substr(0, 70), "fgd: highest FGDScore 50, tied on 3 nodes: the first in the seeded ran");
}

}  // namespace
}  // namespace gpusched
