#include "gpusched/report/table_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gpusched/sched/plugins/filter_chain.h"
#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(TableWriterTest, ExtraSectionsForBoundRefusedAndRejected) {
  ClusterState c({GpuNode("a", 2)});
  std::vector<Pod> pods = {GpuPod("running", 1), GpuPod("stuck", 4), GpuPod("cpu-only", 0)};
  pods[0].node_name = "a";
  pods[1].node_name = "a";
  pods[2].meta.namespace_ = "ml";
  std::vector<const Pod*> ptrs = {&pods[0], &pods[1], &pods[2]};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(ptrs, c, s, QueueOrder::kFifo);
  std::vector<InputError> rejected = {
      {"Pod/default/bad", "x.yaml", 3, "The Pod \"bad\" is invalid: \n* one\n* two"}};
  std::vector<std::string> warnings;
  std::ostringstream out;
  WriteTable(out, RunReport{c, ptrs, r, rejected, warnings, "first-fit", "fifo"});
  EXPECT_EQ(out.str(),
            "scheduling result:\n"
            "  ml/cpu-only      -> a\n"
            "\n"
            "node state after scheduling:\n"
            "  a: 1/2 GPUs used\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  a: running [0]\n"
            "\n"
            "already running (spec.nodeName):\n"
            "  running          -> a\n"
            "\n"
            "cannot run where they are bound:\n"
            "  stuck: Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 4, used: 1, "
            "capacity: 2\n"
            "\n"
            "rejected (invalid input, not scheduled):\n"
            "  x.yaml:3: The Pod \"bad\" is invalid: \n"
            "    * one\n"
            "    * two\n"
            "\n"
            "summary: 1 node, 3 pods: 2 placed, 0 pending (0 can never fit), 2 rejected\n"
            "  GPUs: 5 requested, 2 capacity, 1 allocated (50%), 1 free\n"
            "  every valid pod was placed\n");
}

}  // namespace
}  // namespace gpusched

#include "batch_fixture.h"

namespace gpusched {
namespace {

TEST(TableWriterTest, SummaryFirstAndGroupedPastTheSeedLayout) {
  const testing::ScheduledBatch b = testing::TwentyOneNodes();
  EXPECT_FALSE(UsesSeedLayout(b.Report()));
  std::ostringstream out;
  WriteTable(out, b.Report());
  std::string nodes;
  for (int i = 0; i < 19; ++i) nodes += "  cpu-" + std::to_string(i) + ": 0/0 GPUs used\n";
  EXPECT_EQ(out.str(),
            "summary: 21 nodes, 11 pods: 5 placed, 6 pending (3 can never fit), 0 rejected\n"
            "  GPUs: 16 requested, 4 capacity, 4 allocated (100%), 0 free\n"
            "  3 pending pods can never fit on this cluster as it is (see why pending); the pods that can fit request "
            "7 GPUs but the cluster has 4: no queue order or policy can place them all at once; at least 3 GPUs' worth "
            "of pods must wait for others to finish\n"
            "\n"
            "why pending, by reason (6 pods in 3 groups):\n"
            "  3 pods asking 1 nvidia.com/gpu, 1 cpu each: 0/21 nodes are available: 21 Insufficient nvidia.com/gpu.\n"
            "    waiting for room: it needs 1 nvidia.com/gpu on one node; when it was considered, the nodes big enough "
            "were gpu-a (2 in all, 0 free), gpu-b (2 in all, 0 free); it is placed when running pods finish (pending "
            "is not an error)\n"
            "    pods: train-4, train-5, train-6\n"
            "  2 pods asking 4 nvidia.com/gpu, 1 cpu each: 0/21 nodes are available: 21 Insufficient nvidia.com/gpu.\n"
            "    can never fit: it requests 4 nvidia.com/gpu but the largest node has 2 (4 across all 21 nodes, but a "
            "pod runs on one node and is never split across several); request at most 2 or add a bigger node\n"
            "    pods: big-0, big-1\n"
            "  1 pod asking 1 nvidia.com/gpu, 1 cpu: 0/21 nodes are available: 21 node(s) didn't match Pod's node "
            "affinity/selector.\n"
            "    can never fit: every node is excluded before resources are even compared: 21 nodes not matching its "
            "nodeSelector or node affinity (fix them or label a node)\n"
            "    pod: ml/pinned\n"
            "\n"
            "scheduling result:\n"
            "  train-0          -> gpu-a\n"
            "  train-1          -> gpu-a\n"
            "  train-2          -> gpu-b\n"
            "  train-3          -> gpu-b\n"
            "  web              -> gpu-a\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-a: 2/2 GPUs used\n"
            "  gpu-b: 2/2 GPUs used\n" +
                nodes +
                "\n"
                "GPU devices (index on the node):\n"
                "  gpu-a: train-0 [0], train-1 [1]\n"
                "  gpu-b: train-2 [0], train-3 [1]\n");
}

TEST(TableWriterTest, QuietPrintsTheSummaryAndTheGroupsOnly) {
  const testing::ScheduledBatch big = testing::TwentyOneNodes();
  std::ostringstream full, quiet;
  WriteTable(full, big.Report());
  WriteTable(quiet, big.Report(), TableOptions{true});
  // The same summary and groups as the full table leads with, nothing after.
  const std::string head = full.str().substr(0, full.str().find("\nscheduling result:"));
  EXPECT_EQ(quiet.str(), head);
  EXPECT_EQ(quiet.str().rfind("summary: 21 nodes", 0), 0u);

  // On a cluster small enough for the seed's layout too.
  testing::ScheduledBatch small({testing::GpuNode("a", 1)}, {testing::GpuPod("p", 1), testing::GpuPod("q", 1)});
  ASSERT_TRUE(UsesSeedLayout(small.Report()));
  std::ostringstream q;
  WriteTable(q, small.Report(), TableOptions{true});
  EXPECT_EQ(q.str(),
            "summary: 1 node, 2 pods: 1 placed, 1 pending (0 can never fit), 0 rejected\n"
            "  GPUs: 2 requested, 1 capacity, 1 allocated (100%), 0 free\n"
            "  the pods request 2 GPUs but the cluster has 1: no queue order or policy can place them all at once; at "
            "least 1 GPU's worth of pods must wait for others to finish\n"
            "\n"
            "why pending, by reason (1 pod in 1 group):\n"
            "  1 pod asking 1 nvidia.com/gpu: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n"
            "    waiting for room: it needs 1 nvidia.com/gpu on one node; when it was considered, the only node big "
            "enough was a (1 in all, 0 free); it is placed when running pods finish (pending is not an error)\n"
            "    pod: q\n");
}

TEST(TableWriterTest, SeedLayoutThreshold) {
  std::vector<Node> nodes;
  for (size_t i = 0; i < kSeedLayoutMaxNodes; ++i) nodes.push_back(testing::GpuNode("n" + std::to_string(i), 1));
  std::vector<Pod> pods;
  for (size_t i = 0; i < kSeedLayoutMaxPods; ++i) pods.push_back(testing::GpuPod("p" + std::to_string(i), 0, 10));
  EXPECT_TRUE(UsesSeedLayout(testing::ScheduledBatch(nodes, pods).Report()));
  pods.push_back(testing::GpuPod("one-more", 0, 10));
  EXPECT_FALSE(UsesSeedLayout(testing::ScheduledBatch(nodes, pods).Report()));
  pods.pop_back();
  nodes.push_back(testing::GpuNode("one-more", 1));
  EXPECT_FALSE(UsesSeedLayout(testing::ScheduledBatch(nodes, pods).Report()));
}

// The seed's heading says "no node had enough free GPUs": it lists only the
// pods of which that is true (they wait for GPUs to free up); a pod that can
// never fit, and one not attempted, get headings of their own.
TEST(TableWriterTest, PendingHeadingsSayWhyTruthfully) {
  Pod pinned = testing::GpuPod("pinned", 1);
  pinned.node_selector["zone"] = "x";
  Pod elsewhere = testing::GpuPod("elsewhere", 1);
  elsewhere.scheduler_name = "volcano";
  testing::ScheduledBatch b({testing::GpuNode("a", 1)}, {testing::GpuPod("p", 1), testing::GpuPod("q", 1), pinned,
                                                         testing::GpuPod("huge", 2), elsewhere});
  std::ostringstream out;
  WriteTable(out, b.Report());
  const std::string want =
      "scheduling result:\n"
      "  p                -> a\n"
      "pending (no node had enough free GPUs):\n"
      "  q\n"
      "pending (can never fit on this cluster as it is; see why pending):\n"
      "  pinned\n"
      "  huge\n"
      "pending (for reasons other than free GPUs; see why pending):\n"
      "  elsewhere\n"
      "\n"
      "node state after scheduling:\n"
      "  a: 1/1 GPUs used\n";
  EXPECT_EQ(out.str().substr(0, want.size()), want);

  testing::ScheduledBatch only_other({testing::GpuNode("a", 1)}, {elsewhere});
  std::ostringstream o;
  WriteTable(o, only_other.Report());
  EXPECT_EQ(o.str().rfind("scheduling result:\n"
                          "pending (for reasons other than free GPUs; see why pending):\n"
                          "  elsewhere\n"
                          "\n"
                          "node state after scheduling:\n",
                          0),
            0u)
      << o.str();
}

TEST(TableWriterTest, SummaryCountsGpuSharesInGpus) {
  Pod share = testing::GpuPod("share", 0, 100);
  share.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
  testing::ScheduledBatch b({testing::GpuNode("a", 1)}, {share});
  std::ostringstream out;
  WriteTable(out, b.Report());
  EXPECT_NE(out.str().find("\n  GPUs: 0.5 requested, 1 capacity, 1 allocated (100%), 0 free; 1 of the allocated GPUs "
                           "holds GPU shares, which use 0.5 of it\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace gpusched
