#include "gpusched/sched/batch.h"

#include <gtest/gtest.h>

#include "gpusched/sched/filters.h"
#include "test_util.h"

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
  EXPECT_TRUE(r.pending[0].diagnosis.forever);
  EXPECT_EQ(r.pending[0].diagnosis.kind, Diagnosis::Kind::kSchedulerNotRun);
  EXPECT_EQ(r.pending[0].diagnosis.text,
            "not scheduled: spec.schedulerName is \"volcano\" (Volcano's scheduler: queues, gang scheduling), a "
            "scheduler gpusched does not run (it serves \"default-scheduler\"), so the pod waits for that scheduler; "
            "to model it with a gpusched policy, pass --scheduler-name volcano=POLICY (e.g. volcano=best-fit)");
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

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

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

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// The checks before scheduling through ScheduleBatch: gated and DRA pods are
// pending with kube-scheduler's status, the others are scheduled; every pod
// comes out once.
TEST(BatchIssue12Test, GatedAndDraPodsArePendingWithTheirStatus) {
  ClusterState c({GpuNode("a", 4)});
  std::vector<Pod> pods = {GpuPod("gated", 1), GpuPod("plain", 1), GpuPod("dra", 0)};
  auto gated = std::make_shared<PodSpecExtras>();
  gated->scheduling_gates = {"foo"};
  pods[0].extras = gated;
  auto claims = std::make_shared<PodSpecExtras>();
  claims->resource_claims = {PodResourceClaim{"gpu", "", "single-gpu", "", false}};
  pods[2].extras = claims;
  DraObjects dra;
  dra.templates["default/single-gpu"] = ClaimSpec{};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
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
  EXPECT_EQ(r.pending[1].diagnosis.kind, Diagnosis::Kind::kDraNotModelled);
  // The gated and DRA pods took nothing.
  EXPECT_EQ(c.state(0).GpuRequested(), 1);
  EXPECT_EQ(c.state(0).num_pods, 1);
}

}  // namespace
}  // namespace gpusched
