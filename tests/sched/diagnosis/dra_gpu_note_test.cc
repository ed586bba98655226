// Tests for src/sched/diagnosis/dra_gpu_note.cc: DraGpuNote, what a pod
// asking nvidia.com/gpu is told on a cluster whose GPUs come through DRA.
#include <gtest/gtest.h>

#include <memory>

#include "gpusched/sched/diagnosis/diagnosis.h"
#include "../test_util.h"

namespace gpusched {
namespace {

Device Typed(const std::string& name, const std::string& type) {
  Device d;
  d.name = name;
  d.attributes["type"] = {DeviceAttribute::Kind::kString, 0, false, type};
  return d;
}

std::shared_ptr<ApiObjects> Objects(std::vector<Device> devices, const std::string& extended = "") {
  auto o = std::make_shared<ApiObjects>();
  ResourceSlice s;
  s.driver = "gpu.nvidia.com";
  s.pool = {"n1", 1, 1};
  s.node_name = "n1";
  s.devices = std::move(devices);
  o->dra.slices.push_back(s);
  o->dra.device_classes["gpu.nvidia.com"].meta.name = "gpu.nvidia.com";
  o->dra.device_classes["gpu.nvidia.com"].extended_resource_name = extended;
  o->dra.device_classes["mig.nvidia.com"].meta.name = "mig.nvidia.com";
  return o;
}

TEST(DraGpuNoteTest, Table) {
  const std::string ask =
      ", which kube-scheduler v1.35 does not count as nvidia.com/gpu: ask for one through a ResourceClaim "
      "(spec.resourceClaims naming a ResourceClaimTemplate whose request has deviceClassName one of gpu.nvidia.com, "
      "mig.nvidia.com, and the container's resources.claims naming it)";
  struct Case {
    const char* name;
    std::string resource;
    std::shared_ptr<ApiObjects> objects;
    std::string want;
  } cases[] = {
      {"another resource", "example.com/fpga", Objects({Typed("gpu-0", "gpu")}), ""},
      {"no DRA GPUs", "nvidia.com/gpu", Objects({Typed("nic-0", "nic")}), ""},
      {"GPUs and MIG devices", "nvidia.com/gpu",
       Objects({Typed("gpu-0", "gpu"), Typed("gpu-1", "gpu"), Typed("gpu-2-mig-0", "mig")}),
       "; the cluster's GPUs are published through DRA instead (2 GPUs, 1 MIG device in ResourceSlices)" + ask},
      {"a class that maps nvidia.com/gpu", "nvidia.com/gpu", Objects({Typed("gpu-0", "gpu")}, "nvidia.com/gpu"),
       "; the cluster's GPUs are published through DRA instead (1 GPU in ResourceSlices)" + ask +
           "; DeviceClass gpu.nvidia.com names nvidia.com/gpu as its extendedResourceName, which serves such "
           "requests only with the DRAExtendedResource gate (alpha and off in v1.35, beta from v1.36; gpusched does "
           "not model it yet)"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster({testing::GpuNode("n1", -1)}, c.objects);
    EXPECT_EQ(DraGpuNote(c.resource, cluster), c.want);
  }
}

}  // namespace
}  // namespace gpusched
