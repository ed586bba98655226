#include "gpusched/sched/diagnosis/diagnosis.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using Kind = Diagnosis::Kind;

struct DiagCase {
  const char* name;
  std::vector<Node> nodes;
  std::vector<std::pair<size_t, int64_t>> bound;  // node, GPUs already in use
  Pod pod;
  Kind kind;
  bool forever;
  std::string text;
  std::string resource;  // what it waits for or can never get
  Advice::Kind advice = Advice::Kind::kNone;  // worded after the text by report/diagnosis_text.h
};

Node Cordoned(Node n) {
  n.unschedulable = true;
  return n;
}
Node WithTaint(Node n) {
  n.taints.push_back({"dedicated", "infra", "NoSchedule"});
  return n;
}
Pod WithSelector(Pod p) {
  p.node_selector["nvidia.com/gpu.product"] = "H100";
  return p;
}

// A selector on a label the kubelet puts on every node it registers.
Pod WithOsSelector(Pod p) {
  p.node_selector["kubernetes.io/os"] = "linux";
  return p;
}

TEST(DiagnosisTest, Table) {
  const DiagCase cases[] = {
      {"empty cluster", {}, {}, GpuPod("p", 1), Kind::kNoNodes, true, "can never fit: the cluster has no nodes", ""},
      {"bigger than every node",
       {GpuNode("a", 4), GpuNode("b", 4), GpuNode("c", 4)},
       {},
       GpuPod("p", 8),
       Kind::kTooLarge,
       true,
       "can never fit: it requests 8 nvidia.com/gpu but the largest node has 4 (12 across all 3 nodes, but a pod runs "
       "on one node and is never split across several); request at most 4 or add a bigger node", "nvidia.com/gpu"},
      {"no device plugin",
       {GpuNode("a", -1), GpuNode("b", -1)},
       {},
       GpuPod("p", 1),
       Kind::kNotAdvertised,
       true,
       "can never fit: no node advertises nvidia.com/gpu; the nodes may have GPUs, but without the device plugin (e.g. "
       "the NVIDIA device plugin DaemonSet) running on them Kubernetes does not know it", "nvidia.com/gpu"},
      {"GPUs only on excluded nodes",
       {WithTaint(GpuNode("gpu", 8)), GpuNode("cpu", -1)},
       {},
       GpuPod("p", 1),
       Kind::kNotAdvertised,
       true,
       "can never fit: the only nodes that advertise nvidia.com/gpu are excluded by taints, cordons or the pod's "
       "nodeSelector", "nvidia.com/gpu"},
      {"every node excluded",
       {Cordoned(GpuNode("a", 8)), WithTaint(GpuNode("b", 8)), WithTaint(GpuNode("c", 8))},
       {},
       WithSelector(GpuPod("p", 1)),
       Kind::kNoEligibleNode,
       true,
       "can never fit: every node is excluded before resources are even compared: 1 node cordoned "
       "(spec.unschedulable); 2 nodes with a NoSchedule/NoExecute taint the pod does not tolerate (add a toleration)", ""},
      {"selector matches nothing",
       {GpuNode("a", 8)},
       {},
       WithSelector(GpuPod("p", 1)),
       Kind::kNoEligibleNode,
       true,
       "can never fit: every node is excluded before resources are even compared: 1 node not matching its "
       "nodeSelector or node affinity (fix them or label a node)", ""},
      {"ephemeral-storage, which every kubelet reports, missing from every node: Node manifests written by hand",
       {GpuNode("a", 8)},
       {},
       [] {
         Pod p = testing::ResourcePod({testing::Res{1000, 0, int64_t{10} << 30, {}}});
         p.meta.name = "p";
         return p;
       }(),
       Kind::kNotAdvertised,
       true,
       "can never fit: no node advertises ephemeral-storage, which the kubelet reports on every node it runs: these "
       "Node objects were written without it (add it to their status.allocatable, or take them from `kubectl get "
       "nodes -o json`)", "ephemeral-storage"},
      {"a kubelet label no node carries: Node manifests written by hand",
       {GpuNode("a", 8), GpuNode("b", 8)},
       {},
       WithOsSelector(GpuPod("p", 1)),
       Kind::kNoEligibleNode,
       true,
       "can never fit: every node is excluded before resources are even compared: 2 nodes not matching its "
       "nodeSelector or node affinity (fix them or label a node); no node carries kubernetes.io/os, which the kubelet "
       "sets on every node it registers: these Node objects were written without it (add it to the Node manifests, "
       "or take them from `kubectl get nodes -o json`)", ""},
      {"two kubelet labels, one asked by required node affinity",
       {GpuNode("a", 8)},
       {},
       [] {
         Pod p = WithOsSelector(GpuPod("p", 1));
         p.node_affinity.emplace();
         p.node_affinity->required.push_back(
             NodeSelectorTerm{{NodeSelectorRequirement{"kubernetes.io/arch", "In", {"amd64"}}}, {}});
         return p;
       }(),
       Kind::kNoEligibleNode,
       true,
       "can never fit: every node is excluded before resources are even compared: 1 node not matching its "
       "nodeSelector or node affinity (fix them or label a node); no node carries kubernetes.io/arch and "
       "kubernetes.io/os, which the kubelet sets on every node it registers: these Node objects were written without "
       "them (add them to the Node manifests, or take them from `kubectl get nodes -o json`)", ""},
      {"a kubelet label one node carries: no hint",
       {GpuNode("a", 8), [] {
          Node n = GpuNode("b", 8);
          n.meta.labels["kubernetes.io/os"] = "windows";
          return n;
        }()},
       {},
       WithOsSelector(GpuPod("p", 1)),
       Kind::kNoEligibleNode,
       true,
       "can never fit: every node is excluded before resources are even compared: 2 nodes not matching its "
       "nodeSelector or node affinity (fix them or label a node)", ""},
      {"the seed's training-job-c",
       {GpuNode("gpu-node-1", 4), GpuNode("gpu-node-2", 2)},
       {{0, 3}},
       GpuPod("training-job-c", 3),
       Kind::kWaitingForRoom,
       false,
       "waiting for room: it needs 3 nvidia.com/gpu on one node; when it was considered, the only node big enough was "
       "gpu-node-1 (4 in all, 1 free); it is placed when running pods finish (pending is not an error)", "nvidia.com/gpu"},
      {"fragmented",
       {GpuNode("a", 4), GpuNode("b", 4)},
       {{0, 3}, {1, 3}},
       GpuPod("p", 2),
       Kind::kFragmented,
       false,
       "waiting for room, fragmented: when it was considered, 2 nvidia.com/gpu were free across the 2 nodes that could "
       "run it, but at most 1 free on any one node and it needs 2 on one node", "nvidia.com/gpu",
       Advice::Kind::kLargestFirstOrBinPacking},
      {"cpu too large",
       {GpuNode("a", 4, 8000)},
       {},
       GpuPod("p", 1, 16000),
       Kind::kTooLarge,
       true,
       "can never fit: it requests 16 cpu but the largest node has 8; request at most 8 or add a bigger node", "cpu"},
      {"many nodes, waiting",
       {GpuNode("a", 2), GpuNode("b", 2), GpuNode("c", 2), GpuNode("d", 2)},
       {{0, 2}, {1, 2}, {2, 2}, {3, 1}},
       GpuPod("p", 2),
       Kind::kWaitingForRoom,
       false,
       "waiting for room: it needs 2 nvidia.com/gpu on one node; when it was considered, the nodes big enough were 4 "
       "nodes with 1 free in total; it is placed when running pods finish (pending is not an error)", "nvidia.com/gpu"},
  };
  auto filters = DefaultFilters();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster(c.nodes);
    std::vector<Pod> holders;
    holders.reserve(c.bound.size());
    for (const auto& [node, gpus] : c.bound) {
      holders.push_back(GpuPod("holder", gpus));
      cluster.Bind(node, PodInfo::Make(holders.back(), 0).requests);
    }
    Diagnosis d = Diagnose(PodInfo::Make(c.pod, 0), cluster, filters);
    EXPECT_EQ(d.kind, c.kind);
    EXPECT_EQ(d.forever, c.forever);
    EXPECT_EQ(d.text, c.text);
    EXPECT_EQ(d.resource, c.resource);
    EXPECT_EQ(d.advice, Advice{c.advice});
  }
}

// Reordering only helps when the batch's pods can all fit: the fragmented
// pod is told so only when what they ask for is free.
TEST(DiagnosisTest, SuggestsReorderingOnlyWhenThereIsRoomForAll) {
  ClusterState cluster({GpuNode("a", 4), GpuNode("b", 4)});
  std::vector<Pod> holders = {GpuPod("h1", 3), GpuPod("h2", 3)};
  cluster.Bind(0, PodInfo::Make(holders[0], 0).requests);
  cluster.Bind(1, PodInfo::Make(holders[1], 1).requests);
  auto filters = DefaultFilters();
  const Pod pod = GpuPod("p", 2);
  const std::string text =
      "waiting for room, fragmented: when it was considered, 2 nvidia.com/gpu were free across the 2 nodes that could "
      "run it, but at most 1 free on any one node and it needs 2 on one node";
  struct Case {
    const char* name;
    int64_t requested, free;
    Advice::Kind want;
  } cases[] = {
      {"room for all", 8, 8, Advice::Kind::kLargestFirstOrBinPacking},
      {"more asked than the cluster has", 9, 8, Advice::Kind::kNone},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    BatchDemand demand;
    demand.requested.SetScalar(kResourceGPU, c.requested);
    demand.free.SetScalar(kResourceGPU, c.free);
    Diagnosis d = Diagnose(PodInfo::Make(pod, 0), cluster, filters, &demand);
    EXPECT_EQ(d.kind, Kind::kFragmented);
    EXPECT_EQ(d.text, text);
    EXPECT_EQ(d.advice.kind, c.want);
  }
}

TEST(DiagnosisTest, KindNames) {
  EXPECT_STREQ(DiagnosisKindName(Kind::kWaitingForRoom), "waiting-for-room");
  EXPECT_STREQ(DiagnosisKindName(Kind::kFragmented), "fragmented");
  EXPECT_STREQ(DiagnosisKindName(Kind::kTooLarge), "too-large");
  EXPECT_STREQ(DiagnosisKindName(Kind::kNotAdvertised), "not-advertised");
  EXPECT_STREQ(DiagnosisKindName(Kind::kNoEligibleNode), "no-eligible-node");
  EXPECT_STREQ(DiagnosisKindName(Kind::kNoNodes), "no-nodes");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

Node MigNode(const std::string& name, std::vector<std::pair<std::string, int64_t>> profiles) {
  Node n = testing::GpuNode(name, -1);
  for (auto& [profile, count] : profiles) n.allocatable["nvidia.com/mig-" + profile] = Quantity::FromInt(count);
  return n;
}

// A whole-GPU pod facing only MIG nodes (the device plugin's mixed
// strategy) is told which profiles they offer, not that the device plugin is
// probably missing.
TEST(DiagnosisMigTest, WholeGpuPodOnMigNodes) {
  ClusterState c({MigNode("a100-1", {{"1g.10gb", 7}, {"3g.40gb", 2}}), MigNode("a100-2", {{"1g.10gb", 7}})});
  Pod p = testing::GpuPod("train", 1);
  Diagnosis d = Diagnose(PodInfo::Make(p, 0), c, DefaultFilters());
  EXPECT_EQ(d.kind, Diagnosis::Kind::kNotAdvertised);
  EXPECT_TRUE(d.forever);
  EXPECT_EQ(d.text,
            "can never fit: no node advertises nvidia.com/gpu; the GPUs of 2 nodes are partitioned with MIG (the NVIDIA "
            "device plugin's mixed strategy) and offered as nvidia.com/mig-1g.10gb (14 on 2 nodes), "
            "nvidia.com/mig-3g.40gb (2 on 1 node): request one of these profiles (e.g. nvidia.com/mig-1g.10gb: 1) "
            "instead of nvidia.com/gpu, or turn MIG off on some nodes");
}

TEST(DiagnosisMigTest, NoteOnlyForNvidiaGpuAndMigNodes) {
  ClusterState mig({MigNode("a100-1", {{"1g.10gb", 7}})});
  EXPECT_EQ(MigOfferNote("example.com/fpga", mig), "");
  ClusterState plain({testing::GpuNode("cpu-only", -1)});
  EXPECT_EQ(MigOfferNote("nvidia.com/gpu", plain), "");
  Pod p = testing::GpuPod("train", 1);
  EXPECT_EQ(Diagnose(PodInfo::Make(p, 0), plain, DefaultFilters()).text,
            "can never fit: no node advertises nvidia.com/gpu; the nodes may have GPUs, but without the device plugin "
            "(e.g. the NVIDIA device plugin DaemonSet) running on them Kubernetes does not know it");
}

// A MIG profile no node advertises: kube-scheduler's reason is unchanged
// ("Insufficient nvidia.com/mig-3g.40gb", api/fit_error), the diagnosis
// adds what the nodes offer and which mig.config makes the profile.
TEST(DiagnosisMigTest, ProfileNoNodeAdvertises) {
  Node a100 = MigNode("a100-40-1", {{"3g.20gb", 2}});
  a100.meta.labels = {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}};
  Node h100 = MigNode("h100-1", {{"1g.10gb", 7}});
  h100.meta.labels = {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}};
  ClusterState c({a100, h100});
  Pod p = testing::ResourcePod({testing::Res{100, 0, 0, {{"nvidia.com/mig-3g.40gb", 1}}}});
  Diagnosis d = Diagnose(PodInfo::Make(p, 0), c, DefaultFilters());
  EXPECT_EQ(d.kind, Diagnosis::Kind::kNotAdvertised);
  EXPECT_EQ(d.resource, "nvidia.com/mig-3g.40gb");
  EXPECT_EQ(d.text,
            "can never fit: no node advertises nvidia.com/mig-3g.40gb; the nodes offer nvidia.com/mig-1g.10gb (7 on "
            "h100-1: H100 80GB), nvidia.com/mig-3g.20gb (2 on a100-40-1: A100 40GB); 3g.40gb is a MIG profile of the "
            "H100 80GB GPUs of h100-1 (2 per GPU): `kubectl label node h100-1 nvidia.com/mig.config=all-3g.40gb "
            "--overwrite` has the GPU operator's MIG manager repartition their GPUs (once no pod uses them); the A100 "
            "40GB GPUs of a100-40-1 have no 3g.40gb profile (their 3-slice profile is 3g.20gb)");
}

// A pod waiting on time-sliced nodes is told it waits for a replica of
// GPUs others share (sharing_diagnosis.cc words the note).
TEST(DiagnosisSharingTest, WaitsForAReplica) {
  Node ts = testing::GpuNode("l4-ts-1", 8);
  ts.meta.labels = {{"nvidia.com/gpu.product", "NVIDIA-L4-SHARED"},
                    {"nvidia.com/gpu.replicas", "4"},
                    {"nvidia.com/gpu.count", "2"}};
  ClusterState c({ts});
  for (int k = 0; k < 6; ++k) c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}));
  c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 2}}}));
  Pod p = testing::GpuPod("notebook", 1);
  Diagnosis d = Diagnose(PodInfo::Make(p, 0), c, DefaultFilters());
  EXPECT_EQ(d.kind, Diagnosis::Kind::kWaitingForRoom);
  EXPECT_EQ(d.text,
            "waiting for room: it needs 1 nvidia.com/gpu on one node; when it was considered, the only node big enough "
            "was l4-ts-1 (8 in all, 0 free); it is placed when running pods finish (pending is not an error); these "
            "GPUs are shared, not whole: l4-ts-1 has 2 GPUs time-sliced as 4 replicas each, all 8 held by 7 pods, so "
            "it waits for one of those pods to finish");
}

// A MIG profile is an ordinary extended resource: it schedules.
TEST(DiagnosisMigTest, MigProfileRequestSchedules) {
  ClusterState c({MigNode("a100-1", {{"1g.10gb", 7}})});
  Pod p = testing::ResourcePod({testing::Res{100, 0, 0, {{"nvidia.com/mig-1g.10gb", 2}}}});
  Scheduler s(DefaultFilters(), NewSimplePolicy("first-fit"), 1);
  Decision d = s.ScheduleOne(PodInfo::Make(p, 0), c);
  EXPECT_TRUE(d.scheduled);
  EXPECT_EQ(c.state(0).requested.Scalar("nvidia.com/mig-1g.10gb"), 2);
}

// KAI's gpu-memory: nodes it cannot size the request on are excluded for
// good, and the diagnosis says why.
TEST(DiagnosisKaiTest, GpuMemoryExclusions) {
  Node bare = testing::GpuNode("bare", 2);
  Node small = testing::GpuNode("l4", 1);
  small.meta.labels["nvidia.com/gpu.memory"] = "23034";
  ClusterState c({bare, small});
  Pod p = testing::GpuPod("llm", 0, 100);
  p.meta.annotations["gpu-memory"] = "40000";
  Diagnosis d = Diagnose(PodInfo::Make(p, 0), c, DefaultFilters());
  EXPECT_EQ(d.kind, Diagnosis::Kind::kNoEligibleNode);
  EXPECT_TRUE(d.forever);
  EXPECT_EQ(d.text,
            "can never fit: every node is excluded before resources are even compared: 1 node without the "
            "nvidia.com/gpu.memory label (GPU Feature Discovery) that KAI sizes its gpu-memory request of 40000 MiB "
            "against (KAI: \"the gpu memory count on the node was not synced\"); 1 node whose GPUs have less memory "
            "(nvidia.com/gpu.memory) than its gpu-memory of 40000 MiB");
}

}  // namespace
}  // namespace gpusched
