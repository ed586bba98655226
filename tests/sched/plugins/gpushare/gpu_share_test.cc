#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/gpushare/gpu_share.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

Pod SharePod(const std::string& name, const std::string& milli, const std::string& models = "") {
  Pod p = GpuPod(name, 0, 1000);
  p.meta.annotations["alibabacloud.com/gpu-milli"] = milli;
  p.meta.annotations["alibabacloud.com/gpu-count"] = "1";
  if (!models.empty()) p.meta.annotations["alibabacloud.com/gpu-card-model"] = models;
  return p;
}

Node ModelNode(const std::string& name, int64_t gpus, const std::string& model) {
  Node n = GpuNode(name, gpus);
  if (!model.empty()) n.meta.labels["alibabacloud.com/gpu-card-model"] = model;
  return n;
}

TEST(GpuShareFilterTest, Verdicts) {
  struct Case {
    const char* name;
    Pod pod;
    Node node;
    std::vector<std::pair<GpuRequest, std::vector<int32_t>>> running;  // bound first
    SchedStatus::Code want_code;
    std::string want_reason;
  };
  const std::vector<Case> cases = {
      {"no GPU request passes a GPU-less node", GpuPod("p", 0, 100), GpuNode("n", -1), {}, SchedStatus::Code::kSuccess, ""},
      {"share fits on a free device", SharePod("p", "500"), GpuNode("n", 2), {}, SchedStatus::Code::kSuccess, ""},
      {"share on a GPU-less node is unresolvable", SharePod("p", "500"), GpuNode("n", -1), {},
       SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonGpuShare},
      {"share with too little left on every device", SharePod("p", "500"), GpuNode("n", 1),
       {{GpuRequest{600, 1, true, {}}, {0}}}, SchedStatus::Code::kUnschedulable, kReasonGpuShare},
      {"share fits next to another share", SharePod("p", "400"), GpuNode("n", 1),
       {{GpuRequest{600, 1, true, {}}, {0}}}, SchedStatus::Code::kSuccess, ""},
      {"model mismatch", SharePod("p", "500", "V100M16|V100M32"), ModelNode("n", 8, "G2"), {},
       SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonGpuModel},
      {"model match", SharePod("p", "500", "V100M16|V100M32"), ModelNode("n", 8, "V100M32"), {},
       SchedStatus::Code::kSuccess, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs({c.node});
    uint64_t id = 100;
    for (const auto& [gpu, devs] : c.running) cs.Bind(0, Resources{}, Resources{}, id++, 0, gpu, devs);
    SchedStatus s = GpuShare().Filter(PodInfo::Make(c.pod, 0), cs.node(0), cs.state(0));
    EXPECT_EQ(s.code(), c.want_code);
    if (!c.want_reason.empty()) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{c.want_reason});
    }
  }
}

TEST(GpuShareSchedulingTest, WholeGpuPodAvoidsSharedDevices) {
  // One 2-GPU node: a share takes device 0 (charged as one nvidia.com/gpu),
  // so a 2-GPU pod no longer fits and reads as Insufficient nvidia.com/gpu,
  // while a 1-GPU pod gets device 1.
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  ClusterState cs({GpuNode("n", 2)});
  Pod share = SharePod("share", "300"), two = GpuPod("two", 2), one = GpuPod("one", 1);
  Decision d1 = s.ScheduleOne(PodInfo::Make(share, 0), cs);
  ASSERT_TRUE(d1.scheduled);
  EXPECT_EQ(d1.gpus, std::vector<int32_t>{0});
  Decision d2 = s.ScheduleOne(PodInfo::Make(two, 1), cs);
  ASSERT_FALSE(d2.scheduled);
  EXPECT_EQ(d2.fit_error.Error(), "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  Decision d3 = s.ScheduleOne(PodInfo::Make(one, 2), cs);
  ASSERT_TRUE(d3.scheduled);
  EXPECT_EQ(d3.gpus, std::vector<int32_t>{1});
  EXPECT_EQ(cs.state(0).gpu_free_milli, (std::vector<int32_t>{700, 0}));
}

TEST(GpuShareSchedulingTest, RemovedNodesAreSkippedAndNotCounted) {
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  ClusterState cs({GpuNode("a", 4), GpuNode("b", 1)});
  cs.RemoveNode(0);
  Pod two = GpuPod("two", 2);
  Decision d = s.ScheduleOne(PodInfo::Make(two, 0), cs);
  ASSERT_FALSE(d.scheduled);
  EXPECT_EQ(d.fit_error.Error(), "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// KAI's gpu-memory through the GpuShare filter: a node without the
// nvidia.com/gpu.memory label, or with smaller GPUs, can never take it
// (KAI's predicate "not synced" and isValidGpuPortion); otherwise it needs a
// device with its share of that node free.
TEST(GpuShareFilterKaiTest, GpuMemory) {
  Pod pod = testing::GpuPod("kai", 0, 1000);
  pod.meta.annotations["gpu-memory"] = "40000";
  PodInfo info = PodInfo::Make(pod, 0);
  Node a100 = testing::GpuNode("a100", 1);
  a100.meta.labels["nvidia.com/gpu.memory"] = "81920";
  Node l4 = testing::GpuNode("l4", 1);
  l4.meta.labels["nvidia.com/gpu.memory"] = "23034";
  Node bare = testing::GpuNode("bare", 1);
  ClusterState c({a100, l4, bare});
  GpuShare f;
  EXPECT_TRUE(f.Filter(info, c.node(0), c.state(0)).IsSuccess());
  SchedStatus small = f.Filter(info, c.node(1), c.state(1));
  EXPECT_EQ(small.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(small.reasons(), std::vector<std::string>{"node(s) had GPUs with less memory than the requested gpu-memory"});
  SchedStatus unknown = f.Filter(info, c.node(2), c.state(2));
  EXPECT_EQ(unknown.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(unknown.reasons(), std::vector<std::string>{
                                   "node(s) didn't have the nvidia.com/gpu.memory label that gpu-memory is sized against"});
  // 489 milli taken by one such pod leaves 511 on the a100: a second fits, a third does not.
  c.Bind(0, info.requests, info.non_zero_requests, 1, 0, info.gpu, c.DefaultGpuChoice(0, info.gpu));
  EXPECT_EQ(c.state(0).gpu_free_milli, std::vector<int32_t>{511});
  EXPECT_TRUE(f.Filter(info, c.node(0), c.state(0)).IsSuccess());
  c.Bind(0, info.requests, info.non_zero_requests, 2, 0, info.gpu, c.DefaultGpuChoice(0, info.gpu));
  SchedStatus full = f.Filter(info, c.node(0), c.state(0));
  EXPECT_EQ(full.code(), SchedStatus::Code::kUnschedulable);
  EXPECT_EQ(full.reasons(), std::vector<std::string>{"node(s) didn't have enough free GPU share"});
}

// The scheduler never lets the node index decide a gpu-memory pod (the
// index only knows the largest free share in milli): with every policy the
// placement respects each node's own share.
TEST(GpuShareFilterKaiTest, EveryPolicyPlacesByTheNodesShare) {
  for (const char* policy : {"first-fit", "best-fit", "worst-fit", "random", "fgd"}) {
    SCOPED_TRACE(policy);
    Node l4 = testing::GpuNode("l4", 1);
    l4.meta.labels["nvidia.com/gpu.memory"] = "23034";
    Node a100 = testing::GpuNode("a100", 1);
    a100.meta.labels["nvidia.com/gpu.memory"] = "81920";
    ClusterState c({l4, a100});
    std::vector<Pod> pods;
    for (int i = 0; i < 3; ++i) {
      pods.push_back(testing::GpuPod("kai-" + std::to_string(i), 0, 100));
      pods.back().meta.annotations["gpu-memory"] = "20000";
    }
    PolicyOptions opts;
    TypicalPods typical;
    opts.typical = &typical;
    Scheduler s(DefaultFilters(), NewSimplePolicy(policy, opts), 1);
    int placed = 0;
    for (size_t i = 0; i < pods.size(); ++i) placed += s.ScheduleOne(PodInfo::Make(pods[i], i), c).scheduled;
    // Each pod takes 870 milli on the L4 (so one at most) and 245 on the A100.
    EXPECT_EQ(placed, 3);
    EXPECT_LE(c.state(0).num_pods, 1);
    EXPECT_EQ(c.state(0).gpu_free_milli, std::vector<int32_t>{static_cast<int32_t>(1000 - 870 * c.state(0).num_pods)});
    EXPECT_EQ(c.state(1).gpu_free_milli, std::vector<int32_t>{static_cast<int32_t>(1000 - 245 * c.state(1).num_pods)});
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST(GpuShareNeverFitsTest, Reasons) {
  Node v100 = testing::GpuNode("v100", 1);
  v100.meta.labels["alibabacloud.com/gpu-card-model"] = "V100M16";
  v100.meta.labels["nvidia.com/gpu.memory"] = "16384";
  Node bare = testing::GpuNode("bare", 1);
  ClusterState c({v100, bare});
  GpuRequest none;
  EXPECT_EQ(GpuShareNeverFits(none, c.state(0)), 0);
  GpuRequest t4{500, 1, true, {"T4"}};
  EXPECT_EQ(GpuShareNeverFits(t4, c.state(0)), kGpuModelNeverFits);
  GpuRequest mem;
  mem.milli = 1;
  mem.count = 1;
  mem.from_annotations = true;
  mem.memory_mib = 8000;
  EXPECT_EQ(GpuShareNeverFits(mem, c.state(0)), 0);
  EXPECT_EQ(GpuShareNeverFits(mem, c.state(1)), kGpuMemoryUnlabelled);
  mem.memory_mib = 20000;
  EXPECT_EQ(GpuShareNeverFits(mem, c.state(0)), kGpuMemoryTooSmall);
}

}  // namespace
}  // namespace gpusched
