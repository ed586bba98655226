// Tests for src/model/hami.cc. Source: HAMi pkg/device/nvidia/device.go
// (GenerateResourceRequests reads nvidia.com/gpu, gpumem, gpumem-percentage,
// gpucores from limits, else requests) and examples/nvidia/default_use.yaml.
#include "gpusched/model/hami.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod HamiPod(ResourceList limits, ResourceList requests = {}) {
  Pod p;
  p.meta.name = "gpu-pod";
  p.containers.push_back(Container{"c", "img", std::move(requests), std::move(limits), "", {}});
  return p;
}

ResourceList L(std::vector<std::pair<std::string, std::string>> kv) {
  ResourceList l;
  for (auto& [k, v] : kv) l.emplace(k, *Quantity::Parse(v));
  return l;
}

TEST(HamiTest, ResourceNames) {
  EXPECT_TRUE(IsHamiResource("nvidia.com/gpumem"));
  EXPECT_TRUE(IsHamiResource("nvidia.com/gpumem-percentage"));
  EXPECT_TRUE(IsHamiResource("nvidia.com/gpucores"));
  EXPECT_TRUE(IsHamiResource("nvidia.com/priority"));
  EXPECT_FALSE(IsHamiResource("nvidia.com/gpu"));
  EXPECT_FALSE(IsHamiResource("nvidia.com/mig-1g.10gb"));
}

TEST(HamiTest, ResourcesOfAPod) {
  // HAMi's examples/nvidia/default_use.yaml.
  EXPECT_EQ(HamiResourcesOf(HamiPod(L({{"nvidia.com/gpu", "1"}, {"nvidia.com/gpumem", "3000"},
                                       {"nvidia.com/gpucores", "30"}}))),
            (std::vector<std::string>{"nvidia.com/gpu: 1", "nvidia.com/gpucores: 30", "nvidia.com/gpumem: 3000"}));
  // Requests when there is no limit.
  EXPECT_EQ(HamiResourcesOf(HamiPod({}, L({{"nvidia.com/gpumem-percentage", "50"}}))),
            (std::vector<std::string>{"nvidia.com/gpumem-percentage: 50"}));
  // A plain whole-GPU pod is not HAMi's.
  EXPECT_TRUE(HamiResourcesOf(HamiPod(L({{"nvidia.com/gpu", "2"}}))).empty());
}

TEST(HamiTest, Node) {
  Node n;
  n.meta.name = "v100";
  n.has_allocatable = true;
  n.allocatable["nvidia.com/gpu"] = *Quantity::Parse("20");
  EXPECT_FALSE(IsHamiNode(n));
  n.meta.annotations["hami.io/node-nvidia-register"] = "GPU-1,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:";
  EXPECT_TRUE(IsHamiNode(n));
  EXPECT_EQ(HamiNodeNote(n),
            "carries HAMi's device registry (hami.io/node-nvidia-register), so its nvidia.com/gpu (20) counts HAMi "
            "vGPUs, not devices; gpusched does not model HAMi: pods that ask for hami-scheduler or HAMi's resources "
            "stay pending, and other pods see the vGPU count as whole GPUs");
}

}  // namespace
}  // namespace gpusched
