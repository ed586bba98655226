// Which DRA devices are in use, as the structured allocator counts them
// (k8s.io/dynamic-resource-allocation/structured: DeviceID, SharedDeviceID,
// AllocatedState), and the claims that hold them in one run
// (ClaimAllocations): the allocated claims of the input (status.allocation)
// and those the scheduler allocates (DynamicResources' Reserve). A claim
// that no pod reserves any longer is deallocated, as the resourceclaim
// controller does (pkg/controller/resourceclaim/controller.go: a claim
// whose reservedFor became empty loses its allocation).
#ifndef GPUSCHED_MODEL_DRA_ALLOCATED_DEVICES_H_
#define GPUSCHED_MODEL_DRA_ALLOCATED_DEVICES_H_

#include <compare>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/quantity.h"

namespace gpusched {

// structured.DeviceID.
struct DeviceId {
  std::string driver;
  std::string pool;
  std::string device;
  auto operator<=>(const DeviceId&) const = default;
  std::string String() const { return driver + "/" + pool + "/" + device; }
};

// structured.SharedDeviceID: one allocation of a device that allows
// multiple allocations (consumable capacity), told apart by its share id.
struct SharedDeviceId {
  DeviceId device;
  std::string share_id;
  auto operator<=>(const SharedDeviceId&) const = default;
};

// structured.AllocatedState: what the claims allocated before this one hold.
struct AllocatedState {
  std::set<DeviceId> allocated_devices;
  std::set<SharedDeviceId> allocated_shared_devices;
  // Consumable capacity already taken, per device and capacity name.
  std::map<DeviceId, std::map<std::string, Quantity, std::less<>>> aggregated_capacity;
};

class ClaimAllocations {
 public:
  struct Entry {
    AllocationResult allocation;
    std::set<std::string, std::less<>> reserved_for;  // "namespace/name" of the pods
  };

  // The claim "namespace/name"'s allocation, or nullptr.
  const Entry* Find(std::string_view claim) const {
    auto it = claims_.find(claim);
    return it == claims_.end() ? nullptr : &it->second;
  }
  // Records `allocation` for `claim` (replacing none: a claim is allocated once) reserved for `pod`.
  void Allocate(const std::string& claim, AllocationResult allocation, const std::string& pod);
  // Adds `pod` to an allocated claim's reservedFor.
  void Reserve(const std::string& claim, const std::string& pod);
  // The pod ended or left its node: its reservations go, and each claim
  // left without any is deallocated (its devices are free again).
  void Release(const std::string& pod);

  // The devices the allocated claims hold (admin-access results excluded:
  // they do not make a device unavailable, allocator.go's AllocatedState).
  const AllocatedState& state() const { return state_; }
  size_t size() const { return claims_.size(); }
  bool empty() const { return claims_.empty(); }
  // Bumped by every change: a cache of allocator answers keys on it.
  uint64_t version() const { return version_; }
  // A stamp of the devices that allocations hold in pool `pool` of
  // `driver`: every allocation or deallocation with a result there draws a
  // new one from a counter shared by every ClaimAllocations of the process
  // (a copy keeps its stamps with its holdings), and 0 means none ever
  // changed there. So equal stamps mean equal holdings in that pool, which
  // is all a cache of per-node allocator answers needs to know
  // (DynamicResources memoizes each node's answer against its pools' stamps).
  uint64_t PoolStamp(std::string_view driver, std::string_view pool) const;
  // Each stamp drawn, with its pool, in order (stamps rise along it): such
  // a cache catches up from the entry it read last instead of asking every
  // node's pools. Only the latest entries are held: pool_log()[0] is entry
  // number pool_log_begin() of the whole history. A cache that finds the
  // entry before its position holding the stamp it read there (stamps are
  // unique to the process) is reading the same history, a copy's included.
  struct PoolChange {
    uint64_t stamp = 0;
    std::string driver;
    std::string pool;
  };
  const std::deque<PoolChange>& pool_log() const { return pool_log_; }
  uint64_t pool_log_begin() const { return pool_log_begin_; }
  // Entries held at most (then the older half is dropped).
  static constexpr size_t kMaxPoolLog = 1 << 16;
  const std::map<std::string, Entry, std::less<>>& claims() const { return claims_; }

 private:
  void Add(const AllocationResult& a);
  void Remove(const AllocationResult& a);
  void Stamp(const AllocationResult& a);
  std::map<std::string, Entry, std::less<>> claims_;
  // driver -> pool -> stamp (PoolStamp).
  std::map<std::string, std::map<std::string, uint64_t, std::less<>>, std::less<>> pool_stamps_;
  std::deque<PoolChange> pool_log_;
  uint64_t pool_log_begin_ = 0;
  std::map<std::string, std::set<std::string>, std::less<>> by_pod_;
  AllocatedState state_;
  uint64_t version_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_ALLOCATED_DEVICES_H_
