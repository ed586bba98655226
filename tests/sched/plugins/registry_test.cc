// NewScorePlugin: gpusched's own checks of the registry (kube-scheduler plugin
// names, nullptr for unknown ones) and of the args defaulting it applies
// (pkg/scheduler/apis/config/v1/defaults.go SetDefaults_NodeResourcesFitArgs /
// SetDefaults_NodeResourcesBalancedAllocationArgs), with values derived from
// the upstream formulas, not from our output.
#include <gtest/gtest.h>

#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/registry.h"
#include "../score_test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNode;
using scoretest::MakePod;
using scoretest::ScoreAll;

TEST(ScorePluginsTest, NewScorePluginNames) {
  const ResolvedProfile profile;
  for (const char* name : {"NodeResourcesFit", "NodeResourcesBalancedAllocation", "TaintToleration", "NodeAffinity"}) {
    SCOPED_TRACE(name);
    auto p = NewScorePlugin(name, profile);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->Name(), name);
  }
  for (const char* name : {"", "ImageLocality", "PodTopologySpread", "InterPodAffinity", "nodeaffinity",
                           "NodeResourcesLeastAllocated"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(NewScorePlugin(name, profile), nullptr);
  }
}

// Pod: 3000 cpu / 5000 memory (two containers); nodes 4000/10000 and 6000/10000.
// LeastAllocated: node1 (25 + 50) / 2 = 37, node2 (50 + 50) / 2 = 50.
// MostAllocated:  node1 (75 + 50) / 2 = 62, node2 50.
TEST(ScorePluginsTest, NewScorePluginFitArgs) {
  const Pod pod = MakePod({{{"cpu", "1000"}, {"memory", "2000"}}, {{"cpu", "2000"}, {"memory", "3000"}}});
  const auto cluster = MakeCluster({MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
                                    MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})});
  struct Case {
    const char* name;
    NodeResourcesFitArgs args;
    std::vector<int64_t> expected;
  };
  NodeResourcesFitArgs empty;  // resources empty -> [{cpu,1},{memory,1}]
  NodeResourcesFitArgs zero_weights;
  zero_weights.resources = {{"memory", 0}, {"cpu", 0}};  // weight 0 -> 1
  NodeResourcesFitArgs most;
  most.type = ScoringStrategyType::kMostAllocated;
  NodeResourcesFitArgs weighted;
  weighted.resources = {{"memory", 2}, {"cpu", 1}};  // (25 + 100) / 3 = 41, (50 + 100) / 3 = 50
  NodeResourcesFitArgs cpu_only;
  cpu_only.resources = {{"cpu", 1}};
  const std::vector<Case> cases = {
      {"default resources", empty, {37, 50}},
      {"zero weights default to 1", zero_weights, {37, 50}},
      {"most allocated", most, {62, 50}},
      {"weighted", weighted, {41, 50}},
      {"cpu only", cpu_only, {25, 50}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ResolvedProfile profile;
    profile.fit_args = c.args;
    auto p = NewScorePlugin("NodeResourcesFit", profile);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->PreScore(PodInfo::Make(pod, 0)));
    EXPECT_EQ(ScoreAll(*p, pod, cluster), c.expected);
  }
}

// Pod 3000m cpu / 5000 memory on nodes 4000m/10000 and 6000m/10000:
// fractions (0.75, 0.5) -> 87 and (0.5, 0.5) -> 100 with the default resources.
TEST(ScorePluginsTest, NewScorePluginBalancedArgs) {
  const Pod pod = MakePod({{{"cpu", "1000m"}, {"memory", "2000"}}, {{"cpu", "2000m"}, {"memory", "3000"}}});
  const auto cluster = MakeCluster({MakeNode("node1", {{"cpu", "4000m"}, {"memory", "10000"}}),
                                    MakeNode("node2", {{"cpu", "6000m"}, {"memory", "10000"}})});
  ResolvedProfile profile;  // balanced_args.resources empty -> cpu, memory
  auto p = NewScorePlugin("NodeResourcesBalancedAllocation", profile);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->PreScore(PodInfo::Make(pod, 0)));
  EXPECT_EQ(ScoreAll(*p, pod, cluster), (std::vector<int64_t>{87, 100}));
  // A best-effort pod is skipped.
  EXPECT_FALSE(p->PreScore(PodInfo::Make(MakePod({{}}), 0)));
}

}  // namespace
}  // namespace gpusched
