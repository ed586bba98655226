#include "gpusched/sched/policies/scoring_policy.h"

#include <gtest/gtest.h>

#include <map>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// Cases of TestNumFeasibleNodesToFind, pkg/scheduler/schedule_one_test.go.
TEST(ScoringPolicyTest, NumFeasibleNodesToFind) {
  struct Case {
    const char* name;
    std::optional<int32_t> pct;
    int64_t nodes, want;
  } cases[] = {
      {"not set percentageOfNodesToScore and nodes number not more than 50", std::nullopt, 10, 10},
      {"set profile percentageOfNodesToScore and nodes number not more than 50", 40, 10, 10},
      {"not set percentageOfNodesToScore and nodes number more than 50", std::nullopt, 1000, 420},
      {"set profile percentageOfNodesToScore and nodes number more than 50", 40, 1000, 400},
      {"not set profile percentageOfNodesToScore and nodes number more than 50", std::nullopt, 6000, 300},
      {"set profile percentageOfNodesToScore and nodes number more than 50 (6000)", 40, 6000, 2400},
      {"adaptive percentage floors at 5%", std::nullopt, 10000, 500},
      {"never fewer than 100", 1, 1000, 100},
      {"99 nodes: all", 5, 99, 99},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(NumFeasibleNodesToFind(c.pct, c.nodes), c.want);
  }
}

// A score plugin that returns a fixed score per node name.
class FixedScore : public ScorePlugin {
 public:
  explicit FixedScore(std::map<std::string, int64_t> s) : s_(std::move(s)) {}
  std::string_view Name() const override { return "Fixed"; }
  int64_t Score(const PodInfo&, const Node& node, const NodeState&) const override { return s_.at(node.name()); }

 private:
  std::map<std::string, int64_t> s_;
};

std::unique_ptr<Scheduler> Scoring(std::map<std::string, int64_t> scores, uint64_t seed,
                                   std::optional<int32_t> pct = std::nullopt) {
  std::vector<WeightedScorePlugin> v;
  v.push_back({std::make_unique<FixedScore>(std::move(scores)), 2});
  return std::make_unique<Scheduler>(DefaultFilters(), std::make_unique<ScoringPolicy>("kube-default", std::move(v), pct),
                                     seed);
}

TEST(ScoringPolicyTest, HighestWeightedScoreWinsAndExplainShowsIt) {
  ClusterState c({GpuNode("a", 4), GpuNode("b", 4), GpuNode("c", 4)});
  auto s = Scoring({{"a", 10}, {"b", 30}, {"c", 20}}, 1);
  Pod p = GpuPod("p", 1);
  PodExplain e;
  Decision d = s->ScheduleOne(PodInfo::Make(p, 0), c, &e);
  ASSERT_TRUE(d.scheduled);
  EXPECT_EQ(d.node, 1u);
  EXPECT_EQ(e.why, "highest total score 60");
  ASSERT_EQ(e.nodes[2].scores.size(), 1u);
  EXPECT_EQ(e.nodes[2].scores[0].raw, 20);
  EXPECT_EQ(e.nodes[2].scores[0].weighted, 40);
  EXPECT_EQ(e.nodes[2].total, 40);
}

TEST(ScoringPolicyTest, TiesAreUniformAndSeeded) {
  std::map<size_t, int> counts;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    ClusterState c({GpuNode("a", 4), GpuNode("b", 4), GpuNode("c", 4)});
    auto s = Scoring({{"a", 50}, {"b", 50}, {"c", 50}}, seed);
    Pod p = GpuPod("p", 1);
    counts[s->ScheduleOne(PodInfo::Make(p, 0), c).node]++;
  }
  ASSERT_EQ(counts.size(), 3u);
  for (const auto& [node, n] : counts) EXPECT_NEAR(n, 1000, 120) << node;
  // Same seed, same choice.
  ClusterState c1({GpuNode("a", 4), GpuNode("b", 4)}), c2({GpuNode("a", 4), GpuNode("b", 4)});
  Pod p = GpuPod("p", 1);
  EXPECT_EQ(Scoring({{"a", 1}, {"b", 1}}, 7)->ScheduleOne(PodInfo::Make(p, 0), c1).node,
            Scoring({{"a", 1}, {"b", 1}}, 7)->ScheduleOne(PodInfo::Make(p, 0), c2).node);
}

TEST(ScoringPolicyTest, ScanRotatesAndStopsAtNodesToFind) {
  // 200 nodes with percentageOfNodesToScore 50: the scan looks for 100
  // feasible nodes and the next scan starts where this one stopped.
  std::vector<Node> nodes;
  std::map<std::string, int64_t> scores;
  for (int i = 0; i < 200; ++i) {
    nodes.push_back(GpuNode("n" + std::to_string(i), 8));
    scores["n" + std::to_string(i)] = i;  // later nodes score higher
  }
  ClusterState c(nodes);
  auto s = Scoring(scores, 1, 50);
  Pod p = GpuPod("p", 1);
  PodExplain e1, e2;
  Decision d1 = s->ScheduleOne(PodInfo::Make(p, 0), c, &e1);
  EXPECT_EQ(e1.nodes_to_find, 100);
  EXPECT_EQ(e1.start_index, 0u);
  EXPECT_EQ(d1.node, 99u);  // the best among the first 100 looked at
  EXPECT_FALSE(e1.nodes[150].evaluated);
  Decision d2 = s->ScheduleOne(PodInfo::Make(p, 1), c, &e2);
  EXPECT_EQ(e2.start_index, 100u);
  EXPECT_EQ(d2.node, 199u);
}

TEST(ScoringPolicyTest, OneFeasibleNodeIsChosenWithoutScoring) {
  ClusterState c({GpuNode("a", 1), GpuNode("b", 8)});
  auto s = Scoring({{"a", 100}, {"b", 0}}, 1);
  Pod p = GpuPod("p", 4);
  PodExplain e;
  Decision d = s->ScheduleOne(PodInfo::Make(p, 0), c, &e);
  EXPECT_EQ(d.node, 1u);
  EXPECT_EQ(e.why, "the only feasible node (chosen without scoring)");
  EXPECT_FALSE(e.nodes[1].scored);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST(ScoringPolicyTest, ConfiguredButUnimplementedScorersStillScanForAll) {
  // hasScoring counts configured score plugins, implemented or not.
  ScoringPolicy none("kube-default", {}, std::nullopt);
  EXPECT_EQ(none.NumFeasibleNodesToFind(500), 1);
  ScoringPolicy unimplemented("kube-default", {}, std::nullopt, /*has_scoring=*/true);
  EXPECT_EQ(unimplemented.NumFeasibleNodesToFind(500), 500 * (50 - 500 / 125) / 100);
}

}  // namespace
}  // namespace gpusched
