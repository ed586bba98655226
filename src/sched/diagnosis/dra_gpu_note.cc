// DraGpuNote (diagnosis.h): a pod asking nvidia.com/gpu on a cluster whose
// GPUs come through DRA. kube-scheduler v1.35 counts nvidia.com/gpu only as
// the node's allocatable (the device plugin's); a DeviceClass's
// extendedResourceName maps it to DRA devices only with DRAExtendedResource,
// alpha and off in v1.34 and v1.35, beta from v1.36 (pkg/features/
// kube_features.go). NVIDIA's DRA driver publishes `type: gpu` and `type:
// mig` devices (model/dra/device_kinds.h).
#include <set>

#include "gpusched/model/dra/device_kinds.h"
#include "gpusched/sched/diagnosis/diagnosis.h"

namespace gpusched {

std::string DraGpuNote(std::string_view resource, const ClusterState& cluster) {
  if (resource != kResourceGPU) return "";
  const DraObjects& dra = cluster.objects().dra;
  int64_t gpus = 0, migs = 0;
  std::set<std::string> drivers;
  for (const ResourceSlice& sl : dra.slices) {
    for (const Device& d : sl.devices) {
      const DraDeviceKind kind = KindOfDevice(sl.driver, d);
      if (kind == DraDeviceKind::kOther) continue;
      (kind == DraDeviceKind::kGpu ? gpus : migs) += 1;
      drivers.insert(sl.driver);
    }
  }
  if (gpus + migs == 0) return "";
  std::string what;
  if (gpus > 0) what = std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
  if (migs > 0) what += (what.empty() ? "" : ", ") + std::to_string(migs) + (migs == 1 ? " MIG device" : " MIG devices");
  std::string classes;
  const DeviceClass* mapped = nullptr;
  for (const auto& [name, c] : dra.device_classes) {
    classes += (classes.empty() ? "" : ", ") + name;
    if (!mapped && c.extended_resource_name == resource) mapped = &c;
  }
  std::string out = "; the cluster's GPUs are published through DRA instead (" + what +
                    " in ResourceSlices), which kube-scheduler v1.35 does not count as " + std::string(resource) +
                    ": ask for one through a ResourceClaim (spec.resourceClaims naming a ResourceClaimTemplate "
                    "whose request has deviceClassName " +
                    (classes.empty() ? std::string("the driver's DeviceClass") : "one of " + classes) +
                    ", and the container's resources.claims naming it)";
  if (mapped)
    out += "; DeviceClass " + mapped->meta.name + " names " + std::string(resource) +
           " as its extendedResourceName, which serves such requests only with the DRAExtendedResource gate "
           "(alpha and off in v1.35, beta from v1.36; gpusched does not model it yet)";
  return out;
}

}  // namespace gpusched
