#include <gtest/gtest.h>

#include <random>

#include "gpusched/sched/plugins/filter_chain.h"
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

// SelectInTurn: Select's picks in turn, sorted once. Nodes a..e with free
// GPUs 2, 1, 4, 1, 2 and cpu 8, 8, 8, 4, 8 (in cpu): best-fit's order for a
// 1-GPU pod is d (1 GPU, 4 cpu), b (1, 8), then a and e (2 GPUs, equal: scan
// order), then c; worst-fit's is c, then a and e, then b, then d.
TEST(FitPoliciesTest, SelectInTurnTable) {
  ClusterState cl({GpuNode("a", 2, 8000), GpuNode("b", 1, 8000), GpuNode("c", 4, 8000), GpuNode("d", 1, 4000),
                   GpuNode("e", 2, 8000)});
  const Pod pod = GpuPod("p", 1, 1000);
  const PodInfo info = PodInfo::Make(pod, 0);
  Rng rng(1);
  std::vector<size_t> picks;
  BestFitPolicy best;
  const std::unique_ptr<PolicyState> best_state = best.NewState();
  best.SelectInTurn(info, cl, {0, 1, 2, 3, 4}, 10, rng, *best_state, picks);
  EXPECT_EQ(picks, (std::vector<size_t>{3, 1, 0, 4, 2}));
  best.SelectInTurn(info, cl, {4, 2, 0, 1, 3}, 3, rng, *best_state, picks);  // another scan order: e before a
  EXPECT_EQ(picks, (std::vector<size_t>{3, 1, 4}));
  WorstFitPolicy worst;
  worst.SelectInTurn(info, cl, {0, 1, 2, 3, 4}, 10, rng, *worst.NewState(), picks);
  EXPECT_EQ(picks, (std::vector<size_t>{2, 0, 4, 1, 3}));
  FirstFitPolicy first;
  first.SelectInTurn(info, cl, {4, 2, 0}, 2, rng, *first.NewState(), picks);
  EXPECT_EQ(picks, (std::vector<size_t>{4, 2}));
}

// The sorted SelectInTurn against asking Select in turn (the default), on
// random clusters and random candidate lists (repeats included).
TEST(FitPoliciesTest, SelectInTurnAsSelectInTurnPlain) {
  std::mt19937 g(7);
  BestFitPolicy best;
  WorstFitPolicy worst;
  FirstFitPolicy first;
  for (int round = 0; round < 300; ++round) {
    std::vector<Node> nodes;
    const size_t n = 1 + g() % 12;
    for (size_t i = 0; i < n; ++i)
      nodes.push_back(GpuNode("n" + std::to_string(i), static_cast<int64_t>(g() % 5), 1000 * static_cast<int64_t>(1 + g() % 4)));
    ClusterState cl(nodes);
    const Pod pod = GpuPod("p", static_cast<int64_t>(g() % 2), 500 * static_cast<int64_t>(g() % 3));
    const PodInfo info = PodInfo::Make(pod, 0);
    std::vector<size_t> candidates;
    for (size_t k = 1 + g() % (2 * n); k > 0; --k) candidates.push_back(g() % n);
    const size_t count = 1 + g() % 12;
    for (const Policy* p : {static_cast<const Policy*>(&best), static_cast<const Policy*>(&worst),
                            static_cast<const Policy*>(&first)}) {
      SCOPED_TRACE(std::string(p->Name()) + " round " + std::to_string(round));
      Rng r1(1), r2(1);
      std::vector<size_t> fast, plain;
      const std::unique_ptr<PolicyState> s1 = p->NewState(), s2 = p->NewState();
      p->SelectInTurn(info, cl, candidates, count, r1, *s1, fast);
      p->SelectInTurnPlain(info, cl, candidates, count, r2, *s2, plain);
      EXPECT_EQ(fast, plain);
      EXPECT_TRUE(p->RanksInOnePass());
    }
  }
}

}  // namespace
}  // namespace gpusched
