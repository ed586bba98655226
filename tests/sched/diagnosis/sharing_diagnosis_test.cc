// Tests for src/sched/diagnosis/sharing_diagnosis.cc: SharedReplicaNote, the
// note a pod waiting for a time-sliced or MPS replica gets. Labels as GPU
// feature discovery writes them (k8s-device-plugin internal/lm/resource.go:
// nvidia.com/gpu.replicas, -SHARED on the product when the replicas keep the
// name nvidia.com/gpu). Diagnose's use of it is in diagnosis_test.cc.
#include <gtest/gtest.h>

#include <map>

#include "gpusched/sched/diagnosis/diagnosis.h"
#include "../test_util.h"

namespace gpusched {
namespace {

Node Shared(const std::string& name, std::string resource, int64_t replicas_per_gpu, int64_t gpus,
            const std::string& strategy = "time-slicing", bool count_label = true) {
  Node n = testing::GpuNode(name, -1);
  const bool renamed = resource == "nvidia.com/gpu.shared";
  n.meta.labels = {{"nvidia.com/gpu.product", renamed ? "NVIDIA-L4" : "NVIDIA-L4-SHARED"},
                   {"nvidia.com/gpu.replicas", std::to_string(replicas_per_gpu)},
                   {"nvidia.com/gpu.sharing-strategy", strategy}};
  if (count_label) n.meta.labels["nvidia.com/gpu.count"] = std::to_string(gpus);
  n.allocatable[resource] = Quantity::FromInt(replicas_per_gpu * gpus);
  return n;
}

// Binds `pods` pods holding `each` of `resource` on node i.
void Hold(ClusterState& c, size_t i, const std::string& resource, int pods, int64_t each = 1) {
  for (int k = 0; k < pods; ++k) c.Bind(i, testing::ToResources({0, 0, 0, {{resource, each}}}));
}

constexpr const char* kTwo =
    "; it asks for 2 replicas, which give no more compute than one (NVIDIA's device plugin README), and a device "
    "plugin with failRequestsGreaterThanOne set (the default under MPS) has the kubelet refuse the pod at admission "
    "(UnexpectedAdmissionError: maximum request size for shared resources is 1)";

TEST(SharedReplicaNoteTest, Table) {
  struct Case {
    const char* name;
    std::vector<Node> nodes;
    std::vector<std::pair<size_t, int>> held;  // node, pods holding 1 each
    std::string resource;
    int64_t request;
    std::vector<size_t> could;
    std::string want;
  } cases[] = {
      {"whole GPUs: no note", {testing::GpuNode("a", 8)}, {{0, 8}}, "nvidia.com/gpu", 1, {0}, ""},
      {"another resource", {Shared("ts", "nvidia.com/gpu", 4, 4)}, {}, "example.com/fpga", 1, {0}, ""},
      {"one node, all held",
       {Shared("ts", "nvidia.com/gpu", 4, 4)},
       {{0, 16}},
       "nvidia.com/gpu",
       1,
       {0},
       "; these GPUs are shared, not whole: ts has 4 GPUs time-sliced as 4 replicas each, all 16 held by 16 pods, so "
       "it waits for one of those pods to finish"},
      {"renamed replicas, two nodes, some free",
       {Shared("a", "nvidia.com/gpu.shared", 4, 4), Shared("b", "nvidia.com/gpu.shared", 8, 2)},
       {{0, 16}, {1, 15}},
       "nvidia.com/gpu.shared",
       1,
       {0, 1},
       "; these GPUs are shared, not whole: 2 nodes have 6 GPUs time-sliced as 4 or 8 replicas each, 31 of 32 held by "
       "31 pods, so it waits for one of those pods to finish"},
      {"only the nodes that could run it count",
       {Shared("a", "nvidia.com/gpu", 4, 4), Shared("b", "nvidia.com/gpu", 4, 4)},
       {{0, 16}},
       "nvidia.com/gpu",
       1,
       {0},
       "; these GPUs are shared, not whole: a has 4 GPUs time-sliced as 4 replicas each, all 16 held by 16 pods, so "
       "it waits for one of those pods to finish"},
      {"renamed replicas do not answer for nvidia.com/gpu",
       {Shared("a", "nvidia.com/gpu.shared", 4, 4)},
       {},
       "nvidia.com/gpu",
       1,
       {0},
       ""},
      {"MPS, no gpu.count label: replicas over replicas per GPU, and two asked",
       {Shared("m", "nvidia.com/gpu", 10, 2, "mps", false)},
       {{0, 19}},
       "nvidia.com/gpu",
       2,
       {0},
       std::string("; these GPUs are shared, not whole: m has 2 GPUs shared through MPS as 10 replicas each, 19 of 20 "
                   "held by 19 pods, so it waits for one of those pods to finish") +
           kTwo},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster(c.nodes);
    for (auto [i, pods] : c.held) Hold(cluster, i, c.resource == "example.com/fpga" ? "nvidia.com/gpu" : c.resource, pods);
    EXPECT_EQ(SharedReplicaNote(c.resource, c.request, cluster, c.could), c.want);
  }
}

}  // namespace
}  // namespace gpusched
