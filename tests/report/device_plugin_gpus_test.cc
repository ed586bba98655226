// Tests for src/report/device_plugin_gpus.cc: the summary's MIG devices
// (as GPU fractions: memory slices over the model's, model/mig_profiles.h)
// and time-sliced/MPS GPUs apart from their replicas. Labels as GPU feature
// discovery writes them (k8s-device-plugin internal/lm/resource.go).
#include "gpusched/report/device_plugin_gpus.h"

#include <gtest/gtest.h>

#include <map>

#include "../sched/test_util.h"

namespace gpusched {
namespace {

Node Labelled(const std::string& name, std::map<std::string, std::string, std::less<>> labels,
              std::vector<std::pair<std::string, int64_t>> resources) {
  Node n = testing::GpuNode(name, -1);
  n.meta.labels = std::move(labels);
  for (auto& [r, count] : resources) n.allocatable[r] = Quantity::FromInt(count);
  return n;
}

struct Held {
  size_t node;
  std::string resource;
  int pods;
  int64_t each = 1;
};

std::vector<std::string> Lines(const std::vector<Node>& nodes, const std::vector<Held>& held) {
  ClusterState c(nodes);
  for (const Held& h : held)
    for (int k = 0; k < h.pods; ++k) c.Bind(h.node, testing::ToResources({0, 0, 0, {{h.resource, h.each}}}));
  return DevicePluginGpuLines(CountDevicePluginGpus(c));
}

TEST(DevicePluginGpusTest, Table) {
  const Node mixed = Labelled("a100-80", {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"}},
                              {{"nvidia.com/mig-1g.10gb", 7}, {"nvidia.com/mig-3g.40gb", 2}});
  const Node single = Labelled("a100-40-single",
                               {{"nvidia.com/mig.strategy", "single"},
                                {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"},
                                {"nvidia.com/gpu.count", "14"}},
                               {{"nvidia.com/gpu", 14}});
  const Node a30 = Labelled("a30", {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A30"}},
                            {{"nvidia.com/mig-2g.12gb", 2}});
  const Node bare = Labelled("bare", {}, {{"nvidia.com/mig-1g.10gb", 7}});
  const Node ts = Labelled("ts", {{"nvidia.com/gpu.product", "Tesla-T4-SHARED"}, {"nvidia.com/gpu.replicas", "4"},
                                  {"nvidia.com/gpu.count", "4"}, {"nvidia.com/gpu.sharing-strategy", "time-slicing"}},
                           {{"nvidia.com/gpu", 16}});
  const Node renamed = Labelled("ts-renamed", {{"nvidia.com/gpu.product", "Tesla-T4"}, {"nvidia.com/gpu.replicas", "4"},
                                               {"nvidia.com/gpu.count", "4"}},
                                {{"nvidia.com/gpu.shared", 16}});
  const Node mps = Labelled("mps", {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB-SHARED"},
                                    {"nvidia.com/gpu.replicas", "10"}, {"nvidia.com/gpu.sharing-strategy", "mps"}},
                            {{"nvidia.com/gpu", 20}});
  const std::string refuse =
      " more than 1 time-sliced replica: a device plugin with failRequestsGreaterThanOne set (the default under MPS) has the "
      "kubelet refuse ";
  struct Case {
    const char* name;
    std::vector<Node> nodes;
    std::vector<Held> held;
    std::vector<std::string> want;
  } cases[] = {
      {"whole GPUs only: no lines", {testing::GpuNode("a", 8)}, {{0, "nvidia.com/gpu", 3}}, {}},
      {"mixed: 7 x 1/8 + 2 x 4/8 of an A100 80GB",
       {mixed},
       {{0, "nvidia.com/mig-3g.40gb", 1}, {0, "nvidia.com/mig-1g.10gb", 1}},
       {"MIG devices through the device plugin: 9 on 1 node (1.875 GPUs), 2 held (0.625 GPUs)"}},
      {"A30: memory slices are quarters",
       {a30},
       {},
       {"MIG devices through the device plugin: 2 on 1 node (1 GPU), 0 held"}},
      {"single: nvidia.com/gpu is 1g.5gb devices, and the pods on them are told",
       {single, mixed},
       {{0, "nvidia.com/gpu", 3}},
       {"MIG devices through the device plugin: 23 on 2 nodes (3.625 GPUs), 3 held (0.375 GPUs)",
        "MIG single strategy: 14 MIG devices advertised as nvidia.com/gpu, counted above as GPUs by kube-scheduler and "
        "kubectl; 3 pods asking nvidia.com/gpu run there on one 1g.5gb MIG device (0.125 GPUs) per GPU asked, not a whole GPU"}},
      {"single nodes of two profiles: the profile is not named",
       {single, Labelled("a100-40-single-2g",
                         {{"nvidia.com/mig.strategy", "single"},
                          {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-2g.10gb"}},
                         {{"nvidia.com/gpu", 6}})},
       {{1, "nvidia.com/gpu", 1}},
       {"MIG devices through the device plugin: 20 on 2 nodes (3.25 GPUs), 1 held (0.25 GPUs)",
        "MIG single strategy: 20 MIG devices advertised as nvidia.com/gpu, counted above as GPUs by kube-scheduler and "
        "kubectl; 1 pod asking nvidia.com/gpu runs there on a MIG device per GPU asked, not a whole GPU"}},
      {"no product label: counted, not sized",
       {bare, mixed},
       {},
       {"MIG devices through the device plugin: 16 on 2 nodes (9 of them sized: 1.875 GPUs), 0 held; 7 of unknown size (no "
        "nvidia.com/gpu.product label of a MIG-capable GPU gpusched knows)"}},
      {"time-slicing under both names, one pod holding two",
       {ts, renamed},
       {{0, "nvidia.com/gpu", 14}, {0, "nvidia.com/gpu", 1, 2}, {1, "nvidia.com/gpu.shared", 10}},
       {"time-slicing: 8 GPUs on 2 nodes, shared as 32 time-sliced replicas, 26 held by 25 pods; 16 of the GPU "
        "capacity above are replicas, not physical GPUs",
        "1 placed pod holds" + refuse + "it at admission (UnexpectedAdmissionError: maximum request size for shared "
        "resources is 1)"}},
      {"MPS apart from time-slicing; no gpu.count: replicas over replicas per GPU",
       {renamed, mps},
       {{1, "nvidia.com/gpu", 5}},
       {"time-slicing: 4 GPUs on 1 node, shared as 16 time-sliced replicas, 0 held by 0 pods",
        "MPS: 2 GPUs on 1 node, shared as 20 MPS replicas, 5 held by 5 pods; 20 of the GPU capacity above are "
        "replicas, not physical GPUs"}},
      {"hostile replicas label: no overflow, at least one GPU",
       {Labelled("huge", {{"nvidia.com/gpu.product", "Tesla-T4-SHARED"}, {"nvidia.com/gpu.replicas", "9223372036854775807"}},
                 {{"nvidia.com/gpu", 16}})},
       {},
       {"time-slicing: 1 GPU on 1 node, shared as 16 time-sliced replicas, 0 held by 0 pods; 16 of the GPU capacity "
        "above are replicas, not physical GPUs"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Lines(c.nodes, c.held), c.want);
  }
}

// The node-state lines' part: held over advertised, and whether the node's
// nvidia.com/gpu count is not whole GPUs (the line then shows this instead).
TEST(DevicePluginGpusTest, NodeState) {
  const Node mixed = Labelled("a100-80", {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"}},
                              {{"nvidia.com/mig-1g.10gb", 7}, {"nvidia.com/mig-3g.40gb", 2}});
  const Node single = Labelled("single", {{"nvidia.com/mig.strategy", "single"},
                                          {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"}},
                               {{"nvidia.com/gpu", 14}});
  const Node ts = Labelled("ts", {{"nvidia.com/gpu.product", "Tesla-T4-SHARED"}, {"nvidia.com/gpu.replicas", "4"},
                                  {"nvidia.com/gpu.count", "4"}},
                           {{"nvidia.com/gpu", 16}});
  const Node renamed = Labelled("ts-renamed", {{"nvidia.com/gpu.product", "Tesla-T4"}, {"nvidia.com/gpu.replicas", "4"},
                                               {"nvidia.com/gpu.count", "2"}, {"nvidia.com/gpu.sharing-strategy", "mps"}},
                                {{"nvidia.com/gpu.shared", 8}, {"nvidia.com/gpu", 2}});
  ClusterState c({mixed, single, ts, renamed, testing::GpuNode("plain", 8)});
  c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/mig-3g.40gb", 1}}}));
  c.Bind(1, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 3}}}));
  c.Bind(2, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 2}}}));
  struct Case {
    size_t node;
    std::string want;
    bool not_whole;
  } cases[] = {
      {0, "1/9 MIG devices held", false},
      {1, "3/14 MIG devices held", true},
      {2, "2/16 time-sliced replicas of 4 GPUs held", true},
      {3, "0/8 MPS replicas of 2 GPUs held", false},
      {4, "", false},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.node);
    bool not_whole = !k.not_whole;
    EXPECT_EQ(NodeDevicePluginState(c, k.node, &not_whole), k.want);
    EXPECT_EQ(not_whole, k.not_whole);
  }
}

}  // namespace
}  // namespace gpusched
