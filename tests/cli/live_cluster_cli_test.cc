// The documented way to ask about a live cluster, end to end on
// examples/live-cluster/cluster.json (what `kubectl get nodes,pods,
// deployments,replicasets,statefulsets,jobs,daemonsets,priorityclasses -A -o
// json` prints for a small GPU cluster): its controllers and their running
// pods are counted once, and the answer is the cluster's.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/live-cluster/";
const std::string kDump = kDir + "cluster.json";

const std::string kScheduleOutput =
    "scheduling result:\n"
    "pending (no node had enough free GPUs):\n"
    "  ml/finetune-llama-8mbtk\n"
    "\n"
    "node state after scheduling:\n"
    "  cp-1: 0/0 GPUs used\n"
    "  cpu-1: 0/0 GPUs used\n"
    "  gpu-node-1: 3/4 GPUs used\n"
    "  gpu-node-2: 3/4 GPUs used\n"
    "\n"
    "why pending:\n"
    "  ml/finetune-llama-8mbtk: 0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) had "
    "untolerated taint(s), 3 Insufficient nvidia.com/gpu.\n"
    "    waiting for room, fragmented: when it was considered, 2 nvidia.com/gpu were free across the 2 nodes that "
    "could run it, but at most 1 free on any one node and it needs 2 on one node; placing large pods first (--order "
    "largest-first) or a bin-packing policy avoids this\n"
    "\n"
    "GPU devices (index on the node):\n"
    "  gpu-node-1: ml/embed-corpus-f7rvd [0,1], ml/llm-inference-7c9f8d6b5d-x2k4p [2]\n"
    "  gpu-node-2: ml/embed-corpus-p5mzj [0,1], ml/llm-inference-7c9f8d6b5d-9hq7w [2]\n"
    "\n"
    "already running (spec.nodeName):\n"
    "  kube-system/coredns-668d6bf9bc-5kq2v -> cp-1\n"
    "  kube-system/coredns-668d6bf9bc-w8c7n -> cpu-1\n"
    "  kube-system/kube-apiserver-cp-1 -> cp-1\n"
    "  kube-system/nvidia-device-plugin-2hx9q -> gpu-node-1\n"
    "  kube-system/nvidia-device-plugin-lk4wz -> gpu-node-2\n"
    "  ml/embed-corpus-f7rvd -> gpu-node-1\n"
    "  ml/embed-corpus-p5mzj -> gpu-node-2\n"
    "  ml/llm-inference-7c9f8d6b5d-9hq7w -> gpu-node-2\n"
    "  ml/llm-inference-7c9f8d6b5d-x2k4p -> gpu-node-1\n"
    "\n"
    "summary: 4 nodes, 10 pods: 9 placed, 1 pending (0 can never fit), 0 rejected\n"
    "  GPUs: 8 requested, 8 capacity, 6 allocated (75%), 2 free\n"
    "  the pods request 8 of 8 GPUs, so they could all fit, but free GPUs are fragmented across nodes; try --order "
    "largest-first or a bin-packing policy\n";

TEST(LiveClusterCliTest, ScheduleTheDumpExactOutput) {
  CliRun r = Cli({"schedule", "-f", kDump});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, kScheduleOutput);
  EXPECT_EQ(r.err, "warning: " + kDump +
                       ":2873: Pod/ml/train-resnet-q8w2x: status.phase is Succeeded: a terminated pod holds no "
                       "resources and is not scheduled\n");
}

// The command of the README, through a pipe into the real binary.
TEST(LiveClusterCliTest, FromStandardInputAsPiped) {
  const std::string cmd = std::string(GPUSCHED_BINARY) + " schedule -f - < " + kDump + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(out, kScheduleOutput);
}

TEST(LiveClusterCliTest, ExplainADeployment) {
  CliRun r = Cli({"explain", "-f", kDump, "deployment/llm-inference"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "Deployment/ml/llm-inference (" + kDump +
                ":3241)\n"
                "  2 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; ReplicaSet "
                "llm-inference-7c9f8d6b5d (new): 2 replicas, 2 present, creates 0\n"
                "\n"
                "pods it already had (2):\n"
                "  ml/llm-inference-7c9f8d6b5d-9hq7w  already running on gpu-node-2 (GPUs [2])\n"
                "  ml/llm-inference-7c9f8d6b5d-x2k4p  already running on gpu-node-1 (GPUs [2])\n"
                "pods gpusched created for it (0): none\n");
}

TEST(LiveClusterCliTest, ExplainJobsAndTheDevicePluginDaemonSet) {
  CliRun done = Cli({"explain", "-f", kDump, "job/train-resnet"});
  EXPECT_EQ(done.code, 0);
  EXPECT_EQ(done.out, "Job/ml/train-resnet (" + kDump +
                          ":3829)\n"
                          "  completions 1, parallelism 1: 1 succeeded, 0 active: creates 0 (finished)\n"
                          "\n"
                          "pods it already had (1):\n"
                          "  ml/train-resnet-q8w2x  terminated (Succeeded): holds nothing, not scheduled\n"
                          "pods gpusched created for it (0): none\n");
  CliRun pending = Cli({"explain", "-f", kDump, "finetune-llama"});
  EXPECT_EQ(pending.code, 0);
  EXPECT_EQ(pending.out,
            "Job/ml/finetune-llama (" + kDump +
                ":3723)\n"
                "  completions 1, parallelism 1: 0 succeeded, 1 active: creates 0\n"
                "\n"
                "pods it already had (1):\n"
                "  ml/finetune-llama-8mbtk  pending: 0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient "
                "memory, 1 node(s) had untolerated taint(s), 3 Insufficient nvidia.com/gpu.\n"
                "pods gpusched created for it (0): none\n");
  CliRun ds = Cli({"explain", "-f", kDump, "ds/nvidia-device-plugin"});
  EXPECT_EQ(ds.code, 0);
  EXPECT_EQ(ds.out, "DaemonSet/kube-system/nvidia-device-plugin (" + kDump +
                        ":3953)\n"
                        "  should run on 2 of 4 nodes, present on 2: creates 0\n"
                        "\n"
                        "pods it already had (2):\n"
                        "  kube-system/nvidia-device-plugin-2hx9q  already running on gpu-node-1\n"
                        "  kube-system/nvidia-device-plugin-lk4wz  already running on gpu-node-2\n"
                        "pods gpusched created for it (0): none\n");
  // A pod's own name still explains the pod.
  CliRun pod = Cli({"explain", "-f", kDump, "ml/finetune-llama-8mbtk"});
  EXPECT_EQ(pod.code, 0);
  EXPECT_EQ(pod.out.substr(0, pod.out.find('\n')),
            "pod ml/finetune-llama-8mbtk requests 2 nvidia.com/gpu, 8 cpu, 64Gi memory");
}

TEST(LiveClusterCliTest, PlannedJobAgainstTheLiveCluster) {
  CliRun r = Cli({"schedule", "-f", kDump, "-f", kDir + "new-training-job.yaml"});
  EXPECT_EQ(r.code, 0);
  const std::string head =
      "scheduling result:\n"
      "  ml/eval-sweep-cbjlx -> gpu-node-1\n"
      "  ml/eval-sweep-mplh5 -> gpu-node-2\n"
      "pending (no node had enough free GPUs):\n"
      "  ml/finetune-llama-8mbtk\n";
  EXPECT_EQ(r.out.substr(0, head.size()), head);
  CliRun e = Cli({"explain", "-f", kDump, "-f", kDir + "new-training-job.yaml", "eval-sweep"});
  EXPECT_EQ(e.code, 0);
  EXPECT_EQ(e.out, "Job/ml/eval-sweep (" + kDir +
                       "new-training-job.yaml:4)\n"
                       "  completions 4, parallelism 2: 0 succeeded, 0 active: creates 2\n"
                       "\n"
                       "pods it already had (0): none\n"
                       "pods gpusched created for it (2):\n"
                       "  ml/eval-sweep-cbjlx  placed on gpu-node-1 (GPUs [3])\n"
                       "  ml/eval-sweep-mplh5  placed on gpu-node-2 (GPUs [3])\n");
}

TEST(LiveClusterCliTest, AmbiguousControllerName) {
  // A Deployment and a StatefulSet both named "web".
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/ambiguous.yaml";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  for (const char* kind : {"Deployment", "StatefulSet"})
    fprintf(f,
            "apiVersion: apps/v1\nkind: %s\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
            "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: i}]\n---\n",
            kind);
  fclose(f);
  CliRun r = Cli({"explain", "-f", path, "web"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: \"web\" names several controllers: Deployment/web StatefulSet/web; name one as KIND/NAME or "
            "KIND/NAMESPACE/NAME\n");
  CliRun sts = Cli({"explain", "-f", path, "sts/web"});
  EXPECT_EQ(sts.code, 0);
  EXPECT_EQ(sts.out.substr(0, sts.out.find('\n')), "StatefulSet/web (" + path + ":11)");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpusched
