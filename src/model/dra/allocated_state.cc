// AddAllocatedDevices and RemoveAllocatedDevices, after v1.35's
// pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go.
#include "gpusched/model/dra/allocated_state.h"

#include "gpusched/model/dra/consumed_capacity.h"

namespace gpusched {

namespace {

// foreachAllocatedDevice: admin access holds nothing ("is not considered as
// allocated"); a share (consumable capacity) is not an exclusive device.
template <typename Dedicated, typename Shared>
void ForEachAllocatedDevice(const AllocationResult& allocation, bool consumable_capacity, Dedicated dedicated,
                            Shared shared) {
  for (const DeviceRequestAllocationResult& r : allocation.results) {
    if (r.admin_access.value_or(false)) continue;
    DeviceId id{r.driver, r.pool, r.device};
    if (consumable_capacity && !r.share_id.empty()) {
      shared(id, r);
      continue;
    }
    dedicated(id);
  }
}

}  // namespace

void AddAllocatedDevices(const AllocationResult& allocation, bool consumable_capacity, AllocatedState& state) {
  ForEachAllocatedDevice(
      allocation, consumable_capacity, [&](const DeviceId& id) { state.allocated_devices.insert(id); },
      [&](const DeviceId& id, const DeviceRequestAllocationResult& r) {
        state.allocated_shared_devices.insert(SharedDeviceId{id, r.share_id});
        if (!r.consumed_capacity.empty()) dra::AddCapacity(state.aggregated_capacity[id], r.consumed_capacity);
      });
}

void RemoveAllocatedDevices(const AllocationResult& allocation, bool consumable_capacity, AllocatedState& state) {
  ForEachAllocatedDevice(
      allocation, consumable_capacity, [&](const DeviceId& id) { state.allocated_devices.erase(id); },
      [&](const DeviceId& id, const DeviceRequestAllocationResult& r) {
        state.allocated_shared_devices.erase(SharedDeviceId{id, r.share_id});
        auto it = state.aggregated_capacity.find(id);
        if (r.consumed_capacity.empty() || it == state.aggregated_capacity.end()) return;
        dra::SubCapacity(it->second, r.consumed_capacity);
        if (dra::CapacityEmpty(it->second)) state.aggregated_capacity.erase(it);
      });
}

}  // namespace gpusched
