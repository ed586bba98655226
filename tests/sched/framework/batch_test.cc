#include "gpusched/sched/framework/batch.h"

#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

std::vector<const Pod*> Ptrs(const std::vector<Pod>& pods) {
  std::vector<const Pod*> v;
  for (const auto& p : pods) v.push_back(&p);
  return v;
}

TEST(BatchTest, TryItYourselfLargestFirst) {
  // The seed's "try it yourself": training-job-c first fits, but 9 GPUs do
  // not fit in 6, so two others wait.
  ClusterState c({GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)});
  std::vector<Pod> pods = {GpuPod("training-job-a", 2), GpuPod("inference-svc-b", 1), GpuPod("training-job-c", 3),
                           GpuPod("inference-svc-d", 1), GpuPod("training-job-e", 2)};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(Ptrs(pods), c, s, QueueOrder::kLargestFirst);
  ASSERT_EQ(r.placements.size(), 3u);
  EXPECT_EQ(r.placements[0].pod, 2u);  // c -> gpu-node-1 [0,1,2]
  EXPECT_EQ(r.placements[0].node, 0u);
  EXPECT_EQ(r.placements[0].gpus, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(r.placements[1].pod, 0u);  // a -> gpu-node-2
  EXPECT_EQ(r.placements[1].node, 1u);
  EXPECT_EQ(r.placements[2].pod, 1u);  // b -> gpu-node-1 [3]
  EXPECT_EQ(r.placements[2].gpus, (std::vector<int32_t>{3}));
  ASSERT_EQ(r.pending.size(), 2u);
  EXPECT_EQ(r.pending[0].pod, 4u);  // e, then d
  EXPECT_EQ(r.pending[1].pod, 3u);
  EXPECT_EQ(r.pending[1].message, "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
}

TEST(BatchTest, PreBoundPodsAdmittedFirstAndRefusedWhenTheyCannotRun) {
  ClusterState c({GpuNode("a", 4), GpuNode("b", 4)});
  std::vector<Pod> pods = {GpuPod("new", 2), GpuPod("running", 3), GpuPod("overflow", 2), GpuPod("ghost", 1)};
  pods[1].node_name = "a";
  pods[2].node_name = "a";
  pods[3].node_name = "nowhere";
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(Ptrs(pods), c, s, QueueOrder::kFifo);
  ASSERT_EQ(r.placements.size(), 2u);
  EXPECT_TRUE(r.placements[0].preexisting);
  EXPECT_EQ(r.placements[0].pod, 1u);
  EXPECT_EQ(r.placements[0].gpus, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_FALSE(r.placements[1].preexisting);
  EXPECT_EQ(r.placements[1].pod, 0u);
  EXPECT_EQ(r.placements[1].node, 1u);  // a has only 1 GPU left
  ASSERT_EQ(r.refused.size(), 2u);
  EXPECT_EQ(r.refused[0].error,
            "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 2, used: 3, capacity: 4");
  EXPECT_EQ(r.refused[1].error, "spec.nodeName: node \"nowhere\" is not in the input, so the pod cannot run");
}

TEST(BatchTest, OtherSchedulerNamesStayPending) {
  ClusterState c({GpuNode("a", 4)});
  std::vector<Pod> pods = {GpuPod("volcano-job", 1)};
  pods[0].scheduler_name = "volcano";
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(Ptrs(pods), c, s, QueueOrder::kFifo);
  EXPECT_TRUE(r.placements.empty());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].message, "");
  EXPECT_FALSE(r.pending[0].diagnosis.forever);  // not attempted: its own scheduler may place it
  EXPECT_EQ(r.pending[0].diagnosis.kind, Diagnosis::Kind::kSchedulerNotRun);
  EXPECT_EQ(r.pending[0].diagnosis.text,
            "not scheduled: spec.schedulerName is \"volcano\" (Volcano's scheduler: queues, gang scheduling), a "
            "scheduler gpusched does not run (it serves \"default-scheduler\"), so the pod waits for that scheduler");
  EXPECT_EQ(r.pending[0].diagnosis.advice, (Advice{Advice::Kind::kServeSchedulerName, "volcano"}));
}

TEST(BatchTest, EveryPodAccountedFor) {
  ClusterState c({GpuNode("a", 2)});
  std::vector<Pod> pods;
  for (int i = 0; i < 10; ++i) pods.push_back(GpuPod("p" + std::to_string(i), i % 3));
  pods[7].node_name = "zzz";
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(Ptrs(pods), c, s, QueueOrder::kFifo);
  EXPECT_EQ(r.placements.size() + r.pending.size() + r.refused.size(), pods.size());
}

TEST(BatchTest, KubeletAlsoChecksAffinityAndNoExecuteTaints) {
  Node n = testing::GpuNode("n1", 4);
  n.taints.push_back({"maintenance", "", "NoExecute"});
  ClusterState c({n, testing::GpuNode("n2", 4)});
  std::vector<Pod> pods = {testing::GpuPod("tainted", 1), testing::GpuPod("selector", 1)};
  pods[0].node_name = "n1";
  pods[1].node_name = "n2";
  pods[1].node_selector["zone"] = "a";
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(Ptrs(pods), c, s, QueueOrder::kFifo);
  EXPECT_TRUE(r.placements.empty());
  ASSERT_EQ(r.refused.size(), 2u);
  EXPECT_EQ(r.refused[0].error,
            "Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate");
  EXPECT_EQ(r.refused[1].error,
            "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector");
}

// `gpusched explain POD` schedules the batch with a per-node record for that
// one pod: everything it decides must be what the batch decides without
// explain (the fast paths) and with the plain scan, for every policy.

Node RandomBatchNode(size_t i, Rng& rng) {
  static const int64_t kGpus[] = {0, 1, 2, 4, 8, 8};
  Node n = testing::GpuNode("n" + std::to_string(i), kGpus[rng.Uniform(6)],
                            1000 * static_cast<int64_t>(4 + rng.Uniform(60)), (1LL << 30) * 64,
                            rng.Uniform(6) == 0 ? 3 : 110);
  n.unschedulable = rng.Uniform(20) == 0;
  if (rng.Uniform(10) == 0) n.taints.push_back({"dedicated", "x", "NoSchedule"});
  if (rng.Uniform(8) == 0) n.taints.push_back({"spot", "", "PreferNoSchedule"});
  n.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
  return n;
}

Pod RandomBatchPod(size_t i, Rng& rng) {
  static const int64_t kWhole[] = {0, 1, 1, 2, 4, 8};
  Pod p = GpuPod("p" + std::to_string(i), kWhole[rng.Uniform(6)], 500 * static_cast<int64_t>(rng.Uniform(9)));
  if (p.containers[0].requests.count("nvidia.com/gpu") == 0 && rng.Uniform(3) == 0)
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(100 * (1 + rng.Uniform(9)));
  if (rng.Uniform(8) == 0) p.node_selector["zone"] = "a";
  if (rng.Uniform(8) == 0) p.tolerations.push_back({"dedicated", "Exists", "", ""});
  if (rng.Uniform(4) == 0) p.priority = static_cast<int32_t>(rng.Uniform(5));
  return p;
}

struct BatchRun {
  BatchResult result;
  std::string text;  // every outcome, to compare runs
};

BatchRun RunBatch(const std::vector<Node>& nodes, const std::vector<Pod>& pods, const std::string& policy,
                  bool plain, std::optional<size_t> explain_pod) {
  std::vector<PodShape> shapes;
  for (size_t i = 0; i < pods.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(pods[i], i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  PolicyOptions popts;
  popts.typical = &typical;
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), policy, 5, popts);
  EXPECT_TRUE(set.ok()) << policy;
  for (auto& s : set->owned) s->set_use_index(!plain);
  ClusterState cluster(nodes);
  BatchOptions opts;
  opts.order = policy == "kube-default" ? QueueOrder::kPriority : QueueOrder::kFifo;
  opts.explain_pod = explain_pod;
  BatchRun run{ScheduleBatch(Ptrs(pods), cluster, set->profiles, opts), ""};
  for (const auto& p : run.result.placements) {
    run.text += "placed " + std::to_string(p.pod) + " on " + std::to_string(p.node) + " [";
    for (int32_t g : p.gpus) run.text += std::to_string(g) + ",";
    run.text += "]\n";
  }
  for (const auto& p : run.result.pending)
    run.text += "pending " + std::to_string(p.pod) + ": " + p.message + " / " + p.diagnosis.text + "\n";
  return run;
}

TEST(BatchTest, ExplainingOnePodDecidesWhatTheFastAndPlainPathsDecide) {
  int64_t explained_pending = 0, explained_placed = 0;
  for (const std::string& policy : PolicyNames()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(policy + " seed " + std::to_string(seed));
      Rng rng(seed);
      std::vector<Node> nodes;
      const size_t n_nodes = 20 + rng.Uniform(60);
      for (size_t i = 0; i < n_nodes; ++i) nodes.push_back(RandomBatchNode(i, rng));
      std::vector<Pod> pods;
      for (size_t i = 0; i < 4 * n_nodes; ++i) pods.push_back(RandomBatchPod(i, rng));
      const BatchRun fast = RunBatch(nodes, pods, policy, false, std::nullopt);
      const BatchRun plain = RunBatch(nodes, pods, policy, true, std::nullopt);
      ASSERT_EQ(fast.text, plain.text);
      for (int k = 0; k < 6; ++k) {
        const size_t target = static_cast<size_t>(rng.Uniform(pods.size()));
        const BatchRun explained = RunBatch(nodes, pods, policy, false, target);
        ASSERT_EQ(explained.text, fast.text) << "explaining pod " << target;
        // Exactly one pod carries a record, with one entry per node.
        int64_t records = 0;
        for (const auto& p : explained.result.placements) {
          if (!p.explain) continue;
          ++records;
          ++explained_placed;
          EXPECT_EQ(p.pod, target);
          EXPECT_EQ(p.explain->nodes.size(), nodes.size());
          ASSERT_TRUE(p.explain->chosen.has_value());
          EXPECT_EQ(*p.explain->chosen, p.node);
        }
        for (const auto& p : explained.result.pending) {
          if (!p.explain) continue;
          ++records;
          ++explained_pending;
          EXPECT_EQ(p.pod, target);
          EXPECT_EQ(p.explain->nodes.size(), nodes.size());
          EXPECT_FALSE(p.explain->chosen.has_value());
        }
        EXPECT_EQ(records, 1);
      }
    }
  }
  // Both outcomes were explained.
  EXPECT_GT(explained_pending, 10);
  EXPECT_GT(explained_placed, 10);
}

// The batch tells the diagnosis what its pods ask for in all: with more
// asked than the cluster has, a fragmented pod is not told that reordering
// avoids its wait (some pod waits whatever the order).
TEST(BatchTest, FragmentedPodsAreAdvisedToReorderOnlyWhenAllCouldFit) {
  struct Case {
    const char* name;
    std::vector<Pod> pods;
    bool advised;
  };
  const std::vector<Case> cases = {
      {"8 GPUs asked of 8", {GpuPod("a", 3), GpuPod("b", 3), GpuPod("c", 2)}, true},
      {"9 GPUs asked of 8", {GpuPod("a", 3), GpuPod("b", 3), GpuPod("c", 2), GpuPod("d", 1)}, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster({GpuNode("n1", 4), GpuNode("n2", 4)});
    Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
    BatchResult r = ScheduleBatch(Ptrs(c.pods), cluster, s, QueueOrder::kFifo);
    ASSERT_GE(r.pending.size(), 1u);
    EXPECT_EQ(r.pending[0].pod, 2u);
    EXPECT_EQ(r.pending[0].diagnosis.kind, Diagnosis::Kind::kFragmented);
    EXPECT_EQ(r.pending[0].diagnosis.advice.kind,
              c.advised ? Advice::Kind::kLargestFirstOrBinPacking : Advice::Kind::kNone);
  }
}

// The checks before scheduling through ScheduleBatch: gated and DRA pods are
// pending with kube-scheduler's status, the others are scheduled; every pod
// comes out once.
TEST(BatchIssue12Test, GatedAndDraPodsArePendingWithTheirStatus) {
  std::vector<Pod> pods = {GpuPod("gated", 1), GpuPod("plain", 1), GpuPod("dra", 0)};
  auto gated = std::make_shared<PodSpecExtras>();
  gated->scheduling_gates = {"foo"};
  pods[0].extras = gated;
  auto claims = std::make_shared<PodSpecExtras>();
  claims->resource_claims = {PodResourceClaim{"gpu", "", "single-gpu", "", false}};
  pods[2].extras = claims;
  // A template for one device of a class, and no ResourceSlice at all.
  auto objects = std::make_shared<ApiObjects>();
  DraObjects& dra = objects->dra;
  ExactDeviceRequest one;
  one.device_class_name = "gpu.nvidia.com";
  dra.templates["default/single-gpu"].spec.requests.push_back(DeviceRequest{"gpu", one, {}});
  dra.device_classes["gpu.nvidia.com"].meta.name = "gpu.nvidia.com";
  ClusterState c({GpuNode("a", 4)}, objects);
  std::vector<std::unique_ptr<FilterPlugin>> filters = DefaultFilters();
  filters.push_back(NewFilterPlugin(names::kDynamicResources));
  Scheduler s(std::move(filters), std::make_unique<FirstFitPolicy>(), 1);
  BatchOptions opts;
  opts.dra = &dra;
  BatchResult r = ScheduleBatch(Ptrs(pods), c, ProfileSchedulers{{kDefaultSchedulerName, &s}}, opts);
  ASSERT_EQ(r.placements.size(), 1u);
  EXPECT_EQ(r.placements[0].pod, 1u);
  ASSERT_EQ(r.pending.size(), 2u);
  EXPECT_EQ(r.pending[0].pod, 0u);
  EXPECT_EQ(r.pending[0].message, "Scheduling is blocked due to non-empty scheduling gates");
  EXPECT_EQ(r.pending[0].diagnosis.kind, Diagnosis::Kind::kSchedulingGated);
  EXPECT_EQ(r.pending[1].pod, 2u);
  EXPECT_EQ(r.pending[1].message, "0/1 nodes are available: 1 cannot allocate all claims.");
  EXPECT_EQ(r.pending[1].diagnosis.kind, Diagnosis::Kind::kNoEligibleNode);
  EXPECT_EQ(r.pending[1].diagnosis.text,
            "can never fit: every node is excluded before resources are even compared: 1 node whose devices cannot "
            "satisfy the pod's resource claims even when all are free (no devices, or none that the claims' device "
            "classes, selectors and constraints admit)");
  // The gated and DRA pods took nothing.
  EXPECT_EQ(c.state(0).GpuRequested(), 1);
  EXPECT_EQ(c.state(0).num_pods, 1);
}

}  // namespace
}  // namespace gpusched
