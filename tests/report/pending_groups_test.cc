#include "gpusched/report/pending_groups.h"

#include <gtest/gtest.h>

#include <sstream>

#include "batch_fixture.h"

namespace gpusched {
namespace {

TEST(PendingGroupsTest, GroupsByKindMessageAndShapeLargestFirst) {
  const testing::ScheduledBatch b = testing::TwentyOneNodes();
  const std::vector<PendingGroup> groups = GroupPending(b.Report());
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].kind, "waiting-for-room");
  EXPECT_EQ(groups[0].shape, "1 nvidia.com/gpu, 1 cpu");
  EXPECT_EQ(groups[0].message, "0/21 nodes are available: 21 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(groups[0].pending.size(), 3u);
  EXPECT_EQ(groups[1].kind, "too-large");
  EXPECT_TRUE(groups[1].forever);
  EXPECT_EQ(groups[1].pending.size(), 2u);
  EXPECT_EQ(groups[2].kind, "no-eligible-node");
  EXPECT_EQ(groups[2].message, "0/21 nodes are available: 21 node(s) didn't match Pod's node affinity/selector.");
}

TEST(PendingGroupsTest, NodeCountsInTheMessageDoNotSplitAGroup) {
  // x and y ask the same; x finds one node short of cpu, y (after q took
  // the cpu left on b) both: the same reasons on a different number of nodes.
  std::vector<Node> nodes = {testing::GpuNode("a", 1, 2000), testing::GpuNode("b", 1, 4000)};
  std::vector<Pod> pods = {testing::GpuPod("p1", 1, 1000), testing::GpuPod("p2", 1, 1000),
                           testing::GpuPod("x", 1, 2000), testing::GpuPod("q", 0, 3000), testing::GpuPod("y", 1, 2000)};
  testing::ScheduledBatch b(nodes, pods);
  ASSERT_EQ(b.result.pending.size(), 2u);
  EXPECT_EQ(b.result.pending[0].message, "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(b.result.pending[1].message, "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient nvidia.com/gpu.");
  const std::vector<PendingGroup> groups = GroupPending(b.Report());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].message, b.result.pending[0].message);  // the first pod's
  std::ostringstream out;
  WritePendingGroups(out, b.Report());
  EXPECT_EQ(out.str(),
            "why pending, by reason (2 pods in 1 group):\n"
            "  2 pods asking 1 nvidia.com/gpu, 2 cpu each: 0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient "
            "nvidia.com/gpu.\n"
            "    (figures as for x, the first; they vary) waiting for room: it needs 1 nvidia.com/gpu on one node; when "
            "it was considered, the nodes big enough were a (1 in all, 0 free), b (1 in all, 0 free); it is placed when "
            "running pods finish (pending is not an error)\n"
            "    pods: x, y\n");
}

TEST(PendingGroupsTest, WaitsForGpus) {
  // Decided by the resource the diagnosis names, not by the FitError's
  // reasons: a node short of cpu too does not make a GPU wait anything else.
  auto pending = [](Diagnosis::Kind kind, std::string resource, std::string message) {
    BatchResult::Pending p{0, std::move(message), {}, std::nullopt};
    p.diagnosis.kind = kind;
    p.diagnosis.resource = std::move(resource);
    return p;
  };
  using K = Diagnosis::Kind;
  struct Case {
    const char* name;
    BatchResult::Pending p;
    bool want;
  } cases[] = {
      {"GPUs", pending(K::kWaitingForRoom, "nvidia.com/gpu", "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."),
       true},
      {"GPU share", pending(K::kFragmented, "nvidia.com/gpu",
                            "0/3 nodes are available: 3 node(s) didn't have enough free GPU share."),
       true},
      {"GPUs where the selector allows",
       pending(K::kTooLarge, "nvidia.com/gpu",
               "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node "
               "affinity/selector."),
       true},
      {"fragmented GPUs, a small node short of cpu too (a live cluster)",
       pending(K::kFragmented, "nvidia.com/gpu",
               "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) had untolerated "
               "taint(s), 3 Insufficient nvidia.com/gpu."),
       true},
      {"MIG slices", pending(K::kNotAdvertised, "nvidia.com/mig-1g.5gb", "0/1 nodes are available: 1 Insufficient nvidia.com/mig-1g.5gb."), true},
      {"waits for cpu",
       pending(K::kWaitingForRoom, "cpu", "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient nvidia.com/gpu."),
       false},
      {"an extended resource", pending(K::kNotAdvertised, "example.com/fpga", "0/1 nodes are available: 1 Insufficient example.com/fpga."), false},
      {"pod count", pending(K::kWaitingForRoom, "", "0/1 nodes are available: 1 Too many pods."), false},
      {"selector", pending(K::kNoEligibleNode, "",
                           "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."),
       false},
      {"no scheduler", pending(K::kNoEligibleNode, "", ""), false},
      {"no nodes", pending(K::kNoNodes, "", "no nodes available to schedule pods"), false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(WaitsForGpus(c.p), c.want);
  }
}

TEST(PendingGroupsTest, FoldNames) {
  EXPECT_EQ(FoldNames({}), "");
  EXPECT_EQ(FoldNames({"a"}), "a");
  EXPECT_EQ(FoldNames({"a", "b", "c", "d", "e", "f"}), "a, b, c, d, e, f");  // never "and 1 more"
  EXPECT_EQ(FoldNames({"a", "b", "c", "d", "e", "f", "g"}), "a, b, c, d, e and 2 more");
  EXPECT_EQ(FoldNames({"a", "b", "c"}, 1), "a and 2 more");
}

TEST(PendingGroupsTest, WritesOneEntryPerGroup) {
  const testing::ScheduledBatch b = testing::TwentyOneNodes();
  std::ostringstream out;
  WritePendingGroups(out, b.Report());
  EXPECT_EQ(out.str(),
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
            "    pod: ml/pinned\n");
}

}  // namespace
}  // namespace gpusched
