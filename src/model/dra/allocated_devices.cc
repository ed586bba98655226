#include "gpusched/model/dra/allocated_devices.h"

#include "gpusched/model/dra/allocated_state.h"

namespace gpusched {

// A share id is set only when DRAConsumableCapacity was on at allocation:
// such a result is a share whatever the gate is now.
void ClaimAllocations::Add(const AllocationResult& a) { AddAllocatedDevices(a, /*consumable_capacity=*/true, state_); }

void ClaimAllocations::Remove(const AllocationResult& a) {
  RemoveAllocatedDevices(a, /*consumable_capacity=*/true, state_);
}

void ClaimAllocations::Allocate(const std::string& claim, AllocationResult allocation, const std::string& pod) {
  auto [it, added] = claims_.try_emplace(claim);
  if (added) {
    it->second.allocation = std::move(allocation);
    Add(it->second.allocation);
  }
  if (!pod.empty()) {
    it->second.reserved_for.insert(pod);
    by_pod_[pod].insert(claim);
  }
  ++version_;
}

void ClaimAllocations::Reserve(const std::string& claim, const std::string& pod) {
  auto it = claims_.find(claim);
  if (it == claims_.end() || pod.empty()) return;
  it->second.reserved_for.insert(pod);
  by_pod_[pod].insert(claim);
  ++version_;
}

void ClaimAllocations::Release(const std::string& pod) {
  auto p = by_pod_.find(pod);
  if (p == by_pod_.end()) return;
  for (const std::string& claim : p->second) {
    auto it = claims_.find(claim);
    if (it == claims_.end()) continue;
    it->second.reserved_for.erase(pod);
    if (it->second.reserved_for.empty()) {
      Remove(it->second.allocation);
      claims_.erase(it);
    }
  }
  by_pod_.erase(p);
  ++version_;
}

}  // namespace gpusched
