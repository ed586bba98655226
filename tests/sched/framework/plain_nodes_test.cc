// PlainNodes (src/sched/framework/plain_nodes.cc): which nodes are plain, and
// for which pods a plain node meeting the index's need settles the chain.
#include "gpusched/sched/framework/plain_nodes.h"

#include <gtest/gtest.h>

#include <string>

#include "../test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace plain_nodes_test {

using testing::GpuNode;
using testing::GpuPod;

TEST(PlainNodesTest, NotCordonedNorTaintedNoScheduleOrNoExecute) {
  Node cordoned = GpuNode("a", 1), no_schedule = GpuNode("b", 1), prefer = GpuNode("c", 1),
       no_execute = GpuNode("d", 1);
  cordoned.unschedulable = true;
  no_schedule.taints.push_back({"k", "", "NoSchedule"});
  prefer.taints.push_back({"k", "", "PreferNoSchedule"});
  no_execute.taints.push_back({"k", "", "NoExecute"});
  ClusterState c({cordoned, no_schedule, prefer, no_execute});
  PlainNodes plain;
  plain.Sync(c);
  EXPECT_FALSE(plain.plain(0));
  EXPECT_FALSE(plain.plain(1));
  EXPECT_TRUE(plain.plain(2));
  EXPECT_FALSE(plain.plain(3));
  c.AddNode(GpuNode("e", 1));
  plain.Sync(c);
  EXPECT_TRUE(plain.plain(4));
  // Another cluster starts over.
  ClusterState other({cordoned});
  plain.Sync(other);
  EXPECT_FALSE(plain.plain(0));
}

TEST(PlainNodesTest, DecidesForPodsTheIndexSettles) {
  const ChainTraits all{true, true, true, true};
  Pod selector = GpuPod("s", 1), named = GpuPod("n", 1), extended = GpuPod("x", 0, 100), share = GpuPod("sh", 0, 100),
      model = GpuPod("m", 0, 100), pair = GpuPod("pp", 0, 100);
  selector.node_selector["zone"] = "a";
  named.node_name = "a";
  extended.containers[0].requests["example.com/foo"] = Quantity::FromInt(1);
  share.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
  model.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
  model.meta.annotations["alibabacloud.com/gpu-card-model"] = "A100";
  pair.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
  pair.meta.annotations["alibabacloud.com/gpu-count"] = "2";
  const Pod whole = GpuPod("w", 2);
  struct Case {
    const char* name;
    ChainTraits chain;
    const Pod* pod;
    bool want;
  };
  const Case cases[] = {
      {"whole GPUs", all, &whole, true},
      {"a share on one device", all, &share, true},
      {"a nodeSelector", all, &selector, false},
      {"a nodeName", all, &named, false},
      {"an extended resource", all, &extended, false},
      {"a GPU model", all, &model, false},
      {"a share on two devices", all, &pair, false},
      {"whole GPUs, nvidia.com/gpu not checked", {true, true, false, true}, &whole, false},
      {"a filter declares nothing", {false, true, true, true}, &whole, false},
      {"no fit filter", {true, false, false, true}, &whole, false},
  };
  for (const Case& c : cases) EXPECT_EQ(PlainNodes::Decides(c.chain, PodInfo::Make(*c.pod, 0)), c.want) << c.name;
}

}  // namespace plain_nodes_test
}  // namespace gpusched
