#include "gpusched/model/dra/allocated_devices.h"

namespace gpusched {

void ClaimAllocations::Add(const AllocationResult& a) {
  for (const DeviceRequestAllocationResult& r : a.results) {
    if (r.admin_access.value_or(false)) continue;
    DeviceId id{r.driver, r.pool, r.device};
    if (!r.share_id.empty()) {
      state_.allocated_shared_devices.insert({id, r.share_id});
      auto& cap = state_.aggregated_capacity[id];
      for (const auto& [name, q] : r.consumed_capacity) cap[name].Add(q);
    } else {
      state_.allocated_devices.insert(std::move(id));
    }
  }
}

void ClaimAllocations::Remove(const AllocationResult& a) {
  for (const DeviceRequestAllocationResult& r : a.results) {
    if (r.admin_access.value_or(false)) continue;
    DeviceId id{r.driver, r.pool, r.device};
    if (!r.share_id.empty()) {
      state_.allocated_shared_devices.erase({id, r.share_id});
      auto it = state_.aggregated_capacity.find(id);
      if (it == state_.aggregated_capacity.end()) continue;
      for (const auto& [name, q] : r.consumed_capacity) it->second[name].Sub(q);
    } else {
      state_.allocated_devices.erase(id);
    }
  }
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
