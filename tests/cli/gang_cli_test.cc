// The gang examples (examples/gang/README.md) through the command line,
// output compared exactly: two interleaved gangs placed one by one by stock
// kube-scheduler (both half placed, every GPU held idle) and all or nothing
// by GangScheduling; Coscheduling's profile; a PyTorchJob whose minAvailable is
// below its replicas, all or nothing for that minimum; a Volcano task
// minimum that holds a job whose minMember fits; the JSON contract; the errors.
#include <gtest/gtest.h>

#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;

const std::string kGang = std::string(GPUSCHED_SOURCE_DIR) + "/examples/gang/";

TEST(GangCliTest, StockSchedulerHalfPlacesBothGangs) {
  auto r = Cli({"schedule", "-f", kGang + "cluster.yaml", "-f", kGang + "two-jobs.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(scheduling result:
  training/llama-a-worker-0 -> gpu-node-1
  training/llama-b-worker-0 -> gpu-node-2
  training/llama-a-worker-1 -> gpu-node-3
  training/llama-b-worker-1 -> gpu-node-4
pending (no node had enough free GPUs):
  training/llama-a-worker-2
  training/llama-b-worker-2

node state after scheduling:
  gpu-node-1: 8/8 GPUs used
  gpu-node-2: 8/8 GPUs used
  gpu-node-3: 8/8 GPUs used
  gpu-node-4: 8/8 GPUs used

why pending:
  training/llama-a-worker-2: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.
    waiting for room: it needs 8 nvidia.com/gpu on one node; when it was considered, the nodes big enough were 4 nodes with 0 free in total; it is placed when running pods finish (pending is not an error)
  training/llama-b-worker-2: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.
    waiting for room: it needs 8 nvidia.com/gpu on one node; when it was considered, the nodes big enough were 4 nodes with 0 free in total; it is placed when running pods finish (pending is not an error)

gangs (members placed / needed):
  training/llama-a/workers: 2/3 placed, 1 pending, cannot start; 16 GPUs held idle by its placed members [placed one by one: its pods' scheduler does not gang]
  training/llama-b/workers: 2/3 placed, 1 pending, cannot start; 16 GPUs held idle by its placed members [placed one by one: its pods' scheduler does not gang]

GPU devices (index on the node):
  gpu-node-1: training/llama-a-worker-0 [0,1,2,3,4,5,6,7]
  gpu-node-2: training/llama-b-worker-0 [0,1,2,3,4,5,6,7]
  gpu-node-3: training/llama-a-worker-1 [0,1,2,3,4,5,6,7]
  gpu-node-4: training/llama-b-worker-1 [0,1,2,3,4,5,6,7]

summary: 4 nodes, 6 pods: 4 placed, 2 pending (0 can never fit), 0 rejected
  GPUs: 48 requested, 32 capacity, 32 allocated (100%), 0 free
  the pods request 48 GPUs but the cluster has 32: no queue order or policy can place them all at once; at least 16 GPUs' worth of pods must wait for others to finish
)");
}

TEST(GangCliTest, GangSchedulingPlacesOneGangWhole) {
  auto r = Cli({"schedule", "--config", kGang + "config/gang-scheduling.yaml", "--feature-gates", "GangScheduling=true",
                "-f", kGang + "cluster.yaml", "-f", kGang + "two-jobs.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(scheduling result:
  training/llama-a-worker-0 -> gpu-node-3
  training/llama-a-worker-1 -> gpu-node-4
  training/llama-a-worker-2 -> gpu-node-1
pending (for reasons other than free GPUs; see why pending):
  training/llama-b-worker-0
  training/llama-b-worker-1
  training/llama-b-worker-2

node state after scheduling:
  gpu-node-1: 8/8 GPUs used
  gpu-node-2: 0/8 GPUs used
  gpu-node-3: 8/8 GPUs used
  gpu-node-4: 8/8 GPUs used

why pending:
  training/llama-b-worker-0: rejected due to timeout after waiting 5m0s at plugin GangScheduling
    gang training/llama-b/workers (GangScheduling, minCount 3): 1 of 3 members fit now; the other 2 need 16 GPUs, 8 per pod, on at least 2 nodes; the whole gang fits this cluster once enough GPUs are free, so no member is bound until then
  training/llama-b-worker-1: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.
    gang training/llama-b/workers (GangScheduling, minCount 3): 1 of 3 members fit now; the other 2 need 16 GPUs, 8 per pod, on at least 2 nodes; the whole gang fits this cluster once enough GPUs are free, so no member is bound until then; this member: no node had room once the 1 member that fits was reserved
  training/llama-b-worker-2: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.
    gang training/llama-b/workers (GangScheduling, minCount 3): 1 of 3 members fit now; the other 2 need 16 GPUs, 8 per pod, on at least 2 nodes; the whole gang fits this cluster once enough GPUs are free, so no member is bound until then; this member: no node had room once the 1 member that fits was reserved

gangs (members placed / needed):
  training/llama-a/workers: 3/3 placed, 0 pending, can start [gang: GangScheduling]
  training/llama-b/workers: 0/3 placed, 3 pending, cannot start [gang: GangScheduling]

GPU devices (index on the node):
  gpu-node-1: training/llama-a-worker-2 [0,1,2,3,4,5,6,7]
  gpu-node-3: training/llama-a-worker-0 [0,1,2,3,4,5,6,7]
  gpu-node-4: training/llama-a-worker-1 [0,1,2,3,4,5,6,7]

summary: 4 nodes, 6 pods: 3 placed, 3 pending (0 can never fit), 0 rejected
  GPUs: 48 requested, 32 capacity, 24 allocated (75%), 8 free
  the pods request 48 GPUs but the cluster has 32: no queue order or policy can place them all at once; at least 16 GPUs' worth of pods must wait for others to finish
)");
}

TEST(GangCliTest, CoschedulingProfile) {
  auto r = Cli({"schedule", "--config", kGang + "config/coscheduling.yaml", "-f", kGang + "cluster.yaml", "-f",
                kGang + "coscheduling.yaml", "-q"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(summary: 4 nodes, 3 pods: 3 placed, 0 pending (0 can never fit), 0 rejected
  GPUs: 12 requested, 32 capacity, 12 allocated (37%), 20 free
  every pod was placed

gangs (members placed / needed):
  training/nccl-allreduce: 3/3 placed, 0 pending, can start [gang: Coscheduling]
)");
}

// The additive JSON contract: "gang" and "reason" on pending entries,
// "gangs" at the top.
TEST(GangCliTest, JsonContract) {
  auto stock = Cli({"schedule", "-o", "json", "-f", kGang + "cluster.yaml", "-f", kGang + "two-jobs.yaml"});
  ASSERT_EQ(stock.code, 0);
  const nlohmann::ordered_json s = nlohmann::ordered_json::parse(stock.out);
  ASSERT_EQ(s["pending"].size(), 2u);
  EXPECT_EQ(s["pending"][0]["gang"], "training/llama-a/workers");
  EXPECT_EQ(s["pending"][0]["reason"], "waiting-for-room");
  EXPECT_EQ(s["gangs"].dump(),
            R"([{"gang":"training/llama-a/workers","api":"Workload scheduling.k8s.io/v1alpha1","enforced_by":null,)"
            R"("min_count":3,"members":3,"placed":2,"pending":1,"gpus_held_idle":16,"state":"partial"},)"
            R"({"gang":"training/llama-b/workers","api":"Workload scheduling.k8s.io/v1alpha1","enforced_by":null,)"
            R"("min_count":3,"members":3,"placed":2,"pending":1,"gpus_held_idle":16,"state":"partial"}])");

  auto gang = Cli({"schedule", "-o", "json", "--config", kGang + "config/gang-scheduling.yaml", "--feature-gates",
                   "GangScheduling=true", "-f", kGang + "cluster.yaml", "-f", kGang + "two-jobs.yaml"});
  ASSERT_EQ(gang.code, 0);
  const nlohmann::json g = nlohmann::json::parse(gang.out);
  std::vector<std::string> pending;
  for (const auto& p : g["pending"])
    pending.push_back(p["pod"].get<std::string>() + " " + p["reason"].get<std::string>() + " " +
                      p["gang"].get<std::string>());
  EXPECT_EQ(pending, (std::vector<std::string>{"llama-b-worker-0 gang training/llama-b/workers",
                                               "llama-b-worker-1 gang training/llama-b/workers",
                                               "llama-b-worker-2 gang training/llama-b/workers"}));
  EXPECT_EQ(g["gangs"][1]["state"], "waiting");
  EXPECT_EQ(g["gangs"][1]["enforced_by"], "GangScheduling");
  // No gangs in the input: no "gangs" key, no "gang" on pending entries.
  auto none = Cli({"schedule", "-o", "json", "-f", kGang + "cluster.yaml"});
  EXPECT_FALSE(nlohmann::json::parse(none.out).contains("gangs"));
}

// A PyTorchJob (Master 1 + Worker 4, 8 GPUs each) whose
// runPolicy.schedulingPolicy.minAvailable 3 is below its 5 replicas, under
// Coscheduling: its PodGroup's minMember is 3, so on 3 nodes of 8 GPUs
// exactly 3 members are bound and 2 wait, and on 2 nodes none is.
std::string KubeflowMinAvailableFiles(int nodes) {
  const std::string dir = ::testing::TempDir();
  std::ofstream job(dir + "/ptj-min3.yaml");
  job << "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ptj, namespace: training}\nspec:\n"
         "  runPolicy:\n    schedulingPolicy: {minAvailable: 3}\n  pytorchReplicaSpecs:\n";
  for (const auto& [type, n] : {std::pair{"Master", 1}, std::pair{"Worker", 4}})
    job << "    " << type << ":\n      replicas: " << n
        << "\n      template:\n        spec:\n          schedulerName: scheduler-plugins-scheduler\n"
           "          containers:\n          - name: pytorch\n            image: x\n"
           "            resources: {limits: {nvidia.com/gpu: 8}}\n";
  const std::string cluster = dir + "/ptj-nodes-" + std::to_string(nodes) + ".yaml";
  std::ofstream c(cluster);
  for (int i = 1; i <= nodes; ++i)
    c << (i > 1 ? "---\n" : "") << "apiVersion: v1\nkind: Node\nmetadata: {name: gpu-node-" << i
      << "}\nstatus: {allocatable: {cpu: \"96\", memory: 1024Gi, pods: \"110\", nvidia.com/gpu: \"8\"}}\n";
  return cluster;
}

TEST(GangCliTest, KubeflowMinAvailableBelowReplicasAllOrNothing) {
  const std::string job = ::testing::TempDir() + "/ptj-min3.yaml";
  const std::string three = KubeflowMinAvailableFiles(3);
  auto placed = Cli({"schedule", "--config", kGang + "config/coscheduling.yaml", "-f", three, "-f", job});
  EXPECT_EQ(placed.code, 0);
  EXPECT_EQ(placed.err, "");
  EXPECT_EQ(placed.out, R"(scheduling result:
  training/ptj-master-0 -> gpu-node-3
  training/ptj-worker-0 -> gpu-node-2
  training/ptj-worker-1 -> gpu-node-1
pending (no node had enough free GPUs):
  training/ptj-worker-2
  training/ptj-worker-3

node state after scheduling:
  gpu-node-1: 8/8 GPUs used
  gpu-node-2: 8/8 GPUs used
  gpu-node-3: 8/8 GPUs used

why pending:
  training/ptj-worker-2: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
    waiting for room: it needs 8 nvidia.com/gpu on one node; when it was considered, the nodes big enough were gpu-node-1 (8 in all, 0 free), gpu-node-2 (8 in all, 0 free), gpu-node-3 (8 in all, 0 free); it is placed when running pods finish (pending is not an error)
  training/ptj-worker-3: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
    waiting for room: it needs 8 nvidia.com/gpu on one node; when it was considered, the nodes big enough were gpu-node-1 (8 in all, 0 free), gpu-node-2 (8 in all, 0 free), gpu-node-3 (8 in all, 0 free); it is placed when running pods finish (pending is not an error)

gangs (members placed / needed):
  training/ptj: 3/3 placed, 2 pending, can start [gang: Coscheduling]

GPU devices (index on the node):
  gpu-node-1: training/ptj-worker-1 [0,1,2,3,4,5,6,7]
  gpu-node-2: training/ptj-worker-0 [0,1,2,3,4,5,6,7]
  gpu-node-3: training/ptj-master-0 [0,1,2,3,4,5,6,7]

summary: 3 nodes, 5 pods: 3 placed, 2 pending (0 can never fit), 0 rejected
  GPUs: 40 requested, 24 capacity, 24 allocated (100%), 0 free
  the pods request 40 GPUs but the cluster has 24: no queue order or policy can place them all at once; at least 16 GPUs' worth of pods must wait for others to finish
)");
  const std::string two = KubeflowMinAvailableFiles(2);
  auto none = Cli({"schedule", "--config", kGang + "config/coscheduling.yaml", "-f", two, "-f", job});
  EXPECT_EQ(none.code, 0);
  EXPECT_EQ(none.err, "");
  EXPECT_EQ(none.out, R"(scheduling result:
pending (can never fit on this cluster as it is; see why pending):
  training/ptj-master-0
  training/ptj-worker-0
  training/ptj-worker-1
  training/ptj-worker-2
  training/ptj-worker-3

node state after scheduling:
  gpu-node-1: 0/8 GPUs used
  gpu-node-2: 0/8 GPUs used

why pending:
  training/ptj-master-0: optimistic rejection in PostFilter
    gang training/ptj (Coscheduling, minMember 3): 2 of 5 members fit now; 1 more of the other 3 is needed to reach minMember 3: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit
  training/ptj-worker-0: optimistic rejection in PostFilter
    gang training/ptj (Coscheduling, minMember 3): 2 of 5 members fit now; 1 more of the other 3 is needed to reach minMember 3: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit
  training/ptj-worker-1: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod., PodGroup training/ptj gets rejected due to Pod ptj-worker-1 is unschedulable even after PostFilter
    gang training/ptj (Coscheduling, minMember 3): 2 of 5 members fit now; 1 more of the other 3 is needed to reach minMember 3: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit; this member: no node had room once the 2 members that fit were reserved
  training/ptj-worker-2: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod., PodGroup training/ptj gets rejected due to Pod ptj-worker-2 is unschedulable even after PostFilter
    gang training/ptj (Coscheduling, minMember 3): 2 of 5 members fit now; 1 more of the other 3 is needed to reach minMember 3: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit; this member: no node had room once the 2 members that fit were reserved
  training/ptj-worker-3: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod., PodGroup training/ptj gets rejected due to Pod ptj-worker-3 is unschedulable even after PostFilter
    gang training/ptj (Coscheduling, minMember 3): 2 of 5 members fit now; 1 more of the other 3 is needed to reach minMember 3: at least 8 GPUs; the gang can never fit this cluster: even on empty nodes fewer than 3 of its members fit; this member: no node had room once the 2 members that fit were reserved

gangs (members placed / needed):
  training/ptj: 0/3 placed, 5 pending, cannot start [gang: Coscheduling]

summary: 2 nodes, 5 pods: 0 placed, 5 pending (5 can never fit), 0 rejected
  GPUs: 40 requested, 16 capacity, 0 allocated (0%), 16 free
  5 pending pods can never fit on this cluster as it is (see why pending)
)");
}

// A Volcano PodGroup whose task ps can never fit: its minimum of 3 fits
// (three workers), its minTaskMember ps 1 does not, so Volcano commits
// nothing (job_info.go CheckTaskReady) and the report names the task.
TEST(GangCliTest, VolcanoTaskMinimumHoldsTheJob) {
  auto r = Cli({"schedule", "--scheduler-name", "volcano=kube-default", "-f", kGang + "cluster.yaml", "-f",
                kGang + "volcano-ps-worker.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(scheduling result:
pending (can never fit on this cluster as it is; see why pending):
  training/ps-job-worker-0
  training/ps-job-worker-1
  training/ps-job-worker-2
  training/ps-job-ps-0

node state after scheduling:
  gpu-node-1: 0/8 GPUs used
  gpu-node-2: 0/8 GPUs used
  gpu-node-3: 0/8 GPUs used
  gpu-node-4: 0/8 GPUs used

why pending:
  training/ps-job-worker-0: 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending
    gang training/ps-job (Volcano, minAvailable 3): 3 of 4 members fit now; task ps has 0 of its 1 placed; 1 more of its 1 unplaced member is needed; the gang can never fit this cluster: even on empty nodes too few of its members fit to meet its task minimums
  training/ps-job-worker-1: 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending
    gang training/ps-job (Volcano, minAvailable 3): 3 of 4 members fit now; task ps has 0 of its 1 placed; 1 more of its 1 unplaced member is needed; the gang can never fit this cluster: even on empty nodes too few of its members fit to meet its task minimums
  training/ps-job-worker-2: 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending
    gang training/ps-job (Volcano, minAvailable 3): 3 of 4 members fit now; task ps has 0 of its 1 placed; 1 more of its 1 unplaced member is needed; the gang can never fit this cluster: even on empty nodes too few of its members fit to meet its task minimums
  training/ps-job-ps-0: 0/4 tasks in gang unschedulable: pod group is not ready, 3 minAvailable, 4 Pending
    gang training/ps-job (Volcano, minAvailable 3): 3 of 4 members fit now; task ps has 0 of its 1 placed; 1 more of its 1 unplaced member is needed; the gang can never fit this cluster: even on empty nodes too few of its members fit to meet its task minimums; this member: can never fit: it requests 128 cpu but the largest node has 96 (384 across all 4 nodes, but a pod runs on one node and is never split across several); request at most 96 or add a bigger node

gangs (members placed / needed):
  training/ps-job: 0/3 placed, 4 pending, cannot start; task ps has 0 of its 1 placed; task worker has 0 of its 2 placed [gang: Volcano]

summary: 4 nodes, 4 pods: 0 placed, 4 pending (4 can never fit), 0 rejected
  GPUs: 24 requested, 32 capacity, 0 allocated (0%), 32 free
  4 pending pods can never fit on this cluster as it is (see why pending)
)");
}

TEST(GangCliTest, Errors) {
  auto gate = Cli({"schedule", "--config", kGang + "config/gang-scheduling.yaml", "-f", kGang + "cluster.yaml"});
  EXPECT_EQ(gate.code, 2);
  EXPECT_EQ(gate.err,
            "error: profile \"default-scheduler\" enables GangScheduling, alpha in v1.35 and off by default: add "
            "--feature-gates GangScheduling=true\n");
  auto unknown = Cli({"schedule", "--feature-gates", "Foo=true", "-f", kGang + "cluster.yaml"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err,
            "error: unsupported --feature-gates entry \"Foo=true\" (schedule reads GangScheduling=true|false and "
            "GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)\n");
}

}  // namespace
}  // namespace gpusched
