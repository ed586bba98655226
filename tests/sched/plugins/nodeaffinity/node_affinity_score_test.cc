// Ported from TestNodeAffinityPriority in k8s.io/kubernetes
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (newest
// stored version with PreScore returning Skip). As upstream: optional
// PreScore, Score on every node, NormalizeScore, whole normalized list asserted;
// the plugin is made with the case's NodeAffinityArgs (addedAffinity).
// Ported: 8 of 9 cases. Not ported:
//  - "PreScore returns error when an incoming Pod has a broken affinity"
//    (label key "invalid key"): gpusched's ScorePlugin has no error status;
//    such a term never matches (NodeSelectorTermParses).
#include <gtest/gtest.h>

#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "../../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNode;
using scoretest::ScoreAndNormalize;

Pod PodWithAffinity(std::optional<NodeAffinity> affinity) {
  Pod p;
  p.meta.name = "p";
  p.node_affinity = std::move(affinity);
  return p;
}

NodeSelectorRequirement In(const std::string& key, const std::string& value) { return {key, "In", {value}}; }

struct AffinityScoreCase {
  const char* name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<int64_t> expected_list;
  bool run_pre_score = false;
  bool want_pre_score_skip = false;
  std::optional<NodeAffinity> added_affinity = std::nullopt;  // args.AddedAffinity
};

TEST(NodeAffinityScoreTest, NodeAffinityPriority) {
  const std::map<std::string, std::string> label1 = {{"foo", "bar"}};
  const std::map<std::string, std::string> label2 = {{"key", "value"}};
  const std::map<std::string, std::string> label3 = {{"az", "az1"}};
  const std::map<std::string, std::string> label4 = {{"abc", "az11"}, {"def", "az22"}};
  const std::map<std::string, std::string> label5 = {{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};

  NodeAffinity affinity1;
  affinity1.preferred = {{2, {{In("foo", "bar")}, {}}}};

  NodeAffinity affinity2;
  affinity2.preferred = {
      {2, {{In("foo", "bar")}, {}}},
      {4, {{In("key", "value")}, {}}},
      {5, {{In("foo", "bar"), In("key", "value"), In("az", "az1")}, {}}},
  };

  NodeAffinity added_key_value;
  added_key_value.preferred = {{3, {{In("key", "value")}, {}}}};

  const std::vector<AffinityScoreCase> cases = {
      {"all nodes are same priority as NodeAffinity is nil",
       PodWithAffinity(std::nullopt),
       {MakeNode("node1", {}, label1), MakeNode("node2", {}, label2), MakeNode("node3", {}, label3)},
       {0, 0, 0}},
      // PreScore returns Skip.
      {"Skip is returned in PreScore when NodeAffinity is nil",
       PodWithAffinity(std::nullopt),
       {MakeNode("node1", {}, label1)},
       {},
       true,
       true},
      {"no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
       PodWithAffinity(affinity1),
       {MakeNode("node1", {}, label4), MakeNode("node2", {}, label2), MakeNode("node3", {}, label3)},
       {0, 0, 0},
       true},
      {"only node1 matches the preferred scheduling requirements of pod",
       PodWithAffinity(affinity1),
       {MakeNode("node1", {}, label1), MakeNode("node2", {}, label2), MakeNode("node3", {}, label3)},
       {kMaxNodeScore, 0, 0},
       true},
      // Raw scores 2, 11, 4 -> 100 * 2 / 11 = 18, 100, 100 * 4 / 11 = 36.
      {"all nodes matches the preferred scheduling requirements of pod but with different priorities ",
       PodWithAffinity(affinity2),
       {MakeNode("node1", {}, label1), MakeNode("node5", {}, label5), MakeNode("node2", {}, label2)},
       {18, kMaxNodeScore, 36},
       true},
      {"added affinity",
       PodWithAffinity(std::nullopt),
       {MakeNode("node1", {}, label1), MakeNode("node2", {}, label2)},
       {kMaxNodeScore, 0},
       true,
       false,
       affinity1},
      // Raw scores 2, 3, 5 -> 100 * 2 / 5 = 40, 60, 100.
      {"added affinity and pod has default affinity",
       PodWithAffinity(affinity1),
       {MakeNode("node1", {}, label1), MakeNode("node2", {}, label2), MakeNode("node3", {}, label5)},
       {40, 60, kMaxNodeScore},
       true,
       false,
       added_key_value},
      // (Upstream's table runs PreScore in this case too, despite its name.)
      {"calculate the priorities correctly even if PreScore is not called",
       PodWithAffinity(affinity2),
       {MakeNode("node1", {}, label1), MakeNode("node5", {}, label5), MakeNode("node2", {}, label2)},
       {18, kMaxNodeScore, 36},
       true},
  };

  ASSERT_EQ(cases.size(), 8u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    NodeAffinityArgs args;
    args.added_affinity = c.added_affinity;
    const NodeAffinityPlugin plugin(args);
    if (c.run_pre_score) {
      const bool scored = plugin.PreScore(PodInfo::Make(c.pod, 0), ClusterState(std::vector<Node>{}));
      EXPECT_EQ(!scored, c.want_pre_score_skip);
      if (!scored) continue;  // "no need to proceed."
    }
    EXPECT_EQ(ScoreAndNormalize(plugin, c.pod, MakeCluster(c.nodes)), c.expected_list);
  }
}

// gpusched's own cases: weights add up over matching terms, a weight-0 or empty
// term never counts, matchFields on metadata.name, and an empty preferred list
// is skipped in PreScore.
TEST(NodeAffinityScoreTest, GpuschedTerms) {
  NodeAffinity affinity;
  affinity.preferred = {
      {0, {{In("foo", "bar")}, {}}},                              // weight 0: dropped
      {10, {}},                                                   // empty term: matches nothing
      {30, {{}, {NodeSelectorRequirement{"metadata.name", "In", {"node2"}}}}},
      {20, {{NodeSelectorRequirement{"gpu", "Gt", {"3"}}}, {}}},
  };
  const std::vector<Node> nodes = {MakeNode("node1", {}, {{"foo", "bar"}, {"gpu", "4"}}),
                                   MakeNode("node2", {}, {{"gpu", "2"}}), MakeNode("node3", {}, {})};
  NodeAffinityPlugin plugin;
  const Pod pod = PodWithAffinity(affinity);
  EXPECT_TRUE(plugin.PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
  EXPECT_EQ(scoretest::ScoreAll(plugin, pod, MakeCluster(nodes)), (std::vector<int64_t>{20, 30, 0}));
  // 100 * 20 / 30 = 66, 100, 0.
  EXPECT_EQ(ScoreAndNormalize(plugin, pod, MakeCluster(nodes)), (std::vector<int64_t>{66, 100, 0}));

  NodeAffinity required_only;
  required_only.has_required = true;
  required_only.required = {{{In("foo", "bar")}, {}}};
  EXPECT_FALSE(plugin.PreScore(PodInfo::Make(PodWithAffinity(required_only), 0), ClusterState(std::vector<Node>{})));
}

// The args' preferred terms count for every pod, beside the pod's own: a
// weight-0 or empty one never counts (NewPreferredSchedulingTerms drops it),
// yet a non-empty list keeps PreScore from skipping a pod without preferred
// terms (addedPrefSchedTerms is set).
TEST(NodeAffinityScoreTest, AddedPreferredTerms) {
  NodeAffinityArgs args;
  args.added_affinity = NodeAffinity{};
  args.added_affinity->preferred = {
      {0, {{In("foo", "bar")}, {}}},
      {10, {}},
      {30, {{NodeSelectorRequirement{"gpu", "Exists", {}}}, {}}},
  };
  const NodeAffinityPlugin plugin(args);
  const std::vector<Node> nodes = {MakeNode("node1", {}, {{"foo", "bar"}, {"gpu", "4"}}),
                                   MakeNode("node2", {}, {{"foo", "bar"}})};
  const Pod pod = PodWithAffinity(std::nullopt);
  EXPECT_TRUE(plugin.PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
  EXPECT_EQ(scoretest::ScoreAll(plugin, pod, MakeCluster(nodes)), (std::vector<int64_t>{30, 0}));

  NodeAffinityArgs dropped;
  dropped.added_affinity = NodeAffinity{};
  dropped.added_affinity->preferred = {{0, {{In("foo", "bar")}, {}}}};
  const NodeAffinityPlugin all_dropped(dropped);
  EXPECT_TRUE(all_dropped.PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
  EXPECT_EQ(scoretest::ScoreAll(all_dropped, pod, MakeCluster(nodes)), (std::vector<int64_t>{0, 0}));

  NodeAffinityArgs required_only;
  required_only.added_affinity = NodeAffinity{true, {{{In("foo", "bar")}, {}}}, {}};
  EXPECT_FALSE(NodeAffinityPlugin(required_only).PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
}

}  // namespace
}  // namespace gpusched
