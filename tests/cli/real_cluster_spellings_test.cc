// End-to-end tests of real clusters' spellings and statuses on the examples
// added for them (examples/gpu-sharing, examples/mistakes/{mig-only,
// scheduling-gates,other-scheduler,dra}): exact output, exit codes, and the
// --scheduler-name flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kExamples = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

// Messages name files by the path given; the expectations use paths under examples/.
std::string Relative(std::string s) {
  for (size_t p; (p = s.find(kExamples)) != std::string::npos;) s.replace(p, kExamples.size(), "");
  return s;
}

TEST(RealClusterSpellingsCliTest, AlibabaGpuCountNodes) {
  CliRun r = Cli({"schedule", "-f", kExamples + "gpu-sharing/alibaba"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  pai-gpu/gpu-pod-00 -> pai-node-00\n"
      "  pai-gpu/gpu-pod-01 -> pai-node-00\n"
      "  pai-gpu/gpu-pod-02 -> pai-node-01\n"
      "\n"
      "node state after scheduling:\n"
      "  pai-node-00: 1/2 GPUs used\n"
      "  pai-node-01: 2/4 GPUs used\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  pai-node-00: pai-gpu/gpu-pod-00 [0]\n"
      "  pai-node-01: pai-gpu/gpu-pod-02 [0,1]\n"
      "\n"
      "summary: 2 nodes, 3 pods: 3 placed, 0 pending (0 can never fit), 0 rejected\n"
      "  GPUs: 2.5 requested, 6 capacity, 3 allocated (50%), 3 free; 3 of the allocated GPUs hold GPU shares, which use 2.5 of them\n"
      "  every pod was placed\n");
  EXPECT_EQ(r.err, "");
}

TEST(RealClusterSpellingsCliTest, KaiGpuMemoryServedByBestFit) {
  CliRun r = Cli({"schedule", "-f", kExamples + "gpu-sharing/kai-gpu-memory.yaml", "--scheduler-name", "kai-scheduler=best-fit"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  llm-40g          -> a100-node\n"
      "  embed-20g        -> l4-node\n"
      "  half-gpu         -> a100-node\n"
      "pending (no node had enough free GPUs):\n"
      "  two-times-30g\n"
      "pending (can never fit on this cluster as it is; see why pending):\n"
      "  too-big-100g\n"
      "\n"
      "node state after scheduling:\n"
      "  a100-node: 1/2 GPUs used\n"
      "  l4-node: 1/1 GPUs used\n"
      "  unlabelled-node: 0/4 GPUs used\n"
      "\n"
      "why pending:\n"
      "  two-times-30g: 0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't have the nvidia.com/gpu.memory label that gpu-memory is sized against, 1 node(s) had GPUs with less memory than the requested gpu-memory.\n"
      "    waiting for room: it needs 2 nvidia.com/gpu on one node; when it was considered, the only node big enough was a100-node (2 in all, 1 free); it is placed when running pods finish (pending is not an error)\n"
      "  too-big-100g: 0/3 nodes are available: 1 node(s) didn't have the nvidia.com/gpu.memory label that gpu-memory is sized against, 2 node(s) had GPUs with less memory than the requested gpu-memory.\n"
      "    can never fit: every node is excluded before resources are even compared: 1 node without the nvidia.com/gpu.memory label (GPU Feature Discovery) that KAI sizes its gpu-memory request of 100000 MiB against (KAI: \"the gpu memory count on the node was not synced\"); 2 nodes whose GPUs have less memory (nvidia.com/gpu.memory) than its gpu-memory of 100000 MiB\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  a100-node: llm-40g [0], half-gpu [0]\n"
      "  l4-node: embed-20g [0]\n"
      "\n"
      "summary: 3 nodes, 5 pods: 3 placed, 2 pending (1 can never fit), 0 rejected\n"
      // gpu-memory shares as KAI sizes them on each node (a100 81900 MiB, l4 23000 MiB after KAI's floor):
      // placed llm-40g ceil(40000/81900) = 489, embed-20g ceil(20000/23000) = 870, half-gpu 500: 1,859 in use;
      // pending two-times-30g 2 x ceil(30000/81900) = 734 on the largest GPUs, too-big-100g a whole device.
      "  GPUs: 3.593 requested, 7 capacity, 2 allocated (28%), 5 free; 2 of the allocated GPUs hold GPU shares, which use 1.859 of them\n"
      "  1 pending pod can never fit on this cluster as it is (see why pending)\n");
  EXPECT_EQ(r.err, "");
}

TEST(RealClusterSpellingsCliTest, HamiRefused) {
  CliRun r = Cli({"schedule", "-f", kExamples + "gpu-sharing/hami.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "pending (for reasons other than free GPUs; see why pending):\n"
      "  gpu-pod\n"
      "  gpu-pod-no-webhook\n"
      "\n"
      "node state after scheduling:\n"
      "  v100-node: 0/20 GPUs used\n"
      "\n"
      "why pending:\n"
      "  gpu-pod: (not handled by this scheduler)\n"
      "    not scheduled: it asks for HAMi vGPUs (nvidia.com/gpu: 1, nvidia.com/gpucores: 30, nvidia.com/gpumem: 3000), where nvidia.com/gpu counts slices of a device, not devices; HAMi's scheduler (hami-scheduler, a kube-scheduler extender) places them from the per-device memory and cores each node registers (hami.io/node-nvidia-register), which gpusched does not model, so it neither places the pod nor counts it as whole GPUs\n"
      "  gpu-pod-no-webhook: 0/1 nodes are available: 1 Insufficient nvidia.com/gpumem-percentage.\n"
      "    not scheduled: it asks for HAMi vGPUs (nvidia.com/gpu: 1, nvidia.com/gpumem-percentage: 50), where nvidia.com/gpu counts slices of a device, not devices; HAMi's scheduler (hami-scheduler, a kube-scheduler extender) places them from the per-device memory and cores each node registers (hami.io/node-nvidia-register), which gpusched does not model, so it neither places the pod nor counts it as whole GPUs (its spec.schedulerName is \"default-scheduler\", as without HAMi's webhook: that scheduler runs its own filters on it, which is what the message says)\n"
      "\n"
      "summary: 1 node, 2 pods: 0 placed, 2 pending (2 can never fit), 0 rejected\n"
      "  GPUs: 2 requested, 20 capacity, 0 allocated (0%), 20 free\n"
      "  2 pending pods can never fit on this cluster as it is (see why pending)\n");
  EXPECT_EQ(Relative(r.err),
      "warning: gpu-sharing/hami.yaml:4: Node/v100-node: carries HAMi's device registry (hami.io/node-nvidia-register), so its nvidia.com/gpu (20) counts HAMi vGPUs, not devices; gpusched does not model HAMi: pods that ask for hami-scheduler or HAMi's resources stay pending, and other pods see the vGPU count as whole GPUs\n");
}

TEST(RealClusterSpellingsCliTest, MigOnlyNodes) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/mig-only"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  mig-slice-job    -> a100-mig-1\n"
      "pending (can never fit on this cluster as it is; see why pending):\n"
      "  whole-gpu-job\n"
      "\n"
      "node state after scheduling:\n"
      "  a100-mig-1: 1/9 MIG devices held\n"
      "  a100-mig-2: 0/7 MIG devices held\n"
      "\n"
      "why pending:\n"
      "  whole-gpu-job: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
      "    can never fit: no node advertises nvidia.com/gpu; the GPUs of 2 nodes are partitioned with MIG (the NVIDIA device plugin's mixed strategy) and offered as nvidia.com/mig-1g.10gb (14 on 2 nodes), nvidia.com/mig-3g.40gb (2 on 1 node): request one of these profiles (e.g. nvidia.com/mig-1g.10gb: 1) instead of nvidia.com/gpu, or turn MIG off on some nodes\n"
      "\n"
      "summary: 2 nodes, 2 pods: 1 placed, 1 pending (1 can never fit), 0 rejected\n"
      "  GPUs: 1 requested, 0 capacity, 0 allocated (0%), 0 free\n"
      "  MIG devices through the device plugin: 16 on 2 nodes (2.75 GPUs), 1 held (0.5 GPUs)\n"
      "  1 pending pod can never fit on this cluster as it is (see why pending); the pods request 1 GPU and the cluster advertises none\n");
  EXPECT_EQ(r.err, "");
}

// examples/gpu-sharing's device-plugin MIG and sharing clusters: the lines
// gpusched adds (kube-scheduler's own are unchanged), each exactly once.
TEST(RealClusterSpellingsCliTest, DevicePluginMigAndSharing) {
  struct Case {
    std::string file;
    std::vector<std::string> lines;
  } cases[] = {
      {"gpu-sharing/mig-mixed.yaml",
       {"  big-slice: 0/2 nodes are available: 2 Insufficient nvidia.com/mig-3g.40gb.",
        "    can never fit: no node advertises nvidia.com/mig-3g.40gb; the nodes offer nvidia.com/mig-1g.10gb (28 on "
        "h100-1: H100 80GB), nvidia.com/mig-1g.5gb (4 on a100-40-1: A100 40GB), nvidia.com/mig-2g.10gb (2 on "
        "a100-40-1: A100 40GB), nvidia.com/mig-3g.20gb (2 on a100-40-1: A100 40GB); 3g.40gb is a MIG profile of the "
        "H100 80GB GPUs of h100-1 (2 per GPU): `kubectl label node h100-1 nvidia.com/mig.config=all-3g.40gb "
        "--overwrite` has the GPU operator's MIG manager repartition their GPUs (once no pod uses them); the A100 "
        "40GB GPUs of a100-40-1 have no 3g.40gb profile (their 3-slice profile is 3g.20gb)",
        "  MIG devices through the device plugin: 36 on 2 nodes (5.5 GPUs), 2 held (0.625 GPUs)"}},
      {"gpu-sharing/mig-single.yaml",
       {"  train-4          -> a100-single", "  a100-single: 5/56 MIG devices held", "  h100-whole: 0/8 GPUs used",
        "  MIG devices through the device plugin: 56 on 1 node (7 GPUs), 5 held (0.625 GPUs)",
        "  MIG single strategy: 56 MIG devices advertised as nvidia.com/gpu, counted above as GPUs by kube-scheduler "
        "and kubectl; 2 pods asking nvidia.com/gpu run there on one 1g.5gb MIG device (0.125 GPUs) per GPU asked, not a whole GPU"}},
      {"gpu-sharing/time-slicing.yaml",
       {"  l4-ts-1: 16/16 time-sliced replicas of 4 GPUs held", "  l4-ts-2: 14/16 time-sliced replicas of 4 GPUs held",
        "  time-slicing: 8 GPUs on 2 nodes, shared as 32 time-sliced replicas, 30 held by 29 pods; 16 of the GPU "
        "capacity above are replicas, not physical GPUs",
        "  1 placed pod holds more than 1 time-sliced replica: a device plugin with failRequestsGreaterThanOne set (the "
        "default under MPS) has the kubelet refuse it at admission (UnexpectedAdmissionError: maximum request size for "
        "shared resources is 1)"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    CliRun r = Cli({"schedule", "-f", kExamples + c.file});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "");
    std::vector<std::string> out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    for (const std::string& want : c.lines) EXPECT_EQ(std::count(out.begin(), out.end(), want), 1) << want;
  }
}

TEST(RealClusterSpellingsCliTest, ScheduledGated) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/scheduling-gates"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  ungated-train    -> gpu-node-1\n"
      "pending (for reasons other than free GPUs; see why pending):\n"
      "  gated-train\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 2/4 GPUs used\n"
      "\n"
      "why pending:\n"
      "  gated-train: Scheduling is blocked due to non-empty scheduling gates\n"
      "    not attempted (SchedulingGated): waiting for scheduling gates: [kueue.x-k8s.io/admission example.com/quota]; kube-scheduler's SchedulingGates plugin keeps the pod out of its queue until whoever added the gates (e.g. a queueing controller such as Kueue) removes them (pending is not an error)\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  gpu-node-1: ungated-train [0,1]\n"
      "\n"
      "summary: 1 node, 2 pods: 1 placed, 1 pending (0 can never fit), 0 rejected\n"
      "  GPUs: 4 requested, 4 capacity, 2 allocated (50%), 2 free\n"
      "  1 pending pod is gated (spec.schedulingGates) and not attempted until the gates are removed\n");
  EXPECT_EQ(r.err, "");
}

TEST(RealClusterSpellingsCliTest, OtherSchedulers) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/other-scheduler"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  default-train    -> gpu-node-1\n"
      "pending (for reasons other than free GPUs; see why pending):\n"
      "  kai-train\n"
      "  volcano-train\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 1/4 GPUs used\n"
      "\n"
      "why pending:\n"
      "  kai-train: (not handled by this scheduler)\n"
      "    not scheduled: spec.schedulerName is \"kai-scheduler\" (NVIDIA KAI-Scheduler: queues, gang scheduling, GPU sharing), a scheduler gpusched does not run (it serves \"default-scheduler\"), so the pod waits for that scheduler; to model it with a gpusched policy, pass --scheduler-name kai-scheduler=POLICY (e.g. kai-scheduler=best-fit)\n"
      "  volcano-train: (not handled by this scheduler)\n"
      "    not scheduled: spec.schedulerName is \"volcano\" (Volcano's scheduler: queues, gang scheduling), a scheduler gpusched does not run (it serves \"default-scheduler\"), so the pod waits for that scheduler; to model it with a gpusched policy, pass --scheduler-name volcano=POLICY (e.g. volcano=best-fit)\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  gpu-node-1: default-train [0]\n"
      "\n"
      "summary: 1 node, 3 pods: 1 placed, 2 pending (0 can never fit), 0 rejected\n"
      "  GPUs: 4 requested, 4 capacity, 1 allocated (25%), 3 free\n"
      "  2 pending pods not attempted: spec.schedulerName names a scheduler gpusched does not run (see why pending)\n");
  EXPECT_EQ(r.err, "");
}

TEST(RealClusterSpellingsCliTest, OtherSchedulersModelled) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/other-scheduler", "--scheduler-name", "kai-scheduler=best-fit", "--scheduler-name", "volcano=first-fit"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  kai-train        -> gpu-node-1\n"
      "  volcano-train    -> gpu-node-1\n"
      "  default-train    -> gpu-node-1\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 4/4 GPUs used\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  gpu-node-1: kai-train [0,1], volcano-train [2], default-train [3]\n"
      "\n"
      "summary: 1 node, 3 pods: 3 placed, 0 pending (0 can never fit), 0 rejected\n"
      "  GPUs: 4 requested, 4 capacity, 4 allocated (100%), 0 free\n"
      "  every pod was placed\n");
  EXPECT_EQ(r.err, "");
}

// The pod whose claim resolves gets a device; the one naming a missing
// ResourceClaim is held by PreEnqueue (docs/real-clusters.md).
TEST(RealClusterSpellingsCliTest, DraPodPlacedAndMissingClaimHeld) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/dra"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  dra-train        -> gpu-node-1\n"
      "pending (can never fit on this cluster as it is; see why pending):\n"
      "  dra-missing-claim\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 1/2 DRA GPUs held by claims\n"
      "\n"
      "why pending:\n"
      "  dra-missing-claim: could not find ResourceClaim \"default/team-a-gpu\"\n"
      "    not attempted: its resource claim \"shared-gpu\" names ResourceClaim \"team-a-gpu\", which is not in the input; kube-scheduler's DynamicResources plugin keeps the pod out of its queue until the claim can be used (add it to the input; one listed under rejected needs fixing first)\n"
      "\n"
      "DRA devices (driver/pool/device, by claim):\n"
      "  dra-train: claim gpu (default/dra-train-gpu-tvkr8): gpu.nvidia.com/gpu-node-1/gpu-0\n"
      "\n"
      "summary: 1 node, 2 pods: 1 placed, 1 pending (1 can never fit), 0 rejected\n"
      "  GPUs: 0 requested, 0 capacity, 0 allocated (0%), 0 free\n"
      "  DRA devices: 2 GPUs in ResourceSlices; claims hold 1 GPU\n"
      "  1 pending pod can never fit on this cluster as it is (see why pending)\n");
  EXPECT_EQ(r.err, "");
}

TEST(RealClusterSpellingsCliTest, SchedulerNameFlagErrors) {
  struct Case {
    std::string value, error;
  };
  const Case cases[] = {
      {"kai-scheduler", "error: invalid --scheduler-name \"kai-scheduler\": expected NAME=POLICY, e.g. "
                        "kai-scheduler=best-fit\n"},
      {"kai-scheduler=bestfit",
       "error: invalid --scheduler-name \"kai-scheduler=bestfit\": unknown policy \"bestfit\" (did you mean "
       "best-fit? known: first-fit, "
       "best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {"default-scheduler=best-fit",
       "error: --scheduler-name default-scheduler=best-fit: \"default-scheduler\" is already served by --policy (or "
       "the --config profile of that name)\n"},
  };
  for (const Case& c : cases) {
    for (const char* cmd : {"schedule", "simulate"}) {
      SCOPED_TRACE(std::string(cmd) + " " + c.value);
      CliRun r = Cli({cmd, "-f", kExamples + "seed", "--scheduler-name", c.value});
      EXPECT_EQ(r.code, 2);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err, c.error);
    }
  }
  CliRun cfg = Cli({"schedule", "-f", kExamples + "seed", "--config", kExamples + "config/gpu-binpack.yaml",
                    "--scheduler-name", "gpu-binpack=best-fit"});
  EXPECT_EQ(cfg.code, 2);
  EXPECT_EQ(cfg.err, "error: --scheduler-name gpu-binpack=best-fit: \"gpu-binpack\" is already served by a profile "
                     "of --config\n");
}

// explain takes the flag too, and its POD argument is never taken for a value.
TEST(RealClusterSpellingsCliTest, ExplainWithSchedulerName) {
  CliRun r = Cli({"explain", "-f", kExamples + "mistakes/other-scheduler", "--scheduler-name", "kai-scheduler=best-fit",
                  "kai-train"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.substr(0, 45), "pod default/kai-train requests 2 nvidia.com/g");
  EXPECT_NE(r.out.find("chosen: gpu-node-1"), std::string::npos) << r.out;
}

// The JSON reasons of the new pending kinds.
TEST(RealClusterSpellingsCliTest, JsonReasons) {
  struct Case {
    std::string dir, pod, reason;
    bool forever;
  };
  const Case cases[] = {
      {"mistakes/scheduling-gates", "gated-train", "scheduling-gated", false},
      {"mistakes/other-scheduler", "kai-train", "scheduler-not-run", false},
      {"mistakes/dra", "dra-missing-claim", "dra-claim-missing", true},
      {"gpu-sharing/hami.yaml", "gpu-pod", "not-modelled", true},
      {"mistakes/mig-only", "whole-gpu-job", "not-advertised", true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pod);
    CliRun r = Cli({"schedule", "-f", kExamples + c.dir, "-o", "json"});
    nlohmann::json j = nlohmann::json::parse(r.out);
    bool found = false;
    for (const auto& p : j["pending"])
      if (p["pod"] == c.pod) {
        found = true;
        EXPECT_EQ(p["reason"], c.reason);
        EXPECT_EQ(p["forever"], c.forever);
      }
    EXPECT_TRUE(found);
  }
}

// simulate serves every profile and holds what kube-scheduler would not attempt.
TEST(RealClusterSpellingsCliTest, SimulateHoldsAndServesProfiles) {
  CliRun r = Cli({"simulate", "-f", kExamples + "mistakes/other-scheduler", "--scheduler-name", "kai-scheduler=best-fit",
                  "--policy", "first-fit"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("  first-fit            3         0        2        1         0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pending at the end with first-fit:\n  default/volcano-train: not scheduled: spec.schedulerName "
                       "is \"volcano\""),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Pod-level requests, not the containers' sum, decide the fit (and no
// warning says otherwise any more).
TEST(RealClusterSpellingsCliTest, PodLevelResources) {
  CliRun r = Cli({"schedule", "-f", kExamples + "pod-level-resources"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
      "scheduling result:\n"
      "  trainer-a        -> gpu-node-1\n"
      "pending (for reasons other than free GPUs; see why pending):\n"
      "  trainer-b\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 1/4 GPUs used\n"
      "\n"
      "why pending:\n"
      "  trainer-b: 0/1 nodes are available: 1 Insufficient cpu.\n"
      "    waiting for room: it needs 6 cpu on one node; when it was considered, the only node big enough was gpu-node-1 (8 in all, 2 free); it is placed when running pods finish (pending is not an error)\n"
      "\n"
      "GPU devices (index on the node):\n"
      "  gpu-node-1: trainer-a [0]\n"
      "\n"
      "summary: 1 node, 2 pods: 1 placed, 1 pending (0 can never fit), 0 rejected\n"
      "  GPUs: 2 requested, 4 capacity, 1 allocated (25%), 3 free\n"
      "  1 pending pod waits for the cluster to change (see why pending)\n");
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace gpusched
