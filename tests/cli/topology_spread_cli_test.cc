// `gpusched schedule` on examples/topology-spread (the README's "Spreading
// replicas" section): a Deployment whose zone spread constraint (maxSkew 1,
// DoNotSchedule) leaves the replicas that would break the skew pending with
// kube-scheduler's message, and Deployment replicas behind a Service spread
// by the system default constraints. Exact output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

std::vector<std::string> Args(const std::string& workload) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/topology-spread/";
  return {"schedule", "-f", dir + "cluster.yaml", "-f", dir + workload, "--policy", "kube-default"};
}

TEST(TopologySpreadCliTest, ZoneSpreadHoldsTheReplicaThatWouldBreakTheSkew) {
  CliRun r = Cli(Args("inference.yaml"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string why =
      ": 0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match pod topology spread "
      "constraints. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n"
      "    waiting: its requests are free on some node, but placing it there breaks a rule that counts the pods "
      "already running (its topologySpreadConstraints or pod affinity: see the message above); it is placed when "
      "those pods change\n";
  EXPECT_EQ(r.out,
            "scheduling result:\n"
            "  serving/llm-inference-nz7rhjqthn-qbd8g -> gpu-a2\n"
            "pending (for reasons other than free GPUs; see why pending):\n"
            "  serving/llm-inference-nz7rhjqthn-gv9bc\n"
            "  serving/llm-inference-nz7rhjqthn-c6jzq\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-a1: 0/8 GPUs used\n"
            "  gpu-a2: 2/8 GPUs used\n"
            "  gpu-b1: 8/8 GPUs used\n"
            "\n"
            "why pending:\n"
            "  serving/llm-inference-nz7rhjqthn-gv9bc" + why +
            "  serving/llm-inference-nz7rhjqthn-c6jzq" + why +
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-a2: serving/llm-inference-nz7rhjqthn-qbd8g [0,1]\n"
            "  gpu-b1: training/train-0 [0,1,2,3,4,5,6,7]\n"
            "\n"
            "already running (spec.nodeName):\n"
            "  training/train-0 -> gpu-b1\n"
            "\n"
            "summary: 3 nodes, 4 pods: 2 placed, 2 pending (0 can never fit), 0 rejected\n"
            "  GPUs: 14 requested, 24 capacity, 10 allocated (41%), 14 free\n"
            "  2 pending pods wait for the cluster to change (see why pending)\n");
  // No warning that the constraints are not evaluated.
  EXPECT_EQ(r.err.find("not evaluated"), std::string::npos) << r.err;
}

TEST(TopologySpreadCliTest, SystemDefaultsSpreadReplicasBehindAService) {
  CliRun r = Cli(Args("embedding.yaml"));
  ASSERT_EQ(r.code, 0) << r.err;
  // Hand-checked against scoring.go: the first replica ties on every node
  // (raw 6 = maxSkew-1 of both default constraints), the second goes where
  // no replica is (gpu-b1 now scores 9: 1 pod on its host and in its zone),
  // the third to the empty host, and the fourth to us-east-1b, the zone
  // with fewer replicas (raw 9 against 10).
  EXPECT_EQ(r.out,
            "scheduling result:\n"
            "  serving/embedding-8wnrbkql7g-hvp9p -> gpu-b1\n"
            "  serving/embedding-8wnrbkql7g-7gmdl -> gpu-a2\n"
            "  serving/embedding-8wnrbkql7g-4pv2z -> gpu-a1\n"
            "  serving/embedding-8wnrbkql7g-rbs6t -> gpu-b1\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-a1: 0/8 GPUs used\n"
            "  gpu-a2: 0/8 GPUs used\n"
            "  gpu-b1: 8/8 GPUs used\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-b1: training/train-0 [0,1,2,3,4,5,6,7]\n"
            "\n"
            "already running (spec.nodeName):\n"
            "  training/train-0 -> gpu-b1\n"
            "\n"
            "summary: 3 nodes, 5 pods: 5 placed, 0 pending (0 can never fit), 0 rejected\n"
            "  GPUs: 8 requested, 24 capacity, 8 allocated (33%), 16 free\n"
            "  every pod was placed\n");
}

// explain says, node by node, what PodTopologySpread compared: the node's
// zone count, the least-loaded zone's, and the skew placing the pod makes.
TEST(TopologySpreadCliTest, ExplainGivesEachDomainsCount) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/topology-spread/";
  CliRun r = Cli({"explain", "-f", dir + "cluster.yaml", "-f", dir + "inference.yaml", "--policy", "kube-default",
                  "serving/llm-inference-nz7rhjqthn-gv9bc"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string why =
      "no        PodTopologySpread        -  node(s) didn't match pod topology spread constraints "
      "(topology.kubernetes.io/zone=us-east-1a holds 1 matching pod and the least-loaded topology.kubernetes.io/zone "
      "0: placing this pod there makes the skew 2, above maxSkew 1)\n";
  EXPECT_NE(r.out.find("  gpu-a1        0/8  " + why), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  gpu-a2        2/8  " + why), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpusched
