// What the claims allocated so far hold, as kube-scheduler's DynamicResources
// plugin gathers it for the allocator (v1.35's
// pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go,
// foreachAllocatedDevice and allocatedDevices.addDevices/removeDevices):
// each result of an allocation is a device held exclusively, unless it was
// allocated with admin access (then it holds nothing), or, with
// DRAConsumableCapacity, it has a share id (then it is one share of the
// device, and its consumed capacity adds to the device's).
#ifndef GPUSCHED_MODEL_DRA_ALLOCATED_STATE_H_
#define GPUSCHED_MODEL_DRA_ALLOCATED_STATE_H_

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/allocated_devices.h"

namespace gpusched {

// Adds what `allocation` holds to `state`. `consumable_capacity`: the
// DRAConsumableCapacity gate (off: share ids are ignored and every
// non-admin result is an exclusive device).
void AddAllocatedDevices(const AllocationResult& allocation, bool consumable_capacity, AllocatedState& state);

// Takes it away again (a claim deallocated or deleted): the device ids and
// share ids are removed, the consumed capacity subtracted (a device whose
// consumed capacity is all zero then is forgotten).
void RemoveAllocatedDevices(const AllocationResult& allocation, bool consumable_capacity, AllocatedState& state);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_ALLOCATED_STATE_H_
