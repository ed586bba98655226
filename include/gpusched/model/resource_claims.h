// Dynamic Resource Allocation (resource.k8s.io, GA since v1.34) as far as
// gpusched reads it: the pod's spec.resourceClaims with their API-server
// validation, and the resource.k8s.io objects of the input (ResourceClaim,
// ResourceClaimTemplate, ResourceSlice, DeviceClass), counted and indexed so
// that the scheduler can say what kube-scheduler's DynamicResources plugin
// would (sched/plugins/dynamicresources/).
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
#include <string_view>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// The resource.k8s.io objects of the input (model/dra/), by "namespace/name"
// (classes and slices are cluster-scoped: by name; slices in input order).
struct DraObjects {
  std::map<std::string, ResourceClaim, std::less<>> claims;
  std::map<std::string, ResourceClaimTemplate, std::less<>> templates;
  std::map<std::string, DeviceClass, std::less<>> device_classes;
  std::vector<ResourceSlice> slices;

  bool empty() const { return claims.empty() && templates.empty() && device_classes.empty() && slices.empty(); }
  const DeviceClass* FindClass(std::string_view name) const {
    auto it = device_classes.find(name);
    return it == device_classes.end() ? nullptr : &it->second;
  }
  // "2 ResourceClaims, 1 ResourceClaimTemplate, 3 ResourceSlices (gpu.nvidia.com:
  // 16 devices on 2 nodes), 1 DeviceClass"; "" when empty.
  std::string Summary() const;
  // Adds another input's objects; a name seen before keeps its first definition.
  void Merge(DraObjects&& other);
};

// validatePodResourceClaims (spec.resourceClaims) and, for each container and
// init container, validateResourceClaimNames (resources.claims must name a
// pod claim). `pod_name` is the pod's name for the generated-claim check
// ("" for templates, whose pods get names later).
void ValidatePodResourceClaims(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_RESOURCE_CLAIMS_H_
