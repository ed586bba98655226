// Ported from TestTaintTolerationScore in k8s.io/kubernetes
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (newest stored version, cb6ff2d8). All 5 cases; as upstream, PreScore, Score
// on every node, then NormalizeScore, and the whole normalized list asserted.
#include <gtest/gtest.h>

#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"
#include "../../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::ScoreAndNormalize;

Node NodeWithTaints(const std::string& name, std::vector<Taint> taints) {
  Node n;
  n.meta.name = name;
  n.taints = std::move(taints);
  return n;
}

Pod PodWithTolerations(const std::string& name, std::vector<Toleration> tolerations) {
  Pod p;
  p.meta.name = name;
  p.tolerations = std::move(tolerations);
  return p;
}

struct TaintScoreCase {
  const char* name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<int64_t> expected_list;
};

TEST(TaintTolerationScoreTest, TaintTolerationScore) {
  const std::string kPrefer = kTaintEffectPreferNoSchedule;
  const std::string kNoSchedule = kTaintEffectNoSchedule;
  const std::vector<TaintScoreCase> cases = {
      // basic test case
      {"node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
       PodWithTolerations("pod1", {{"foo", "Equal", "bar", kPrefer}}),
       {NodeWithTaints("nodeA", {{"foo", "bar", kPrefer}}), NodeWithTaints("nodeB", {{"foo", "blah", kPrefer}})},
       {kMaxNodeScore, 0}},
      // the count of taints that are tolerated by pod, does not matter.
      {"the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable "
       "taints a node has",
       PodWithTolerations("pod1", {{"cpu-type", "Equal", "arm64", kPrefer}, {"disk-type", "Equal", "ssd", kPrefer}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", kPrefer}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}})},
       {kMaxNodeScore, kMaxNodeScore, kMaxNodeScore}},
      // the count of taints on a node that are not tolerated by pod, matters.
      {"the more intolerable taints a node has, the lower score it gets.",
       PodWithTolerations("pod1", {{"foo", "Equal", "bar", kPrefer}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", kPrefer}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}})},
       {kMaxNodeScore, 50, 0}},
      // taints-tolerations priority only takes care about the taints and tolerations that have effect PreferNoSchedule
      {"only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority "
       "function",
       PodWithTolerations("pod1",
                          {{"cpu-type", "Equal", "arm64", kNoSchedule}, {"disk-type", "Equal", "ssd", kNoSchedule}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", kNoSchedule}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}})},
       {kMaxNodeScore, kMaxNodeScore, 0}},
      {"Default behaviour No taints and tolerations, lands on node with no taints",
       // pod without tolerations
       PodWithTolerations("pod1", {}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", kPrefer}})},
       {kMaxNodeScore, 0}},
  };

  TaintToleration plugin;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(plugin.PreScore(PodInfo::Make(c.pod, 0), ClusterState(std::vector<Node>{})));
    EXPECT_EQ(ScoreAndNormalize(plugin, c.pod, MakeCluster(c.nodes)), c.expected_list);
  }
}

// gpusched's own cases: which tolerations take part (effect PreferNoSchedule or
// empty), and that NoSchedule / NoExecute taints are never counted.
TEST(TaintTolerationScoreTest, GpuschedTolerationEffects) {
  const std::string kPrefer = kTaintEffectPreferNoSchedule;
  const std::vector<Node> nodes = {
      NodeWithTaints("nodeA", {{"foo", "bar", kPrefer}}),
      NodeWithTaints("nodeB", {{"foo", "bar", kPrefer}, {"gpu", "", kPrefer}}),
      NodeWithTaints("nodeC", {{"foo", "bar", kTaintEffectNoExecute}, {"x", "y", kTaintEffectNoSchedule}}),
  };
  TaintToleration plugin;
  const PodInfo dummy = PodInfo::Make(PodWithTolerations("p", {}), 0);
  struct Case {
    const char* name;
    std::vector<Toleration> tolerations;
    std::vector<int64_t> raw;
    std::vector<int64_t> normalized;
  };
  const std::vector<Case> cases = {
      {"empty effect tolerates PreferNoSchedule", {{"foo", "Exists", "", ""}}, {0, 1, 0}, {100, 0, 100}},
      {"NoExecute toleration does not count", {{"foo", "Equal", "bar", kTaintEffectNoExecute}}, {1, 2, 0},
       {50, 0, 100}},
      {"empty key with Exists tolerates everything", {{"", "Exists", "", ""}}, {0, 0, 0}, {100, 100, 100}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Pod pod = PodWithTolerations("p", c.tolerations);
    std::vector<int64_t> scores = scoretest::ScoreAll(plugin, pod, MakeCluster(nodes));
    EXPECT_EQ(scores, c.raw);
    plugin.NormalizeScore(dummy, scores);
    EXPECT_EQ(scores, c.normalized);
  }
}

}  // namespace
}  // namespace gpusched
