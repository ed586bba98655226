// src/server/decisions.cc against the Scheduler it borrows its rules from:
// on random clusters, for every policy, the nodes serve's /filter passes are
// the nodes ScheduleOne's scan finds feasible, and the node serve's
// /prioritize scores 10 (extender/v1's MaxExtenderPriority, the node
// kube-scheduler then binds, deploy/ disabling its own scores) is the node
// ScheduleOne binds the pod to on a copy of the same cluster with the same
// seed.
//
// What is compared: the first decision of a fresh service and a fresh
// Scheduler, each seeded with the same seed (serve's ExtenderOptions::seed;
// BuildSchedulers gives the first profile the seed itself). After that the
// two generators part legitimately: prioritize also ranks the nodes after
// its choice (scores 9..1), and those picks draw from its generator where
// ScheduleOne, which only chooses, does not; so later pods may break ties
// differently, and are not compared.
#include "gpusched/server/decisions.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/server/extender.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::json;

struct RandomCluster {
  std::vector<Node> nodes;
  std::vector<std::pair<Pod, bool>> running;
  json pod;
};

RandomCluster MakeCluster(uint32_t seed) {
  std::mt19937 g(seed);
  RandomCluster c;
  const int n = std::uniform_int_distribution<int>(2, 24)(g);
  for (int i = 0; i < n; ++i) {
    const std::string name = "n" + std::to_string(i);
    c.nodes.push_back(testing::DecodeNode(testing::RandomNodeJson(g, name)));
    // Pods already running there (they may overcommit the node: the view
    // counts what the API server says runs).
    for (int k = static_cast<int>(g() % 3); k > 0; --k)
      c.running.push_back({testing::DecodePod(testing::RandomPodJson(g, "run-" + name + "-" + std::to_string(k), name)), false});
  }
  c.pod = testing::RandomPodJson(g, "pending");
  return c;
}

TEST(DecisionsTest, FilterAndPrioritizeAgreeWithScheduleOne) {
  std::map<std::string, int> scheduled, unschedulable, contested;
  for (const std::string& policy : PolicyNames()) {
    for (uint32_t seed = 1; seed <= 300; ++seed) {
      SCOPED_TRACE(policy + " seed " + std::to_string(seed));
      const RandomCluster c = MakeCluster(seed);

      // serve: /filter with every node of the view, in its order, then
      // /prioritize with the names filter passed (kube-scheduler's calls).
      ExtenderOptions o;
      o.static_snapshot = true;
      o.seed = seed;
      ExtenderService ext(testing::Factory(policy, seed), o, nullptr, nullptr);
      ext.Update([&](ClusterView& v) {
        v.ReplaceNodes(c.nodes);
        v.ReplacePods(c.running);
      });
      ASSERT_TRUE(ext.MarkSynced().ok());
      const std::vector<std::string> names = ext.Read([](const ClusterView& v) {
        std::vector<std::string> out;
        for (size_t i = 0; i < v.cluster().size(); ++i) out.push_back(v.cluster().node(i).name());
        return out;
      });
      ASSERT_EQ(names.size(), c.nodes.size());
      const Reply filtered = ext.Filter(testing::ArgsWithNames(c.pod, names));
      ASSERT_EQ(filtered.status, 200) << filtered.body;
      const json fr = json::parse(filtered.body);
      std::vector<std::string> passed;
      if (!fr["NodeNames"].is_null()) passed = fr["NodeNames"].get<std::vector<std::string>>();
      std::string top;
      if (!passed.empty()) {
        const Reply prioritized = ext.Prioritize(testing::ArgsWithNames(c.pod, passed));
        ASSERT_EQ(prioritized.status, 200) << prioritized.body;
        int tens = 0;
        for (const json& hp : json::parse(prioritized.body)) {
          if (hp["Score"] == kMaxExtenderScore) top = hp["Host"].get<std::string>(), ++tens;
        }
        ASSERT_EQ(tens, 1) << prioritized.body;
      }

      // The Scheduler, built as serve builds it, on a view of the same
      // cluster.
      ClusterView view;
      view.ReplaceNodes(c.nodes);
      view.ReplacePods(c.running);
      Result<SchedulerSet> set = testing::Factory(policy, seed)(view);
      ASSERT_TRUE(set.ok()) << set.status().message();
      Scheduler& scheduler = *set->profiles.front().second;
      ClusterState cluster = view.cluster();
      const Pod pod = testing::DecodePod(c.pod);
      const PodInfo info = PodInfo::Make(pod, 0);  // points into `pod`
      const Decision d = scheduler.ScheduleOne(info, cluster);

      // The feasible nodes: each node through the Scheduler's filter chain
      // (what ScheduleOne's plain scan runs); and, where ScheduleOne's scan
      // with explain evaluated a node (a policy that needs only one
      // feasible node, first-fit, stops at it), its verdict there.
      std::set<std::string> feasible;
      FilterVerdict verdict;
      for (size_t i = 0; i < cluster.size(); ++i)
        if (!CheckFilters(scheduler.filters(), info, view.cluster().node(i), view.cluster().state(i), verdict))
          feasible.insert(view.cluster().node(i).name());
      EXPECT_EQ(std::set<std::string>(passed.begin(), passed.end()), feasible);
      EXPECT_EQ(passed.size(), feasible.size());  // each name once
      Result<SchedulerSet> set2 = testing::Factory(policy, seed)(view);
      ASSERT_TRUE(set2.ok());
      ClusterState cluster2 = view.cluster();
      PodExplain explain;
      const Decision explained = set2->profiles.front().second->ScheduleOne(info, cluster2, &explain);
      for (const NodeExplain& ne : explain.nodes)
        if (ne.evaluated) {
          EXPECT_EQ(ne.feasible, feasible.count(cluster.node(ne.node).name()) == 1);
        }
      EXPECT_EQ(explained.scheduled, d.scheduled);
      if (explained.scheduled && d.scheduled) {
        EXPECT_EQ(explained.node, d.node);
      }

      EXPECT_EQ(d.scheduled, !passed.empty());
      if (d.scheduled) {
        EXPECT_EQ(top, cluster.node(d.node).name());
        ++scheduled[policy];
        if (passed.size() >= 2) ++contested[policy];
      } else {
        ++unschedulable[policy];
      }
    }
    // Both outcomes were exercised, and choices among several nodes.
    EXPECT_GT(scheduled[policy], 100) << policy;
    EXPECT_GT(unschedulable[policy], 10) << policy;
    EXPECT_GT(contested[policy], 100) << policy;
  }
}

}  // namespace
}  // namespace gpusched
