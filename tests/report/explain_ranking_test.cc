#include "gpusched/report/explain_ranking.h"

#include <gtest/gtest.h>

#include "../sched/test_util.h"

namespace gpusched {
namespace {

NodeExplain Feasible(size_t node, int64_t total, bool scored = true) {
  NodeExplain ne;
  ne.node = node;
  ne.evaluated = ne.feasible = true;
  ne.scored = scored;
  ne.total = total;
  return ne;
}

NodeExplain Failed(size_t node, std::string plugin, std::vector<std::string> reasons, int64_t gpus_free) {
  NodeExplain ne;
  ne.node = node;
  ne.evaluated = true;
  ne.failed_plugin = std::move(plugin);
  ne.reasons = std::move(reasons);
  ne.gpus_free = gpus_free;
  return ne;
}

NodeExplain NotRun(size_t node) {
  NodeExplain ne;
  ne.node = node;
  return ne;
}

TEST(ExplainRankingTest, ChosenThenByScoreThenFailuresByGroupThenNotRun) {
  std::vector<Node> nodes;
  for (int i = 0; i < 11; ++i) nodes.push_back(testing::GpuNode("n" + std::to_string(i), 8));
  ClusterState cluster(nodes);
  cluster.RemoveNode(10);
  PodExplain e;
  e.nodes = {
      Failed(0, "NodeResourcesFit", {"Insufficient nvidia.com/gpu"}, 0),
      Feasible(1, 250),
      Failed(2, "TaintToleration", {"node(s) had untolerated taint(s)"}, 8),
      Feasible(3, 399),
      Failed(4, "NodeResourcesFit", {"Insufficient nvidia.com/gpu"}, 1),
      Feasible(5, 250),
      NotRun(6),
      Failed(7, "NodeResourcesFit", {"Insufficient cpu", "Insufficient nvidia.com/gpu"}, 0),
      Failed(8, "NodeResourcesFit", {"Insufficient nvidia.com/gpu"}, 1),
      NotRun(9),
      NotRun(10),  // removed from the cluster: left out
  };
  e.chosen = 5;
  ExplainRanking r = RankExplainedNodes(e, cluster);
  // Chosen first, then 399, then the other 250; NodeResourcesFit's three
  // nodes with the most free GPUs first (ties in node order), then the
  // single-node groups in node order, then the nodes the scan never reached.
  EXPECT_EQ(r.order, (std::vector<size_t>{5, 3, 1, 4, 8, 0, 2, 7, 6, 9}));
  EXPECT_EQ(r.feasible, 3u);
  EXPECT_EQ(r.failed_nodes, 5u);
  EXPECT_EQ(r.not_evaluated, 2u);
  ASSERT_EQ(r.failed.size(), 3u);
  EXPECT_EQ(r.failed[0].filter, "NodeResourcesFit");
  EXPECT_EQ(r.failed[0].reasons, "Insufficient nvidia.com/gpu");
  EXPECT_EQ(r.failed[0].nodes, (std::vector<size_t>{4, 8, 0}));
  EXPECT_EQ(r.failed[1].filter, "TaintToleration");
  EXPECT_EQ(r.failed[2].reasons, "Insufficient cpu, Insufficient nvidia.com/gpu");
}

TEST(ExplainRankingTest, UnscoredFeasibleNodesComeAfterScoredOnes) {
  ClusterState cluster({testing::GpuNode("a", 1), testing::GpuNode("b", 1), testing::GpuNode("c", 1)});
  PodExplain e;
  e.nodes = {Feasible(0, 0, false), Feasible(1, 10), Feasible(2, 0, false)};
  EXPECT_EQ(RankExplainedNodes(e, cluster).order, (std::vector<size_t>{1, 0, 2}));
}

}  // namespace
}  // namespace gpusched
