// The backtracking search (allocateOne, allocateDevice in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go):
// claims in order, their requests in order, for each required device the
// devices of the pools in order; the first full solution wins.
#include <string>

#include "gpusched/sched/plugins/dynamicresources/allocator_search.h"

namespace gpusched::dra {

namespace {

bool Tolerates(const DeviceToleration& t, const DeviceTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return t.op == "Exists";
}

// taintPreventsAllocation: only NoSchedule and NoExecute taints count
// (others, "None" included, are ignored); each must be tolerated.
bool TaintPreventsAllocation(const Device& device, const std::vector<DeviceToleration>& tolerations) {
  for (const DeviceTaint& taint : device.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    bool tolerated = false;
    for (const DeviceToleration& t : tolerations) {
      if (Tolerates(t, taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return true;
  }
  return false;
}

}  // namespace

Result<bool> AllocationSearch::Run() {
  const Outcome o = AllocateOne(Position{}, false);
  switch (o) {
    case Outcome::kFound: return true;
    case Outcome::kNotFound: return false;
    // Upstream returns its sentinel error as is when the limit stops the
    // first claim (a claim boundary turns it into "not found" otherwise).
    case Outcome::kMaxSizeExceeded: return Status::InvalidArgument("allocation max size exceeded");
    case Outcome::kError: return error_;
  }
  return false;
}

AllocationSearch::Outcome AllocationSearch::AllocateOne(Position r, bool allocating_subrequest) {
  ++allocate_one_calls_;
  // Where upstream checks its context (allocateOne's first step).
  if (step_limit_ > 0 && allocate_one_calls_ > step_limit_) {
    error_ = Status::NotFound("filter operation aborted: more than " + std::to_string(step_limit_) +
                              " allocation steps");
    return Outcome::kError;
  }
  if (r.claim >= static_cast<int>(claims_.size())) return Outcome::kFound;
  const ResourceClaim& claim = *claims_[r.claim];
  if (r.request >= static_cast<int>(claim.spec.requests.size())) {
    // Done with the claim. Hitting the result limit in a later claim is not
    // final: another allocation of this claim may let a later one pick a
    // subrequest with fewer devices.
    const Outcome o = AllocateOne(Position{r.claim + 1, 0, 0, 0}, false);
    return o == Outcome::kMaxSizeExceeded ? Outcome::kNotFound : o;
  }

  const RequestKey key{r.claim, r.request, r.subrequest};
  RequestData& data = request_data_.at(key);

  // firstAvailable: one subrequest after the other, the first that works
  // is kept. Entered at the request's first device, not again while one
  // subrequest is being allocated.
  if (!allocating_subrequest && data.has_parent) {
    bool all_exceeded = true;
    for (int s = 0;; ++s) {
      if (!request_data_.contains({r.claim, r.request, s})) {
        // Every subrequest hit the result limit: no solution builds on the
        // previous request's devices either.
        return all_exceeded ? Outcome::kMaxSizeExceeded : Outcome::kNotFound;
      }
      r.subrequest = s;
      const Outcome o = AllocateOne(r, true);
      if (o == Outcome::kMaxSizeExceeded) continue;  // a later subrequest may need fewer devices
      all_exceeded = false;
      if (o == Outcome::kError) return o;
      if (o == Outcome::kFound) {
        data.selected_subrequest = s;
        return Outcome::kFound;
      }
    }
  }
  return AllocateFrom(r, allocating_subrequest, data);
}

AllocationSearch::Outcome AllocationSearch::AllocateFrom(const Position& r, bool allocating_subrequest,
                                                         RequestData& data) {
  const bool all = data.request->AllocateAll();
  // "All" needs at least one device.
  if (all && data.all_devices.empty()) return Outcome::kNotFound;
  if (r.device >= data.num_devices) {
    // Done with the request (or subrequest): on to the next request.
    return AllocateOne(Position{r.claim, r.request + 1, 0, 0}, false);
  }
  // Would this request's remaining devices pass the claim's result limit?
  const int after = static_cast<int>(results_[r.claim].size()) + data.num_devices - r.device;
  if (after > kAllocationResultsMaxSize) return Outcome::kMaxSizeExceeded;

  if (all) {
    // The devices are known: each must be usable, in any order.
    std::function<void()> undo;
    Result<bool> taken = AllocateDevice(r, data.all_devices[r.device], true, undo);
    if (!taken.ok()) {
      error_ = taken.status();
      return Outcome::kError;
    }
    if (!*taken) return Outcome::kNotFound;
    // Upstream continues with subrequest index 0 here (deviceIndices
    // without subRequestIndex), whichever subrequest this is.
    const Outcome o = AllocateOne(Position{r.claim, r.request, 0, r.device + 1}, allocating_subrequest);
    if (o != Outcome::kFound) undo();
    return o;
  }

  const RequestKey key{r.claim, r.request, r.subrequest};
  for (const Pool& pool : *pools_) {
    // Never from an invalid or incomplete pool; other pools may do.
    if (pool.incomplete || pool.invalid) continue;
    for (const ResourceSlice* slice : pool.device_slices_targeting_node) {
      for (const Device& device : slice->devices) {
        const DeviceRef ref{&device, DeviceId{pool.driver, pool.pool, device.name}, slice, &pool};
        // "In use" is cheap: checked first. Admin access may use a device
        // that is in use, but not twice in one claim.
        if (data.admin_access && AllocatingForClaim(ref.id, r.claim)) continue;
        if (!data.admin_access && DeviceInUse(ref.id)) continue;
        Result<bool> selectable = IsSelectable(key, data, ref);
        if (!selectable.ok()) {
          error_ = selectable.status();
          return Outcome::kError;
        }
        if (!*selectable) continue;
        if (features_.consumable_capacity) {
          Result<bool> fits = CapacityAllows(data, ref);
          if (!fits.ok() || !*fits) continue;
        }
        std::function<void()> undo;
        Result<bool> taken = AllocateDevice(r, ref, false, undo);
        if (!taken.ok()) {
          error_ = taken.status();
          return Outcome::kError;
        }
        if (!*taken) continue;  // in use, or a constraint says no
        const Outcome o = AllocateOne(Position{r.claim, r.request, r.subrequest, r.device + 1}, allocating_subrequest);
        if (o == Outcome::kFound) return o;
        undo();
        // The result limit goes up to where other subrequests are tried.
        if (o != Outcome::kNotFound) return o;
      }
    }
  }
  return Outcome::kNotFound;
}

Result<bool> AllocationSearch::AllocateDevice(const Position& r, const DeviceRef& device, bool must,
                                              std::function<void()>& undo) {
  const ResourceClaim& claim = *claims_[r.claim];
  const RequestData& data = request_data_.at({r.claim, r.request, r.subrequest});
  const Device& d = *device.device;
  const bool multi = features_.consumable_capacity && d.allow_multiple_allocations;
  if (!multi && data.admin_access && AllocatingForClaim(device.id, r.claim)) return false;
  if (!data.admin_access && DeviceInUse(device.id)) return false;
  // Devices drawing on counters need DRAPartitionableDevices.
  if (!features_.partitionable_devices && !d.consumes_counters.empty()) return false;
  // A shared device whose capacity is taken already had its counters counted.
  const bool skip_counters = multi && DeviceCapacityInUse(device.id);
  if (!skip_counters && !d.consumes_counters.empty() && !CheckAvailableCounters(device)) return false;

  const std::string base = data.has_parent ? data.parent : data.name;
  const std::string sub = data.has_parent ? data.name : "";
  // Upstream does not give back the counters taken above when a taint or a
  // constraint rejects the device; neither does this port.
  if (features_.device_taints && TaintPreventsAllocation(d, data.request->tolerations)) return false;
  auto& constraints = constraints_[r.claim];
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].Add(base, sub, d, device.id.driver)) continue;
    if (must) {
      // A claim whose constraint rules out one of "all" its devices makes
      // no sense: an error.
      return Status::InvalidArgument("claim " + ClaimRef(claim) + ", request " + data.name + ": cannot add device " +
                                     device.id.String() + " because a claim constraint would not be satisfied");
    }
    for (size_t e = 0; e < i; ++e) constraints[e].Remove(base, sub);
    return false;
  }

  auto& claims_of_device = allocating_devices_[device.id];
  if (!multi) claims_of_device.insert(r.claim);

  DeviceResult result;
  if (features_.consumable_capacity) {
    // Checked before; upstream leaves the constraints and the in-use mark
    // as they are should it fail now.
    Result<bool> fits = CapacityAllows(data, device);
    if (!fits.ok() || !*fits) return false;
    if (multi) {
      result.consumed_capacity = GetConsumedCapacityFromRequest(data.request->capacity_requests, d.capacity);
      result.share_id = NewShareId(device.id);
      result.has_share_id = true;
      AddCapacity(allocating_capacity_[device.id], result.consumed_capacity);
    }
  }
  result.request = data.name;
  result.parent = data.parent;
  result.has_parent = data.has_parent;
  result.ref = device;
  if (data.admin_access) result.admin_access = true;
  const size_t previous = results_[r.claim].size();
  results_[r.claim].push_back(std::move(result));

  undo = [this, r, device, base, sub, multi, previous] {
    for (AttributeConstraint& c : constraints_[r.claim]) c.Remove(base, sub);
    allocating_devices_[device.id].erase(r.claim);
    DeviceResult& mine = results_[r.claim][previous];
    if (multi) {
      if (!mine.consumed_capacity.empty()) {
        auto it = allocating_capacity_.find(device.id);
        if (it != allocating_capacity_.end()) {
          SubCapacity(it->second, mine.consumed_capacity);
          if (CapacityEmpty(it->second)) allocating_capacity_.erase(it);
        }
      }
      new_shares_.erase(SharedDeviceId{device.id, mine.share_id});
    } else if (features_.partitionable_devices && !device.device->consumes_counters.empty()) {
      DeallocateCounters(device);
    }
    results_[r.claim].resize(previous);
  };
  return true;
}

}  // namespace gpusched::dra
