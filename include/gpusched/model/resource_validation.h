// The resource checks of pkg/apis/core/validation/validation.go that
// containers, pod overhead, pod-level resources and node status share, with
// upstream's paths and messages, appending to `errs`.
#ifndef GPUSCHED_MODEL_RESOURCE_VALIDATION_H_
#define GPUSCHED_MODEL_RESOURCE_VALIDATION_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/quantity.h"
#include "gpusched/model/resources.h"

namespace gpusched {

// validateResourceName: a qualified name; a name without '/' must be a
// standard resource ("must be a standard resource type or fully qualified").
void ValidateResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs);

// validateContainerResourceName: validateResourceName, then a bare name must
// be a standard container resource and a qualified one native or extended.
void ValidateContainerResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs);

// ValidateResourceQuantityValue: non-negative, and an integer for resources
// that must be whole (IsIntegerResourceName).
void ValidateResourceQuantityValue(std::string_view name, const Quantity& q, const std::string& path,
                                   std::vector<FieldError>& errs);

// validateResourceRequirements at `path` (e.g. "spec.resources"): every name
// through `name_fn`, quantities, requests against limits, hugepages.
using ResourceNameValidator = void (*)(std::string_view name, const std::string& path, std::vector<FieldError>& errs);
void ValidateResourceRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                                      const std::string& path, ResourceNameValidator name_fn,
                                      std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_RESOURCE_VALIDATION_H_
