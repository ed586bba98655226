#include "gpusched/model/dra/allocated_devices.h"

#include <atomic>

#include "gpusched/model/dra/allocated_state.h"

namespace gpusched {
namespace {

// One counter for the process: stamps of different ClaimAllocations never
// collide, so a cache that outlives one (or sees a copy) cannot mistake it.
std::atomic<uint64_t> next_pool_stamp{0};

}  // namespace

void ClaimAllocations::Stamp(const AllocationResult& a) {
  for (const DeviceRequestAllocationResult& r : a.results) {
    auto d = pool_stamps_.find(r.driver);
    if (d == pool_stamps_.end()) d = pool_stamps_.try_emplace(r.driver).first;
    const uint64_t stamp = next_pool_stamp.fetch_add(1, std::memory_order_relaxed) + 1;
    d->second[r.pool] = stamp;
    pool_log_.push_back(PoolChange{stamp, r.driver, r.pool});
  }
  if (pool_log_.size() > kMaxPoolLog) {
    const size_t drop = kMaxPoolLog / 2;
    pool_log_.erase(pool_log_.begin(), pool_log_.begin() + static_cast<std::ptrdiff_t>(drop));
    pool_log_begin_ += drop;
  }
}

uint64_t ClaimAllocations::PoolStamp(std::string_view driver, std::string_view pool) const {
  auto d = pool_stamps_.find(driver);
  if (d == pool_stamps_.end()) return 0;
  auto p = d->second.find(pool);
  return p == d->second.end() ? 0 : p->second;
}

// A share id is set only when DRAConsumableCapacity was on at allocation:
// such a result is a share whatever the gate is now.
void ClaimAllocations::Add(const AllocationResult& a) {
  AddAllocatedDevices(a, /*consumable_capacity=*/true, state_);
  Stamp(a);
}

void ClaimAllocations::Remove(const AllocationResult& a) {
  RemoveAllocatedDevices(a, /*consumable_capacity=*/true, state_);
  Stamp(a);
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
