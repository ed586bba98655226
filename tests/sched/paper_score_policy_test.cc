#include <gtest/gtest.h>

#include "gpusched/sched/paper_policies.h"
#include "paper_test_util.h"

namespace gpusched {
namespace {

using testing::TraceNode;
using testing::TracePod;

// Scores each node by a fixed table; normalises by doubling (to tell raw
// from normalised in explain).
class FixedScorePolicy : public PaperScorePolicy {
 public:
  explicit FixedScorePolicy(std::vector<int64_t> by_node) : by_node_(std::move(by_node)) {}
  std::string_view Name() const override { return "fixed"; }
  std::string_view PluginName() const override { return "FixedScore"; }
  void Score(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores) const override {
    for (size_t k = 0; k < feasible.size(); ++k) scores[k] = by_node_[feasible[k]];
  }
  void Normalize(std::vector<int64_t>& scores) const override {
    for (auto& s : scores) s *= 2;
  }

 protected:
  std::string_view ScoreMeaning() const override { return "a table"; }

 private:
  std::vector<int64_t> by_node_;
};

TEST(PaperScorePolicyTest, HighestThenRankAndExplain) {
  ClusterState cl({TraceNode("a", 8000, 1, "T4"), TraceNode("b", 8000, 1, "T4"), TraceNode("c", 8000, 1, "T4"),
                   TraceNode("d", 8000, 1, "T4")});
  const Pod pod = TracePod("p", 1000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  FixedScorePolicy p({7, 9, 3, 9});
  EXPECT_EQ(p.NumFeasibleNodesToFind(4), 4);
  EXPECT_FALSE(p.RotatesStartIndex());
  EXPECT_TRUE(p.ranks().empty());
  Rng rng(3);
  PodExplain e;
  e.nodes.resize(4);
  const size_t chosen = p.Select(pi, cl, {0, 1, 2, 3}, rng, &e);
  // b and d tie at 9 (normalised 18): the one with the smaller rank wins.
  const auto& r = p.ranks();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(chosen, r[1] < r[3] ? 1u : 3u);
  EXPECT_EQ(p.ScoreNode(pi, cl, 2), 3);
  const PluginScore& s = e.nodes[1].scores.at(0);
  EXPECT_EQ(s.plugin, "FixedScore");
  EXPECT_EQ(s.raw, 9);
  EXPECT_EQ(s.normalized, 18);
  EXPECT_EQ(s.weight, kPaperScoreWeight);
  EXPECT_EQ(s.weighted, 18000);
  EXPECT_EQ(e.nodes[1].total, 18000);
  EXPECT_TRUE(e.nodes[2].scored);
  EXPECT_EQ(e.why,
            "fixed: highest FixedScore 18, tied on 2 nodes: the first in the seeded random node order (the "
            "simulator's node-name prefix); score = a table");
  // A unique highest needs no tie-break; only feasible nodes are scored.
  PodExplain e2;
  e2.nodes.resize(4);
  EXPECT_EQ(p.Select(pi, cl, {0, 2}, rng, &e2), 0u);
  EXPECT_EQ(e2.why, "fixed: highest FixedScore 14; score = a table");
  EXPECT_FALSE(e2.nodes[1].scored);
}

}  // namespace
}  // namespace gpusched
