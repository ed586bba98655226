#include "gpusched/sched/node_index.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/filters.h"
#include "gpusched/sched/policy.h"
#include "gpusched/sched/scoring_policy.h"
#include "gpusched/sched/scheduler.h"
#include "gpusched/util/random.h"
#include "test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(NodeFitIndexTest, FindFirstMatchesBruteForce) {
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(70);
    for (size_t i = 0; i < n; ++i)
      nodes.push_back(GpuNode("n" + std::to_string(i), static_cast<int64_t>(rng.Uniform(9)),
                              1000 * static_cast<int64_t>(rng.Uniform(8)), 1LL << 30, 1 + static_cast<int64_t>(rng.Uniform(3))));
    ClusterState c(nodes);
    for (size_t k = 0; k < n; ++k)
      if (rng.Uniform(3) == 0) c.Bind(k, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}));
    if (n > 2) c.RemoveNode(rng.Uniform(n));
    NodeFitIndex index;
    index.Sync(c);
    for (int q = 0; q < 20; ++q) {
      Pod p = GpuPod("p", static_cast<int64_t>(rng.Uniform(5)), 500 * static_cast<int64_t>(rng.Uniform(10)));
      NodeFitIndex::Need need = NodeFitIndex::NeedOf(PodInfo::Make(p, 0), true);
      size_t from = rng.Uniform(n), to = from + rng.Uniform(n - from + 1);
      size_t want = NodeFitIndex::kNone;
      for (size_t i = from; i < to && want == NodeFitIndex::kNone; ++i) {
        NodeFitIndex::Need have = NodeFitIndex::FreeOf(c.state(i));
        bool ok = true;
        for (size_t d = 0; d < have.size(); ++d) ok = ok && have[d] >= need[d];
        if (ok) want = i;
      }
      ASSERT_EQ(index.FindFirst(from, to, need), want) << "trial " << trial;
    }
  }
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

}  // namespace
}  // namespace gpusched
