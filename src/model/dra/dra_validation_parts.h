// The field checks the DRA validators share (pkg/apis/resource/validation/
// validation.go): driver, pool, device and request names, qualified
// attribute names, CEL selectors, tolerations, taints, binding conditions.
// Each appends upstream's field errors to `errs`. Private to model/dra/.
#ifndef GPUSCHED_SRC_MODEL_DRA_DRA_VALIDATION_PARTS_H_
#define GPUSCHED_SRC_MODEL_DRA_DRA_VALIDATION_PARTS_H_

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/field_error.h"

namespace gpusched::dra_validation {

// pkg/apis/resource/types.go.
inline constexpr size_t kDeviceRequestsMaxSize = 32;
inline constexpr size_t kDeviceConstraintsMaxSize = 32;
inline constexpr size_t kDeviceConfigMaxSize = 32;
inline constexpr size_t kDeviceSelectorsMaxSize = 32;
inline constexpr size_t kFirstAvailableDeviceRequestMaxSize = 8;
inline constexpr size_t kCELSelectorExpressionMaxLength = 10 * 1024;
inline constexpr size_t kPoolNameMaxLength = 253;
inline constexpr size_t kDriverNameMaxLength = 63;
inline constexpr size_t kDeviceMaxIDLength = 32;
inline constexpr size_t kDeviceAttributeMaxValueLength = 64;
inline constexpr size_t kResourceSliceMaxDevices = 128;
inline constexpr size_t kResourceSliceMaxDevicesWithAdvancedFeatures = 64;
inline constexpr size_t kResourceSliceMaxCounterSets = 8;
inline constexpr size_t kResourceSliceMaxCountersPerCounterSet = 32;
inline constexpr size_t kResourceSliceMaxDeviceCounterConsumptionsPerDevice = 2;
inline constexpr size_t kResourceSliceMaxAttributesAndCapacitiesPerDevice = 32;
inline constexpr size_t kDeviceTaintsMaxLength = 16;
inline constexpr size_t kBindingConditionsMaxSize = 4;
inline constexpr size_t kAllocationResultsMaxSize = 32;
inline constexpr size_t kResourceClaimReservedForMaxSize = 256;

using Errors = std::vector<FieldError>;

std::string Index(const std::string& path, size_t i);  // path[i]
std::string Key(const std::string& path, std::string_view key);  // path[key]

// validation.go's validateSlice: more than `max` items is one TooMany and
// nothing else (DOS protection); otherwise validate(item, "path[i]", errs)
// for each. Returns whether the items were validated.
template <typename T, typename Validate>
bool ValidateSlice(const std::vector<T>& items, size_t max, const std::string& path, Validate validate,
                   Errors& errs) {
  if (items.size() > max) {
    errs.push_back(FieldError::TooMany(path, static_cast<int64_t>(items.size()), static_cast<int64_t>(max)));
    return false;
  }
  for (size_t i = 0; i < items.size(); ++i) validate(items[i], Index(path, i), errs);
  return true;
}

// validateSet: validateSlice, then a Duplicate at "path[i]" for each item
// whose key(item) (a string) an earlier item has.
template <typename T, typename Validate, typename KeyOf>
void ValidateSet(const std::vector<T>& items, size_t max, const std::string& path, Validate validate, KeyOf key,
                 Errors& errs) {
  if (!ValidateSlice(items, max, path, validate, errs)) return;
  std::set<std::string, std::less<>> seen;
  for (size_t i = 0; i < items.size(); ++i)
    if (const std::string& k = key(items[i]); !seen.insert(k).second) errs.push_back(FieldError::Duplicate(Index(path, i), k));
}

// validateDriverName (core's ValidateCSIDriverName).
void ValidateDriverName(std::string_view name, const std::string& path, Errors& errs);
void ValidatePoolName(std::string_view name, const std::string& path, Errors& errs);
// Device, request and counter names are DNS labels; class names DNS subdomains.
void ValidateDNSLabel(std::string_view name, const std::string& path, Errors& errs);
void ValidateDNSSubdomain(std::string_view name, const std::string& path, Errors& errs);
// An attribute or capacity name: "id" or "domain/id".
void ValidateQualifiedName(std::string_view name, const std::string& path, Errors& errs);
// matchAttribute / distinctAttribute: "domain/id".
void ValidateFullyQualifiedName(std::string_view name, const std::string& path, Errors& errs);
// selectors[i].cel.expression of a request or class, at `path` (the selectors list).
void ValidateSelectors(const std::vector<std::string>& expressions, const std::string& path, Errors& errs);
void ValidateDeviceToleration(const DeviceToleration& t, const std::string& path, Errors& errs);
void ValidateDeviceTaint(const DeviceTaint& t, const std::string& path, Errors& errs);
// bindingConditions / bindingFailureConditions of a device or an allocation result at `path`.
void ValidateBindingConditions(const std::vector<std::string>& conditions,
                               const std::vector<std::string>& failure_conditions, const std::string& path,
                               Errors& errs);
// config[i].opaque (a class's or a claim's; the parameters are not kept).
void ValidateOpaqueConfig(const DeviceConfiguration& config, const std::string& path, Errors& errs);

}  // namespace gpusched::dra_validation

#endif  // GPUSCHED_SRC_MODEL_DRA_DRA_VALIDATION_PARTS_H_
