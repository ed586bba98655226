// The issue's user case end to end (examples/affinity/): a Deployment of 3
// inference replicas with required pod anti-affinity on
// kubernetes.io/hostname, on 2 nodes. kube-scheduler places 2 and leaves the
// third pending with InterPodAffinity's reason (Unschedulable, so
// DefaultPreemption tries and finds no lower-priority victim); `explain`
// names the replica that blocks each node.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "gpusched/cli/cli.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kAffinity = std::string(GPUSCHED_SOURCE_DIR) + "/examples/affinity/";
const std::string kPending = "infer-57f6858th5-cgnfp";
const std::string kMessage =
    "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: "
    "2 No preemption victims found for incoming pod.";

TEST(AffinityCliTest, ThirdReplicaPendsWithKubeSchedulersMessage) {
  CliRun r = Cli({"schedule", "-f", kAffinity, "--policy", "kube-default"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // no "not evaluated yet" warning
  EXPECT_NE(r.out.find("  " + kPending + ": " + kMessage + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("summary: 2 nodes, 3 pods: 2 placed, 1 pending (0 can never fit), 0 rejected"),
            std::string::npos)
      << r.out;
  // The diagnosis names a replica in the way (NameWhatIsInTheWay through
  // InterPodAffinity::ExplainRejection).
  EXPECT_NE(r.out.find("waiting for room: node gpu-node-"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", which this pod's anti-affinity forbids on the same kubernetes.io/hostname; it is placed "
                       "when that pod finishes (pending is not an error)"),
            std::string::npos)
      << r.out;
}

TEST(AffinityCliTest, ExplainNamesTheBlockingReplicaOnEachNode) {
  CliRun r = Cli({"explain", "-f", kAffinity, "--policy", "kube-default", kPending});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  2 failed InterPodAffinity: node(s) didn't match pod anti-affinity rules\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  gpu-node-a        1/4  no        InterPodAffinity         -  node(s) didn't match pod "
                       "anti-affinity rules (node gpu-node-a runs default/infer-57f6858th5-g7dq9, which this pod's "
                       "anti-affinity forbids on the same kubernetes.io/hostname)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  gpu-node-b        1/4  no        InterPodAffinity         -  node(s) didn't match pod "
                       "anti-affinity rules (node gpu-node-b runs default/infer-57f6858th5-qlhmf, which this pod's "
                       "anti-affinity forbids on the same kubernetes.io/hostname)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pending: " + kMessage + "\n"), std::string::npos) << r.out;
}

TEST(AffinityCliTest, JsonReasonsAndDetail) {
  CliRun r = Cli({"schedule", "-f", kAffinity, "--policy", "kube-default", "--explain", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["pending"].size(), 1u);
  const auto& node = j["pending"][0]["explain"]["nodes"][0];
  EXPECT_EQ(node["filter"], "InterPodAffinity");
  EXPECT_EQ(node["code"], "Unschedulable");
  EXPECT_EQ(node["reasons"][0], "node(s) didn't match pod anti-affinity rules");
  EXPECT_EQ(node["detail"], "node gpu-node-a runs default/infer-57f6858th5-g7dq9, which this pod's anti-affinity "
                            "forbids on the same kubernetes.io/hostname");
  // InterPodAffinity runs: it is not among the unimplemented plugins.
  for (const auto& name : j["unimplemented_plugins"]) EXPECT_NE(name, "InterPodAffinity");
}

// A pod without rules of its own, kept off the only node by the running
// pod's required anti-affinity: the diagnosis names that pod (it said "no
// single node has all of its requests free" and "it fits on gpu-node-a now").
TEST(AffinityCliTest, RunningPodsAntiAffinityIsNamedForAPodWithoutRules) {
  const std::string path = ::testing::TempDir() + "/running-anti-affinity.yaml";
  std::ofstream(path) << R"(apiVersion: v1
kind: Node
metadata:
  name: gpu-node-a
  labels: {kubernetes.io/hostname: gpu-node-a}
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  nodeName: gpu-node-a
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels: {team: batch}
        topologyKey: kubernetes.io/hostname
  containers:
  - {name: c, image: pytorch, resources: {limits: {nvidia.com/gpu: "2"}}}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: batch-job, namespace: default, labels: {team: batch}}
spec:
  containers:
  - {name: c, image: pytorch, resources: {limits: {nvidia.com/gpu: "1"}}}
)";
  CliRun r = Cli({"explain", "-f", path, "--policy", "kube-default", "batch-job"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("pending: 0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity "
                       "rules. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  why:              waiting for room: node gpu-node-a runs default/trainer, whose "
                       "anti-affinity forbids this pod on the same kubernetes.io/hostname; it is placed when that "
                       "pod finishes (pending is not an error)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("it fits on gpu-node-a now"), std::string::npos) << r.out;
  // The cached diagnosis of schedule (the same pod's class) says the same.
  CliRun s = Cli({"schedule", "-f", path, "--policy", "kube-default"});
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("waiting for room: node gpu-node-a runs default/trainer, whose anti-affinity forbids this pod"),
            std::string::npos)
      << s.out;
}

}  // namespace
}  // namespace gpusched
