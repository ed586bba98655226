// Scheduler's PreFilter pass (scheduler.cc): per-pod state from the whole
// cluster, the dry-run contract of cycle_state.h, rejection in PreFilter, and
// the fast paths kept for pods every PreFilter skips.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/profile_factory.h"

#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "../random_cluster.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// Repel: a throw-away plugin with a PreFilter, shaped as InterPodAffinity's
// anti-affinity is: a pod labelled repel=X may not run in a zone (node label
// "zone") where a pod labelled app=X runs. PreFilter counts such pods per
// zone over the whole cluster and keeps each node's own share, so Check
// can take the node's pods from the NodeState it is handed (the dry-run
// contract of cycle_state.h). repel=never is rejected in PreFilter.
class Repel : public FilterPlugin {
 public:
  explicit Repel(int64_t* pre_filters) : pre_filters_(pre_filters) {}
  std::string_view Name() const override { return "Repel"; }
  FilterTraits Traits() const override { return {true, false, false, false}; }  // passes every pod it skips
  bool HasPreFilter() const override { return true; }

  struct State : PreFilterData {
    std::string app;
    std::map<std::string, int64_t> per_zone;
    std::vector<int64_t> per_node;
  };
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override {
    ++*pre_filters_;
    auto it = pod.pod->meta.labels.find("repel");
    if (it == pod.pod->meta.labels.end()) return nullptr;
    if (it->second == "never") {
      reject = SchedStatus::Unresolvable("repelled by everything");
      return nullptr;
    }
    auto s = std::make_unique<State>();
    s->app = it->second;
    s->per_node.assign(cluster.size(), 0);
    for (size_t i = 0; i < cluster.size(); ++i) {
      s->per_node[i] = Matching(s->app, cluster.state(i));
      s->per_zone[Zone(cluster.node(i))] += s->per_node[i];
    }
    return s;
  }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override {
    const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
    if (s == nullptr) return true;
    // The node's index: its name is unique in these tests.
    size_t i = 0;
    while (i < names_.size() && names_[i] != node.meta.name) ++i;
    auto zone = s->per_zone.find(Zone(node));
    const int64_t in_zone = zone->second - s->per_node[i] + Matching(s->app, state);
    if (in_zone == 0) return true;
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, "node(s) in a zone running app ", s->app);
    return false;
  }
  void set_names(std::vector<std::string> n) { names_ = std::move(n); }

 private:
  static std::string Zone(const Node& n) { return n.meta.labels.at("zone"); }
  static int64_t Matching(const std::string& app, const NodeState& state) {
    int64_t k = 0;
    for (const BoundPod& bp : state.pods) {
      if (bp.pod == nullptr) continue;
      auto it = bp.pod->meta.labels.find("app");
      k += it != bp.pod->meta.labels.end() && it->second == app;
    }
    return k;
  }
  int64_t* pre_filters_;
  std::vector<std::string> names_;
};

struct RepelCluster {
  int64_t pre_filters = 0;
  ClusterState cluster{std::vector<Node>{}};
  std::unique_ptr<Scheduler> scheduler;
  Pod web = GpuPod("web", 1);

  // Zone z1: a and b; zone z2: c (with `c_gpus`). `web` (app=web, priority
  // 0) runs on a.
  explicit RepelCluster(int64_t c_gpus, bool preemption = false) {
    Node a = GpuNode("a", 4), b = GpuNode("b", 4), c = GpuNode("c", c_gpus);
    a.meta.labels["zone"] = b.meta.labels["zone"] = "z1";
    c.meta.labels["zone"] = "z2";
    cluster = ClusterState({a, b, c});
    auto filters = DefaultFilters();
    auto repel = std::make_unique<Repel>(&pre_filters);
    repel->set_names({"a", "b", "c"});
    filters.push_back(std::move(repel));
    scheduler = std::make_unique<Scheduler>(std::move(filters), NewSimplePolicy("first-fit"), 1, preemption);
    web.meta.labels["app"] = "web";
    const PodInfo w = PodInfo::Make(web, 100);
    cluster.Bind(0, w.requests, w.non_zero_requests, 100, 0, w.gpu, {0}, &web);
  }
};

Pod Repelling(const std::string& name, const std::string& app, int32_t priority = 0) {
  Pod p = GpuPod(name, 1);
  p.meta.labels["repel"] = app;
  p.priority = priority;
  return p;
}

TEST(SchedulerPreFilterTest, StateFromTheWholeClusterDecidesEachNode) {
  RepelCluster rc(/*c_gpus=*/4);
  const Pod p = Repelling("p", "web");
  PodExplain explain;
  Decision d = rc.scheduler->ScheduleOne(PodInfo::Make(p, 0), rc.cluster, &explain);
  ASSERT_TRUE(d.scheduled);
  EXPECT_EQ(d.node, 2u);  // a runs web, b is in its zone
  EXPECT_EQ(explain.nodes[1].failed_plugin, "Repel");
  EXPECT_EQ(explain.nodes[1].reasons, std::vector<std::string>{"node(s) in a zone running app web"});
  // Bound with its Pod, for the next pod's PreFilter.
  ASSERT_EQ(rc.cluster.state(2).pods.size(), 1u);
  EXPECT_EQ(rc.cluster.state(2).pods[0].pod, &p);
}

TEST(SchedulerPreFilterTest, FailureMessageCountsThePluginsReason) {
  RepelCluster rc(/*c_gpus=*/0);
  const Pod p = Repelling("p", "web");
  Attempt a = rc.scheduler->Schedule(PodInfo::Make(p, 0), rc.cluster);
  ASSERT_FALSE(a.scheduled);
  EXPECT_EQ(a.failure->message,
            "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) in a zone running app web.");
}

TEST(SchedulerPreFilterTest, PreemptionDryRunSeesTheVictimsGone) {
  // Only evicting web (priority 0) from a frees zone z1: the dry run must
  // hand Repel a node whose pod list no longer holds it.
  RepelCluster rc(/*c_gpus=*/0, /*preemption=*/true);
  const Pod p = Repelling("p", "web", /*priority=*/10);
  Attempt a = rc.scheduler->Schedule(PodInfo::Make(p, 0), rc.cluster);
  ASSERT_FALSE(a.scheduled);
  ASSERT_TRUE(a.failure->preemption.has_value());
  EXPECT_TRUE(a.failure->preemption->would_help);
  EXPECT_EQ(a.failure->preemption->node, 0u);
  EXPECT_EQ(a.failure->preemption->victims, 1);
}

TEST(SchedulerPreFilterTest, RejectionInPreFilterIsTheWholeMessage) {
  for (bool preemption : {false, true}) {
    SCOPED_TRACE(preemption);
    RepelCluster rc(/*c_gpus=*/4, preemption);
    const Pod p = Repelling("p", "never", /*priority=*/10);
    Attempt a = rc.scheduler->Schedule(PodInfo::Make(p, 0), rc.cluster);
    ASSERT_FALSE(a.scheduled);
    EXPECT_EQ(a.failure->message,
              preemption ? "0/3 nodes are available: repelled by everything. preemption: 0/3 nodes are available: 3 "
                           "Preemption is not helpful for scheduling."
                         : "0/3 nodes are available: repelled by everything.");
    EXPECT_EQ(a.failure->fit_error.unresolvable_nodes, 3);
    // The rejecting plugin is the one the simulator's hints ask.
    EXPECT_EQ(a.failure->rejectors, uint64_t{1} << 5);
  }
}

TEST(SchedulerPreFilterTest, APodEveryPreFilterSkipsKeepsTheFastPathsAndTheCache) {
  RepelCluster rc(/*c_gpus=*/0);
  EXPECT_EQ(rc.scheduler->search_name(), "indexed scan");
  EXPECT_TRUE(rc.scheduler->caches_failures());
  const Pod big = GpuPod("big", 8), big2 = GpuPod("big2", 8);
  Attempt a = rc.scheduler->Schedule(PodInfo::Make(big, 0), rc.cluster);
  ASSERT_FALSE(a.scheduled);
  EXPECT_EQ(a.failure->message, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
  // The same class: the kept failure, the same object.
  Attempt b = rc.scheduler->Schedule(PodInfo::Make(big2, 1), rc.cluster);
  EXPECT_EQ(b.failure, a.failure);
  EXPECT_EQ(rc.pre_filters, 2);
}


// kube-default with its indexes (PodMatchIndex, AntiAffinityIndex, the
// indexed scan serving pods with PreFilter state, failures from the shape
// summaries) against the same profile with them off, pod by pod on random
// clusters: pods of four apps under zone and hostname spread constraints
// (their own, or the system defaults for those a ReplicaSet owns),
// required and preferred (anti-)affinity, priorities (so preemption dry
// runs happen), with pods leaving between attempts. Same node, same
// message, same preemption verdict.
TEST(SchedulerPreFilterTest, IndexedAgreesWithPlainForPodsUnderSpreadAndAffinity) {
  auto make = [] {
    Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, PolicyOptions{});
    return std::move(set->owned.front());
  };
  Rng rng(23);
  int64_t placed = 0, failed = 0, helped = 0;
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<Node> nodes;
    const size_t n = 2 + rng.Uniform(25);
    for (size_t i = 0; i < n; ++i) {
      Node node = testing::rich::RandomNode("n" + std::to_string(i), rng);
      if (rng.Uniform(12)) node.meta.labels[kLabelHostname] = node.meta.name;
      // The system default constraints spread over this one; nodes without
      // it are the "" domain.
      if (rng.Uniform(6)) node.meta.labels[kLabelTopologyZone] = rng.Uniform(2) ? "z1" : "z2";
      nodes.push_back(std::move(node));
    }
    // A ReplicaSet per app: pods it owns get the system default spreading.
    auto objects = std::make_shared<ApiObjects>();
    for (int a = 0; a < 4; ++a) {
      ControllerSelector rs{"ReplicaSet", "apps/v1", "default", "rs-" + std::to_string(a), LabelSelector{}};
      rs.selector->match_labels["app"] = "app-" + std::to_string(a);
      objects->spread_controllers.push_back(rs);
    }
    ClusterState fast_cluster(nodes, objects), plain_cluster(nodes, objects);
    auto fast = make(), plain = make();
    plain->set_use_index(false);
    std::deque<Pod> pods;
    std::vector<std::pair<size_t, uint64_t>> running;
    for (size_t k = 0; k < 120; ++k) {
      Pod p = testing::rich::RandomPod("p" + std::to_string(k), rng, n);
      p.node_name.clear();
      const uint64_t a = rng.Uniform(4);
      const std::string app = "app-" + std::to_string(a);
      p.meta.labels["app"] = app;
      p.meta.namespace_ = "default";
      if (rng.Uniform(3) == 0) p.controller_ref = OwnerReference{"apps/v1", "ReplicaSet", "rs-" + std::to_string(a), ""};
      LabelSelector same;
      same.match_labels["app"] = app;
      auto extras = std::make_shared<PodSpecExtras>(p.Extras());
      if (rng.Uniform(3) == 0) {
        TopologySpreadConstraint t;
        t.max_skew = 1 + static_cast<int32_t>(rng.Uniform(2));
        t.topology_key = rng.Uniform(2) ? "zone" : kLabelHostname;
        t.when_unsatisfiable = rng.Uniform(4) ? kDoNotSchedule : kScheduleAnyway;
        t.label_selector = same;
        if (rng.Uniform(5) == 0) t.min_domains = 3;
        if (rng.Uniform(5) == 0) t.node_taints_policy = kNodeInclusionHonor;
        extras->topology_spread_constraints.push_back(t);
      }
      p.extras = std::move(extras);
      if (rng.Uniform(3) == 0) {
        auto spec = std::make_shared<PodAffinitySpec>();
        PodAffinityTerm term;
        term.label_selector = same;
        term.topology_key = rng.Uniform(2) ? "zone" : kLabelHostname;
        const uint64_t kind = rng.Uniform(4);
        if (kind == 0) {
          spec->affinity.emplace().required.push_back(term);
        } else if (kind == 1) {
          spec->anti_affinity.emplace().preferred.push_back({10, term});
        } else {
          spec->anti_affinity.emplace().required.push_back(term);
        }
        p.pod_affinity = std::move(spec);
      }
      pods.push_back(std::move(p));
      const PodInfo info = PodInfo::Make(pods.back(), k);
      Decision f = fast->ScheduleOne(info, fast_cluster);
      Decision r = plain->ScheduleOne(info, plain_cluster);
      const std::string where = "trial " + std::to_string(trial) + " pod " + std::to_string(k);
      ASSERT_EQ(f.scheduled, r.scheduled) << where;
      if (f.scheduled) {
        ASSERT_EQ(f.node, r.node) << where;
        running.push_back({f.node, k});
        ++placed;
      } else {
        ASSERT_EQ(f.fit_error.Error(), r.fit_error.Error()) << where;
        ASSERT_EQ(f.preemption.has_value(), r.preemption.has_value()) << where;
        if (f.preemption) {
          EXPECT_EQ(f.preemption->would_help, r.preemption->would_help) << where;
          EXPECT_EQ(f.preemption->node, r.preemption->node) << where;
          EXPECT_EQ(f.preemption->message, r.preemption->message) << where;
          helped += f.preemption->would_help;
        }
        ++failed;
      }
      if (!running.empty() && rng.Uniform(3) == 0) {
        const size_t i = rng.Uniform(running.size());
        ASSERT_TRUE(fast_cluster.Unbind(running[i].first, running[i].second));
        ASSERT_TRUE(plain_cluster.Unbind(running[i].first, running[i].second));
        running[i] = running.back();
        running.pop_back();
      }
    }
  }
  // The cases the comparison needs happened.
  EXPECT_GT(placed, 1000);
  EXPECT_GT(failed, 300);
  EXPECT_GT(helped, 10);
}

}  // namespace
}  // namespace gpusched
