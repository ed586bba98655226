// Consumable capacity (DRAConsumableCapacity), after v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/consumable_capacity.go:
// what a request consumes of each capacity of a device (its request, or the
// requestPolicy's default, or the whole capacity; rounded up to the
// policy's range step or next valid value) and whether the device still
// has it.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_CONSUMABLE_CAPACITY_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_CONSUMABLE_CAPACITY_H_

#include <map>
#include <optional>
#include <string>

#include "gpusched/model/dra/consumed_capacity.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/quantity.h"
#include "gpusched/util/status.h"

namespace gpusched::dra {

// ConsumedCapacity, AddCapacity, SubCapacity, CapacityEmpty: model/dra/consumed_capacity.h.
using CapacityRequests = std::map<std::string, Quantity, std::less<>>;
using DeviceCapacities = std::map<std::string, DeviceCapacity, std::less<>>;



// calculateConsumedCapacity: `requested` may be nullptr (no request for it).
Quantity CalculateConsumedCapacity(const Quantity* requested, const DeviceCapacity& capacity);

// violatesPolicy: a value the policy does not allow (above the range's max,
// off its steps, or not one of the valid values; the default is always allowed).
bool ViolatesPolicy(const Quantity& value, const std::optional<CapacityRequestPolicy>& policy);

// CmpRequestOverCapacity: true when consuming what `requests` asks of every
// capacity of the device keeps each within its requestPolicy and, added to
// what is consumed already (`consumed`: by claims allocated before;
// `allocating`: by this allocation so far), within its value. The error
// "some requested capacity has not been defined" when the request names a
// capacity the device lacks (the allocator then skips the device).
Result<bool> CmpRequestOverCapacity(const ConsumedCapacity& consumed, const CapacityRequests& requests,
                                    const DeviceCapacities& capacity, const ConsumedCapacity& allocating);

// GetConsumedCapacityFromRequest: what an allocation of the device consumes, per capacity.
ConsumedCapacity GetConsumedCapacityFromRequest(const CapacityRequests& requests, const DeviceCapacities& capacity);

}  // namespace gpusched::dra

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_CONSUMABLE_CAPACITY_H_
