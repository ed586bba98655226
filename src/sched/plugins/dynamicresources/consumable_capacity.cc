// Consumable capacity, after v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/consumable_capacity.go
// and structured/schedulerapi/types.go (ConsumedCapacity).
#include "gpusched/sched/plugins/dynamicresources/consumable_capacity.h"

#include <string>

namespace gpusched::dra {

namespace {

// roundUpRange: below min gives min; with a step, min plus the next whole
// number of steps (whole units, as upstream's Value()), as a BinarySI quantity.
Quantity RoundUpRange(const Quantity& requested, const CapacityRequestPolicy::Range& range) {
  if (requested < range.min) return range.min;
  if (!range.step) return requested;
  const int64_t step = range.step->Value();
  const int64_t min = range.min.Value();
  if (step == 0) return requested;  // upstream divides by zero (API validation forbids a zero step)
  const int64_t added = requested.Value() - min;
  int64_t n = added / step;
  if (added % step != 0) ++n;
  return Quantity::FromInt(min + step * n, Quantity::Format::kBinarySI);
}

Quantity RoundUpValidValues(const Quantity& requested, const std::vector<Quantity>& valid) {
  for (const Quantity& v : valid) {
    if (requested <= v) return v;
  }
  return requested;
}

bool ViolatesValidRange(const Quantity& value, const CapacityRequestPolicy::Range& range) {
  if (range.max && value > *range.max) return true;
  if (range.step) {
    const int64_t step = range.step->Value();
    if (step != 0 && (value.Value() - range.min.Value()) % step != 0) return true;
  }
  return false;
}

const Quantity* Requested(const CapacityRequests& requests, const std::string& name) {
  auto it = requests.find(name);
  return it == requests.end() ? nullptr : &it->second;
}

}  // namespace

bool ViolatesPolicy(const Quantity& value, const std::optional<CapacityRequestPolicy>& policy) {
  if (!policy) return false;
  // Upstream compares the default with Go's == on resource.Quantity (the
  // representation); equal values are taken as equal here.
  if (policy->default_value && value == *policy->default_value) return false;
  if (policy->valid_range) return ViolatesValidRange(value, *policy->valid_range);
  if (!policy->valid_values.empty()) {
    for (const Quantity& v : policy->valid_values) {
      if (value == v) return false;
    }
    return true;
  }
  return false;
}

Quantity CalculateConsumedCapacity(const Quantity* requested, const DeviceCapacity& capacity) {
  const auto& policy = capacity.request_policy;
  if (requested == nullptr) {
    // fillEmptyRequest: the policy's default, else the whole capacity.
    return policy && policy->default_value ? *policy->default_value : capacity.value;
  }
  if (!policy) return *requested;
  if (policy->valid_range) return RoundUpRange(*requested, *policy->valid_range);
  if (!policy->valid_values.empty()) return RoundUpValidValues(*requested, policy->valid_values);
  return *requested;
}

Result<bool> CmpRequestOverCapacity(const ConsumedCapacity& consumed, const CapacityRequests& requests,
                                    const DeviceCapacities& capacity, const ConsumedCapacity& allocating) {
  for (const auto& [name, q] : requests) {
    if (!capacity.contains(name)) return Status::InvalidArgument("some requested capacity has not been defined");
  }
  for (const auto& [name, cap] : capacity) {
    const Quantity use = CalculateConsumedCapacity(Requested(requests, name), cap);
    if (ViolatesPolicy(use, cap.request_policy)) return false;
    Quantity total = use;
    if (auto it = consumed.find(name); it != consumed.end()) total.Add(it->second);
    if (auto it = allocating.find(name); it != allocating.end()) total.Add(it->second);
    if (total > cap.value) return false;
  }
  return true;
}

ConsumedCapacity GetConsumedCapacityFromRequest(const CapacityRequests& requests, const DeviceCapacities& capacity) {
  ConsumedCapacity out;
  for (const auto& [name, cap] : capacity) out.emplace(name, CalculateConsumedCapacity(Requested(requests, name), cap));
  return out;
}

}  // namespace gpusched::dra
