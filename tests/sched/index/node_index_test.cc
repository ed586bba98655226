#include "gpusched/sched/index/node_index.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/policies/scoring_policy.h"
#include "gpusched/util/random.h"
#include "../random_cluster.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(NodeFitIndexTest, FindFirstMatchesBruteForce) {
  // The reference keeps its own books from the numbers it generated (what
  // each node has, what was bound there, which node was removed) and reads
  // nothing back through the index's own NeedOf/FreeOf.
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    struct Book {
      int64_t gpus, milli_cpu, pods;
      int64_t gpus_used = 0, pods_used = 0;
      bool present = true;
    };
    std::vector<Node> nodes;
    std::vector<Book> books;
    const size_t n = 1 + rng.Uniform(70);
    for (size_t i = 0; i < n; ++i) {
      Book b{static_cast<int64_t>(rng.Uniform(9)), 1000 * static_cast<int64_t>(rng.Uniform(8)),
             1 + static_cast<int64_t>(rng.Uniform(3))};
      nodes.push_back(GpuNode("n" + std::to_string(i), b.gpus, b.milli_cpu, 1LL << 30, b.pods));
      books.push_back(b);
    }
    ClusterState c(nodes);
    for (size_t k = 0; k < n; ++k) {
      if (rng.Uniform(3) == 0) {
        c.Bind(k, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}));
        books[k].gpus_used += 1;
        books[k].pods_used += 1;
      }
    }
    if (n > 2) {
      const size_t gone = rng.Uniform(n);
      c.RemoveNode(gone);
      books[gone].present = false;
    }
    NodeFitIndex index;
    index.Sync(c);
    for (int q = 0; q < 20; ++q) {
      const int64_t want_gpus = static_cast<int64_t>(rng.Uniform(5));
      const int64_t want_cpu = 500 * static_cast<int64_t>(rng.Uniform(10));
      Pod p = GpuPod("p", want_gpus, want_cpu);
      NodeFitIndex::Need need = NodeFitIndex::NeedOf(PodInfo::Make(p, 0), true);
      size_t from = rng.Uniform(n), to = from + rng.Uniform(n - from + 1);
      size_t want = NodeFitIndex::kNone;
      for (size_t i = from; i < to && want == NodeFitIndex::kNone; ++i) {
        const Book& b = books[i];
        // fitsRequest: a resource is compared only when requested; the pod
        // count always (a removed node has its pods released: none used).
        const bool fits = b.present && b.pods - b.pods_used >= 1 &&
                          (want_gpus == 0 || b.gpus - b.gpus_used >= want_gpus) &&
                          (want_cpu == 0 || b.milli_cpu >= want_cpu);
        if (fits) want = i;
      }
      ASSERT_EQ(index.FindFirst(from, to, need), want) << "trial " << trial << " gpus " << want_gpus << " cpu "
                                                       << want_cpu;
    }
  }
}

// An index so far behind that the change log no longer holds the changes
// since its last Sync rebuilds from the nodes: every leaf is the node's
// free amounts now, and every search answers as a fresh index's.
TEST(NodeFitIndexTest, RebuildsWhenTheLogNoLongerHoldsItsChanges) {
  std::vector<Node> nodes;
  for (int i = 0; i < 9; ++i) nodes.push_back(GpuNode("n" + std::to_string(i), i % 5, 1000 * (1 + i % 3)));
  ClusterState c(nodes);
  c.RemoveNode(4);
  NodeFitIndex behind;
  behind.Sync(c);
  const uint64_t pos = c.version();
  testing::ChurnPastTheLog(c, pos);
  ASSERT_FALSE(c.change_log().Holds(pos));
  behind.Sync(c);
  NodeFitIndex fresh;
  fresh.Sync(c);
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(behind.Free(i), NodeFitIndex::FreeOf(c.state(i))) << "node " << i;
  for (int64_t gpus = 0; gpus <= 4; ++gpus) {
    for (int64_t cpu : {0, 500, 1000, 2500}) {
      Pod p = GpuPod("p", gpus, cpu);
      const NodeFitIndex::Need need = NodeFitIndex::NeedOf(PodInfo::Make(p, 0), true);
      for (size_t from = 0; from < c.size(); ++from)
        EXPECT_EQ(behind.FindFirst(from, c.size(), need), fresh.FindFirst(from, c.size(), need))
            << gpus << " GPUs, " << cpu << "m, from " << from;
    }
  }
  // The last binds took a GPU on the even nodes: node 2 (2 GPUs) has one
  // left, so two free GPUs are first found on node 3.
  Pod two = GpuPod("two", 2);
  EXPECT_EQ(behind.FindFirst(0, c.size(), NodeFitIndex::NeedOf(PodInfo::Make(two, 0), true)), 3u);
}

TEST(NodeFitIndexTest, UnrequestedResourcesNeverPrune) {
  // An overcommitted node (negative free cpu, from a pod bound by nodeName)
  // still takes a pod that requests no cpu.
  ClusterState c({GpuNode("n", 1, 1000)});
  c.Bind(0, testing::ToResources({3000, 0, 0, {}}));
  NodeFitIndex index;
  index.Sync(c);
  Pod gpu_only = GpuPod("p", 1, 0);
  EXPECT_EQ(index.FindFirst(0, 1, NodeFitIndex::NeedOf(PodInfo::Make(gpu_only, 0), true)), 0u);
  Pod with_cpu = GpuPod("q", 1, 100);
  EXPECT_EQ(index.FindFirst(0, 1, NodeFitIndex::NeedOf(PodInfo::Make(with_cpu, 0), true)), NodeFitIndex::kNone);
  // nvidia.com/gpu ignored by NodeResourcesFit: the index must not prune on it.
  Pod big = GpuPod("b", 9, 0);
  EXPECT_EQ(index.FindFirst(0, 1, NodeFitIndex::NeedOf(PodInfo::Make(big, 0), false)), 0u);
}

std::unique_ptr<Policy> MakePolicy(int which) {
  switch (which) {
    case 0: return std::make_unique<FirstFitPolicy>();
    case 1: return std::make_unique<BestFitPolicy>();
    case 2: return std::make_unique<WorstFitPolicy>();
    default: {
      KubeSchedulerConfiguration cfg = DefaultSchedulerConfiguration();
      return std::make_unique<ScoringPolicy>("kube-default", BuildScorePlugins(ResolveProfile(cfg, 0), nullptr),
                                             std::nullopt);
    }
  }
}

// The indexed scan must make exactly the plain scan's decisions: same node,
// same devices, same message, same rotation of the start index.
TEST(NodeFitIndexTest, IndexedSchedulerMatchesPlainScanOnRandomClusters) {
  Rng rng(20261202);
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE(trial);
    const int policy = trial % 4;
    const size_t n = 1 + rng.Uniform(150);
    std::vector<Node> nodes;
    for (size_t i = 0; i < n; ++i) {
      static const int64_t kGpus[] = {-1, 0, 1, 2, 4, 8, 8};
      Node node = GpuNode("n" + std::to_string(i), kGpus[rng.Uniform(7)], 1000 * static_cast<int64_t>(1 + rng.Uniform(16)),
                          (1LL << 30) * static_cast<int64_t>(1 + rng.Uniform(8)), 1 + static_cast<int64_t>(rng.Uniform(8)));
      node.unschedulable = rng.Uniform(20) == 0;
      if (rng.Uniform(15) == 0) node.taints.push_back({"dedicated", "x", "NoSchedule"});
      nodes.push_back(node);
    }
    ClusterState plain(nodes), indexed(nodes);
    Scheduler a(DefaultFilters(), MakePolicy(policy), 99), b(DefaultFilters(), MakePolicy(policy), 99);
    a.set_use_index(false);
    const int n_pods = static_cast<int>(rng.Uniform(300));
    std::vector<Pod> pods;
    pods.reserve(static_cast<size_t>(n_pods));
    for (int j = 0; j < n_pods; ++j) {
      static const int64_t kPodGpus[] = {0, 1, 1, 2, 4, 8};
      Pod p = GpuPod("p" + std::to_string(j), kPodGpus[rng.Uniform(6)], 250 * static_cast<int64_t>(rng.Uniform(9)));
      if (rng.Uniform(6) == 0) {  // a GPU share instead
        p = GpuPod("p" + std::to_string(j), 0, 500);
        p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(100 * (1 + rng.Uniform(9)));
      }
      pods.push_back(p);
    }
    for (int j = 0; j < n_pods; ++j) {
      PodInfo info = PodInfo::Make(pods[static_cast<size_t>(j)], static_cast<size_t>(j));
      Decision da = a.ScheduleOne(info, plain), db = b.ScheduleOne(info, indexed);
      ASSERT_EQ(da.scheduled, db.scheduled) << "pod " << j;
      if (da.scheduled) {
        ASSERT_EQ(da.node, db.node) << "pod " << j;
        ASSERT_EQ(da.gpus, db.gpus) << "pod " << j;
      } else {
        ASSERT_EQ(da.fit_error.Error(), db.fit_error.Error()) << "pod " << j;
      }
      // Departures and node churn, the same on both sides.
      if (rng.Uniform(5) == 0 && j > 0) {
        size_t victim = rng.Uniform(static_cast<size_t>(j));
        for (size_t k = 0; k < n; ++k) {
          bool ua = plain.Unbind(k, victim), ub = indexed.Unbind(k, victim);
          ASSERT_EQ(ua, ub);
          if (ua) break;
        }
      }
      if (rng.Uniform(60) == 0) {
        size_t k = rng.Uniform(n);
        plain.RemoveNode(k);
        indexed.RemoveNode(k);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// The same equivalence on richer clusters and pods: every fast path the
// scheduler takes (the index pruning, "plain" nodes settled from the index,
// best-/worst-fit's FreeOrderIndex, the per-shape failure summaries with
// DefaultPreemption) against the plain scan, which runs every filter on
// every node. Nodes are cordoned, tainted (NoSchedule, PreferNoSchedule,
// NoExecute), labelled with a zone and a GPU model, some advertise an
// extended resource; pods are CPU-only (some best-effort), whole GPUs, GPU
// shares on one or two devices, extended-resource pods, with GPU models,
// nodeSelectors, tolerations, preferred affinity, nodeName, priorities and
// preemptionPolicy Never. Pods leave, nodes are removed and added.

namespace rich {

using testing::rich::RandomNode;
using testing::rich::RandomPod;

struct Variant {
  std::string name;
  std::string policy;
  bool config = true;  // from BuildSchedulers (kube-default: with DefaultPreemption); else DefaultFilters()
  bool preemption = false;                     // with DefaultFilters()
  std::optional<int32_t> percentage;           // percentageOfNodesToScore
  std::vector<std::string> ignored, ignored_groups;  // NodeResourcesFitArgs
  ScoringStrategyType strategy = ScoringStrategyType::kLeastAllocated;
};

std::unique_ptr<Scheduler> Make(const Variant& v, uint64_t seed) {
  if (!v.config) {
    return std::make_unique<Scheduler>(DefaultFilters(), NewSimplePolicy(v.policy), seed, v.preemption);
  }
  KubeSchedulerConfiguration cfg = DefaultSchedulerConfiguration();
  cfg.percentage_of_nodes_to_score = v.percentage;
  cfg.profiles[0].fit_args.ignored_resources = v.ignored;
  cfg.profiles[0].fit_args.ignored_resource_groups = v.ignored_groups;
  cfg.profiles[0].fit_args.type = v.strategy;
  Result<SchedulerSet> set = BuildSchedulers(cfg, v.policy, seed);
  return std::move(set->owned.front());
}

struct Tally {
  int64_t placed = 0, failed = 0, would_help = 0;
  bool operator==(const Tally&) const = default;
};
void PrintTo(const Tally& t, std::ostream* os) {
  *os << "{" << t.placed << ", " << t.failed << ", " << t.would_help << "}";
}

// Runs one random scenario on both schedulers; stops at the first
// difference (reported through gtest) and tallies the decisions.
Tally Compare(const Variant& v, uint64_t seed) {
  Rng rng(seed);
  const size_t n = 40 + rng.Uniform(260);
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) nodes.push_back(RandomNode("n" + std::to_string(i), rng));
  ClusterState plain(nodes), indexed(nodes);
  auto a = Make(v, 17), b = Make(v, 17);
  a->set_use_index(false);
  std::vector<Pod> pods;
  const size_t n_pods = 600;
  pods.reserve(n_pods);
  for (size_t k = 0; k < n_pods; ++k) pods.push_back(RandomPod("p" + std::to_string(k), rng, n));
  Tally t;
  std::vector<std::pair<size_t, size_t>> running;  // (node, pod id)
  for (size_t k = 0; k < n_pods; ++k) {
    const PodInfo info = PodInfo::Make(pods[k], k);
    const Decision da = a->ScheduleOne(info, plain), db = b->ScheduleOne(info, indexed);
    EXPECT_EQ(da.scheduled, db.scheduled) << v.name << " pod " << k;
    if (da.scheduled != db.scheduled) return t;
    if (da.scheduled) {
      EXPECT_EQ(da.node, db.node) << v.name << " pod " << k;
      EXPECT_EQ(da.gpus, db.gpus) << v.name << " pod " << k;
      if (da.node != db.node || da.gpus != db.gpus) return t;
      ++t.placed;
      running.emplace_back(da.node, k);
    } else {
      ++t.failed;
      EXPECT_EQ(da.fit_error.Error(), db.fit_error.Error()) << v.name << " pod " << k;
      EXPECT_EQ(da.preemption.has_value(), db.preemption.has_value()) << v.name << " pod " << k;
      if (da.preemption && db.preemption) {
        EXPECT_EQ(da.preemption->would_help, db.preemption->would_help) << v.name << " pod " << k;
        EXPECT_EQ(da.preemption->node, db.preemption->node) << v.name << " pod " << k;
        EXPECT_EQ(da.preemption->victims, db.preemption->victims) << v.name << " pod " << k;
        EXPECT_EQ(da.preemption->message, db.preemption->message) << v.name << " pod " << k;
        t.would_help += da.preemption->would_help;
      }
      if (da.fit_error.Error() != db.fit_error.Error()) return t;
    }
    // Departures keep the cluster busy but not full; now and then a node
    // goes away (its pods with it) or a new one joins.
    while (running.size() > 4 * n || (!running.empty() && rng.Uniform(4) == 0)) {
      const size_t r = static_cast<size_t>(rng.Uniform(running.size()));
      EXPECT_EQ(plain.Unbind(running[r].first, running[r].second), indexed.Unbind(running[r].first, running[r].second));
      running[r] = running.back();
      running.pop_back();
    }
    if (rng.Uniform(50) == 0) {
      const size_t gone = static_cast<size_t>(rng.Uniform(plain.size()));
      plain.RemoveNode(gone);
      indexed.RemoveNode(gone);
      std::erase_if(running, [&](const auto& r) { return r.first == gone; });
    }
    if (rng.Uniform(50) == 0) {
      const Node node = RandomNode("m" + std::to_string(k), rng);
      plain.AddNode(node);
      indexed.AddNode(node);
    }
  }
  return t;
}

}  // namespace rich

TEST(NodeFitIndexTest, IndexedSchedulerMatchesPlainScanOnRichClusters) {
  using rich::Tally;
  using rich::Variant;
  struct Case {
    Variant variant;
    uint64_t seed;
    Tally want;
  };
  const Case cases[] = {
      {{"first-fit", "first-fit"}, 1, {580, 20, 0}},
      {{"first-fit+preemption", "first-fit", false, true}, 12, {586, 14, 9}},
      {{"best-fit", "best-fit"}, 3, {455, 145, 0}},
      {{"best-fit+preemption", "best-fit", false, true}, 4, {551, 49, 44}},
      {{"worst-fit", "worst-fit"}, 5, {542, 58, 0}},
      {{"kube-default", "kube-default"}, 6, {445, 155, 80}},
      {{"kube-default", "kube-default"}, 7, {553, 47, 34}},
      {{"kube-default 10%", "kube-default", true, false, 10}, 8, {413, 187, 110}},
      {{"kube-default MostAllocated", "kube-default", true, false, std::nullopt, {}, {},
        ScoringStrategyType::kMostAllocated},
       9, {516, 84, 58}},
      // NodeResourcesFit ignoring nvidia.com/gpu: the index may not prune on it.
      {{"best-fit gpu ignored", "best-fit", true, false, std::nullopt, {"nvidia.com/gpu"}}, 10, {588, 12, 0}},
      {{"kube-default group ignored", "kube-default", true, false, std::nullopt, {}, {"example.com"}}, 11, {583, 17, 4}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.variant.name);
    EXPECT_EQ(rich::Compare(c.variant, c.seed), c.want) << c.variant.name << " seed " << c.seed;
  }
}

}  // namespace
}  // namespace gpusched
