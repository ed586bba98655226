// Dynamic Resource Allocation (resource.k8s.io, GA since v1.34) as far as
// gpusched reads it: the pod's spec.resourceClaims with their API-server
// validation, and the resource.k8s.io objects of the input (ResourceClaim,
// ResourceClaimTemplate, ResourceSlice, DeviceClass), counted and indexed so
// that the scheduler can say what kube-scheduler's DynamicResources plugin
// would (sched/framework/dynamic_resources_verdict.h). Device allocation itself is not modelled.
//
// Sources: kubernetes pkg/apis/core/validation/validation.go
// (validatePodResourceClaims, validatePodResourceClaim,
// validateResourceClaimNames); k8s.io/api resource/v1/types.go (the object
// shapes); k8s.io/dynamic-resource-allocation resourceclaim/resourceclaim.go
// (Name: a claim from a template is named in status.resourceClaimStatuses).
#ifndef GPUSCHED_MODEL_RESOURCE_CLAIMS_H_
#define GPUSCHED_MODEL_RESOURCE_CLAIMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/object_meta.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// One request of a claim: its name and the device class of each way it can
// be satisfied (exactly: one; firstAvailable: one per subrequest).
struct DeviceRequest {
  std::string name;
  std::vector<std::string> device_classes;
  int64_t count = 1;  // exactly.count (ExactCount); 0 for allocationMode All
};

// A ResourceClaim (spec.devices.requests) or a ResourceClaimTemplate
// (spec.spec.devices.requests).
struct ClaimSpec {
  ObjectMeta meta;
  std::string api_version;
  std::vector<DeviceRequest> requests;
  bool allocated = false;  // status.allocation is set (claims only)
};

struct ResourceSliceInfo {
  std::string name;
  std::string driver;
  std::string node_name;  // "" for slices with a node selector or allNodes
  int64_t devices = 0;
};

// The resource.k8s.io objects of the input, by "namespace/name" (classes
// and slices are cluster-scoped: by name).
struct DraObjects {
  std::map<std::string, ClaimSpec, std::less<>> claims;
  std::map<std::string, ClaimSpec, std::less<>> templates;
  std::set<std::string, std::less<>> device_classes;
  std::vector<ResourceSliceInfo> slices;

  bool empty() const { return claims.empty() && templates.empty() && device_classes.empty() && slices.empty(); }
  // "2 ResourceClaims, 1 ResourceClaimTemplate, 3 ResourceSlices (gpu.nvidia.com:
  // 16 devices on 2 nodes), 1 DeviceClass"; "" when empty.
  std::string Summary() const;
};

// validatePodResourceClaims (spec.resourceClaims) and, for each container and
// init container, validateResourceClaimNames (resources.claims must name a
// pod claim). `pod_name` is the pod's name for the generated-claim check
// ("" for templates, whose pods get names later).
void ValidatePodResourceClaims(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_RESOURCE_CLAIMS_H_
