// What the search asks of one device: does it match the request (class and
// request selectors, per-device node selection), is it in use, does its
// capacity or its pool's counters still allow it (isSelectable,
// selectorsMatch, CmpRequestOverCapacity, checkAvailableCounters,
// deallocateCountersForDevice in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go).
#include <cstdio>
#include <string>

#include "gpusched/sched/plugins/dynamicresources/allocator_search.h"

namespace gpusched::dra {

Result<bool> AllocationSearch::IsSelectable(const RequestKey& key, const RequestData& data, const DeviceRef& device) {
  // Devices with binding conditions need DRADeviceBindingConditions.
  if (!features_.device_binding_conditions && !device.device->binding_conditions.empty()) return false;
  const auto cache_key = std::make_pair(device.id, key);
  if (auto it = device_matches_request_.find(cache_key); it != device_matches_request_.end()) return it->second;

  if (data.device_class != nullptr) {
    Result<bool> match = SelectorsMatch(std::get<0>(key), device, data.device_class, data.device_class->selectors);
    if (!match.ok()) return match.status();
    if (!*match) return device_matches_request_[cache_key] = false;
  }
  Result<bool> match = SelectorsMatch(std::get<0>(key), device, nullptr, data.request->selectors);
  if (!match.ok()) return match.status();
  if (!*match) return device_matches_request_[cache_key] = false;

  if (device.slice->per_device_node_selection &&
      !NodeMatches(node_, device.device->node_name, device.device->all_nodes, device.device->node_selector)) {
    return device_matches_request_[cache_key] = false;
  }
  return device_matches_request_[cache_key] = true;
}

Result<bool> AllocationSearch::SelectorsMatch(int claim_index, const DeviceRef& device,
                                              const DeviceClass* device_class,
                                              const std::vector<std::string>& selectors) {
  // The errors name the class for a class's selectors, else the claim.
  auto where = [&](size_t i) {
    return (device_class ? "class " + device_class->meta.name : "claim " + ClaimRef(*claims_[claim_index])) +
           ": selector #" + std::to_string(i) + ": ";
  };
  for (size_t i = 0; i < selectors.size(); ++i) {
    // A kept result: the expression compiled then (with the same options),
    // and evaluating it again would give the same.
    const Result<bool>* kept = reuse_ ? reuse_->FindMatch(device.device, selectors[i]) : nullptr;
    Result<bool> matches = kept ? *kept : Result<bool>(false);
    if (kept == nullptr) {
      if (cache_ == nullptr) return Status::InvalidArgument(where(i) + "CEL compile error: no CEL selector cache");
      Result<cel::DeviceSelector> selector = cache_->Get(selectors[i]);
      if (!selector.ok()) {
        // A stored expression from a newer API server, after a downgrade.
        return Status::InvalidArgument(where(i) + "CEL compile error: " + selector.status().message());
      }
      matches = selector->Matches(device.id.driver, *device.device);
      if (reuse_) reuse_->KeepMatch(device.device, selectors[i], matches);
    }
    if (!matches.ok()) return Status::InvalidArgument(where(i) + "CEL runtime error: " + matches.status().message());
    if (!*matches) return false;
  }
  return true;
}

Result<bool> AllocationSearch::CapacityAllows(const RequestData& data, const DeviceRef& device) const {
  static const ConsumedCapacity kNone;
  auto consumed = allocated_.aggregated_capacity.find(device.id);
  auto allocating = allocating_capacity_.find(device.id);
  return CmpRequestOverCapacity(consumed == allocated_.aggregated_capacity.end() ? kNone : consumed->second,
                                data.request->capacity_requests, device.device->capacity,
                                allocating == allocating_capacity_.end() ? kNone : allocating->second);
}

bool AllocationSearch::CheckAvailableCounters(const DeviceRef& device) {
  const Pool& pool = *device.pool;
  auto available_it = available_counters_.find(pool.pool);
  if (available_it == available_counters_.end()) {
    // The pool's counters less what the devices allocated before this
    // Allocate call draw (wherever their slices point). Keyed by pool name
    // as upstream.
    CounterSets available;
    for (const auto& [name, set] : pool.counter_sets) {
      auto& counters = available[name];
      for (const auto& [counter, q] : set->counters) counters.emplace(counter, q);
    }
    for (const auto* slices : {&pool.device_slices_targeting_node, &pool.device_slices_not_targeting_node}) {
      for (const ResourceSlice* slice : *slices) {
        for (const Device& d : slice->devices) {
          if (!allocated_.allocated_devices.contains(DeviceId{slice->driver, slice->pool.name, d.name})) continue;
          for (const DeviceCounterConsumption& c : d.consumes_counters) {
            auto set = available.find(c.counter_set);
            if (set == available.end()) continue;
            for (const auto& [counter, q] : c.counters) {
              auto it = set->second.find(counter);
              // May go negative: then nothing is available.
              if (it != set->second.end()) it->second.Sub(q);
            }
          }
        }
      }
    }
    available_it = available_counters_.emplace(pool.pool, std::move(available)).first;
  }

  CounterSets& consumed = consumed_counters_[pool.pool];
  for (const DeviceCounterConsumption& c : device.device->consumes_counters) {
    auto& set = consumed[c.counter_set];
    for (const auto& [counter, q] : c.counters) {
      auto [it, inserted] = set.emplace(counter, q);
      if (!inserted) it->second.Add(q);
    }
  }
  for (const auto& [set_name, counters] : available_it->second) {
    auto consumed_set = consumed.find(set_name);
    for (const auto& [counter, available] : counters) {
      Quantity used;
      if (consumed_set != consumed.end()) {
        if (auto it = consumed_set->second.find(counter); it != consumed_set->second.end()) used = it->second;
      }
      if (available < used) {
        DeallocateCounters(device);
        return false;
      }
    }
  }
  return true;
}

void AllocationSearch::DeallocateCounters(const DeviceRef& device) {
  CounterSets& consumed = consumed_counters_[device.pool->pool];
  for (const DeviceCounterConsumption& c : device.device->consumes_counters) {
    auto& set = consumed[c.counter_set];
    for (const auto& [counter, q] : c.counters) {
      auto [it, inserted] = set.emplace(counter, Quantity());
      it->second.Sub(q);
    }
  }
}

bool AllocationSearch::DeviceInUse(const DeviceId& id) const {
  if (allocated_.allocated_devices.contains(id)) return true;
  auto it = allocating_devices_.find(id);
  return it != allocating_devices_.end() && !it->second.empty();
}

bool AllocationSearch::AllocatingForClaim(const DeviceId& id, int claim) const {
  auto it = allocating_devices_.find(id);
  return it != allocating_devices_.end() && it->second.contains(claim);
}

bool AllocationSearch::DeviceCapacityInUse(const DeviceId& id) const {
  return allocated_.aggregated_capacity.contains(id) || allocating_capacity_.contains(id);
}

// Upstream draws a random UUID; here the first UUID-shaped id, in a fixed
// sequence, that no allocated share of the device (AllocatedState) nor a
// share picked in this search uses: deterministic and unique per device,
// which is what SharedDeviceID needs.
std::string AllocationSearch::NewShareId(const DeviceId& id) {
  for (unsigned long long n = 1;; ++n) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012llx", n);
    SharedDeviceId shared{id, buf};
    if (allocated_.allocated_shared_devices.contains(shared) || new_shares_.contains(shared)) continue;
    new_shares_.insert(shared);
    return buf;
  }
}

}  // namespace gpusched::dra
