// API-server validation of the resource.k8s.io objects gpusched reads
// (k8s.io/kubernetes pkg/apis/resource/validation/validation.go, v1.35,
// and the limits of pkg/apis/resource/types.go), with upstream's field
// paths and messages, so that an object the API server would refuse is
// refused here in `kubectl apply`'s words instead of confusing the
// allocator later: a request with neither `exactly` nor `firstAvailable`,
// a count with allocationMode All, a CEL selector that does not compile
// (cel-go's text) or is too expensive, a constraint naming no request, a
// slice with two node selections or a device name that is not a DNS label.
//
// Metadata names are the loader's (io/object_loader.cc). What the model
// cannot tell apart is not checked: a field set to its zero value versus
// left out (`allNodes: false`, `nodeName: ""`), opaque parameters' JSON.
// CEL is compiled with DRAConsumableCapacity's `allowMultipleAllocations`
// declared: a dump holds what the cluster's API server accepted.
#ifndef GPUSCHED_MODEL_DRA_DRA_VALIDATION_H_
#define GPUSCHED_MODEL_DRA_DRA_VALIDATION_H_

#include <string>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/field_error.h"

namespace gpusched {

// validateResourceClaimSpec at `path` ("spec" of a claim, "spec.spec" of a template).
std::vector<FieldError> ValidateResourceClaimSpec(const ResourceClaimSpec& spec, const std::string& path);

// The spec, and the status invariants a stored claim keeps
// (validateResourceClaimStatusUpdate): reservedFor needs an allocation, and
// each allocated device names a request of the claim, a driver, a pool and a
// device.
std::vector<FieldError> ValidateResourceClaim(const ResourceClaim& claim);
std::vector<FieldError> ValidateResourceClaimTemplate(const ResourceClaimTemplate& tmpl);
std::vector<FieldError> ValidateDeviceClass(const DeviceClass& device_class);
std::vector<FieldError> ValidateResourceSlice(const ResourceSlice& slice);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_DRA_VALIDATION_H_
