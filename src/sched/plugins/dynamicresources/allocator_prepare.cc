// The checks and per-request data before the search (the first part of
// Allocator.Allocate and validateDeviceRequest in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go).
#include <climits>
#include <string>

#include "gpusched/sched/plugins/dynamicresources/allocator_search.h"

namespace gpusched::dra {

namespace {

Status Fail(std::string msg) { return Status::InvalidArgument(std::move(msg)); }

// A request with neither `exactly` nor `firstAvailable` (a future request
// type): read as an exact request without a class, which fails below with
// "missing device class name".
const ExactDeviceRequest kNoExactRequest{};

}  // namespace

std::string ClaimRef(const ResourceClaim& claim) {
  return claim.meta.namespace_.empty() ? claim.meta.name : claim.meta.namespace_ + "/" + claim.meta.name;
}

AllocationSearch::AllocationSearch(const DraFeatures& features, const AllocatedState& allocated,
                                   cel::SelectorCache* cache, const Node& node,
                                   const std::vector<const ResourceClaim*>& claims,
                                   std::shared_ptr<const std::vector<Pool>> pools, AllocatorReuse* reuse)
    : features_(features),
      allocated_(allocated),
      cache_(cache),
      node_(node),
      claims_(claims),
      pools_(std::move(pools)),
      reuse_(reuse),
      constraints_(claims.size()),
      results_(claims.size()) {}

Status AllocationSearch::Prepare(const DeviceClassLookup& classes) {
  for (int ci = 0; ci < static_cast<int>(claims_.size()); ++ci) {
    const ResourceClaim& claim = *claims_[ci];
    const std::string ref = ClaimRef(claim);
    int min_devices = 0;
    for (int ri = 0; ri < static_cast<int>(claim.spec.requests.size()); ++ri) {
      const DeviceRequest& request = claim.spec.requests[ri];
      const bool has_subrequests = !request.first_available.empty();
      // Subrequests with the feature off are an error rather than ignored,
      // "to avoid surprising behavior for users".
      if (!features_.prioritized_list && has_subrequests) {
        return Fail("claim " + ref + ", request " + request.name +
                    ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      // Only the experimental variant checks this ("incubating" ignores capacity requests).
      if (ExperimentalVariant(features_) && !features_.consumable_capacity) {
        if (request.exactly && !request.exactly->capacity_requests.empty()) {
          return Fail("claim " + ref + ", request " + request.name +
                      ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
        }
        for (const ExactDeviceRequest& sub : request.first_available) {
          if (!sub.capacity_requests.empty()) {
            return Fail("claim " + ref + ", subrequest " + sub.name +
                        ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
          }
        }
      }
      if (has_subrequests) {
        // Only a lower bound: which subrequest is used decides the count.
        int min_for_request = INT_MAX;
        // Upstream sets the key's subrequest index only after validating a
        // subrequest, so subrequest i>0 is validated under index i-1 (this
        // matters for the selector-match cache of allocationMode All).
        int key_subrequest = 0;
        for (int si = 0; si < static_cast<int>(request.first_available.size()); ++si) {
          const ExactDeviceRequest& sub = request.first_available[si];
          Result<RequestData> data =
              ValidateRequest(classes, ci, sub, sub.name, &request.name, false, ri, key_subrequest);
          if (!data.ok()) return data.status();
          key_subrequest = si;
          min_for_request = std::min(min_for_request, data->num_devices);
          request_data_[{ci, ri, si}] = std::move(*data);
        }
        min_devices += min_for_request;
      } else {
        const ExactDeviceRequest& exact = request.exactly ? *request.exactly : kNoExactRequest;
        Result<RequestData> data =
            ValidateRequest(classes, ci, exact, request.name, nullptr, exact.admin_access.value_or(false), ri, 0);
        if (!data.ok()) return data.status();
        min_devices += data->num_devices;
        request_data_[{ci, ri, 0}] = std::move(*data);
      }
    }
    // A lower bound only: the search checks the limit again.
    if (min_devices > kAllocationResultsMaxSize) {
      return Fail("claim " + ref + ": number of requested devices " + std::to_string(min_devices) +
                  " exceeds the claim limit of " + std::to_string(kAllocationResultsMaxSize));
    }
    // Constraints are assumed monotonic: once one fails, more devices cannot
    // satisfy it again, so the search stops early.
    for (int i = 0; i < static_cast<int>(claim.spec.constraints.size()); ++i) {
      const DeviceConstraint& c = claim.spec.constraints[i];
      std::set<std::string, std::less<>> names(c.requests.begin(), c.requests.end());
      if (c.match_attribute) {
        constraints_[ci].emplace_back(AttributeConstraint::Kind::kMatch, std::move(names), *c.match_attribute);
      } else if (c.distinct_attribute && ExperimentalVariant(features_)) {
        constraints_[ci].emplace_back(AttributeConstraint::Kind::kDistinct, std::move(names), *c.distinct_attribute);
      } else {
        return Fail("claim " + ref + ", constraint #" + std::to_string(i) +
                    ": empty constraint (unsupported constraint type?)");
      }
    }
  }
  // Selector matches computed while validating are not kept for the
  // search (upstream makes a new deviceMatchesRequest map here).
  device_matches_request_.clear();
  return Status::Ok();
}

Result<RequestData> AllocationSearch::ValidateRequest(const DeviceClassLookup& classes, int claim_index,
                                                      const ExactDeviceRequest& request, const std::string& name,
                                                      const std::string* parent, bool admin_access,
                                                      int request_index, int subrequest_index) {
  const std::string ref = ClaimRef(*claims_[claim_index]);
  RequestData data;
  data.request = &request;
  data.name = name;
  data.has_parent = parent != nullptr;
  if (parent) data.parent = *parent;
  data.admin_access = admin_access;
  for (size_t i = 0; i < request.selectors.size(); ++i) {
    // An empty expression stands for a selector without `cel` (a future
    // selector type).
    if (request.selectors[i].empty()) {
      return Fail("claim " + ref + ", request " + name + ", selector #" + std::to_string(i) +
                  ": CEL expression empty (unsupported selector type?)");
    }
  }
  // adminAccess is a field of exact requests only (subrequests have none).
  if (!features_.admin_access && parent == nullptr && request.admin_access.has_value()) {
    return Fail("claim " + ref + ", request " + name + ": admin access is requested, but the feature is disabled");
  }
  if (request.device_class_name.empty()) {
    return Fail("claim " + ref + ", request " + name + ": missing device class name (unsupported request type?)");
  }
  const DeviceClass* device_class = classes ? classes(request.device_class_name) : nullptr;
  if (device_class == nullptr) {
    // The scheduler's lister answers a missing class with NotFound.
    return Fail("claim " + ref + ", request " + name + ": could not retrieve device class " +
                request.device_class_name + ": deviceclass.resource.k8s.io \"" + request.device_class_name +
                "\" not found");
  }
  data.device_class = device_class;

  const std::string& mode = request.allocation_mode;
  if (mode.empty() || mode == kAllocationModeExactCount) {
    // API defaulting makes "" ExactCount.
    data.num_devices = static_cast<int>(std::min<int64_t>(request.count, INT_MAX));
    return data;
  }
  if (mode != kAllocationModeAll) {
    return Fail("claim " + ref + ", request " + name + ": unsupported count mode " + mode);
  }
  // "All": decided now, from complete and valid pools only.
  const RequestKey key{claim_index, request_index, subrequest_index};
  for (const Pool& pool : *pools_) {
    if (pool.incomplete) {
      return Fail("claim " + ref + ", request " + name + ": asks for all devices, but resource pool " + pool.Id() +
                  " is currently being updated");
    }
    if (pool.invalid) {
      return Fail("claim " + ref + ", request " + name + ": asks for all devices, but resource pool " + pool.Id() +
                  " is currently invalid");
    }
    for (const ResourceSlice* slice : pool.device_slices_targeting_node) {
      for (const Device& device : slice->devices) {
        DeviceRef ref_device{&device, DeviceId{slice->driver, slice->pool.name, device.name}, slice, &pool};
        Result<bool> selectable = IsSelectable(key, data, ref_device);
        if (!selectable.ok()) return selectable.status();
        if (!*selectable) continue;
        if (features_.consumable_capacity) {
          Result<bool> fits = CapacityAllows(data, ref_device);
          if (!fits.ok() || !*fits) continue;  // an undefined capacity skips the device
        }
        data.all_devices.push_back(ref_device);
      }
    }
  }
  data.num_devices = static_cast<int>(data.all_devices.size());
  return data;
}

}  // namespace gpusched::dra
