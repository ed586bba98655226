// One Allocator::Allocate call's state and its backtracking search (the
// `allocator` struct of v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go):
// per request (or firstAvailable subrequest) what to allocate, per claim its
// constraints, the devices and capacity and counters taken so far, and the
// devices picked per claim.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_SEARCH_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_SEARCH_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/model/cel/device_selector.h"
#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/plugins/dynamicresources/allocator.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_constraints.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_pools.h"
#include "gpusched/sched/plugins/dynamicresources/consumable_capacity.h"
#include "gpusched/util/status.h"

namespace gpusched::dra {

// Whether upstream's NewAllocator picks its "experimental" implementation:
// the only one supporting DRAConsumableCapacity and
// DRADeviceBindingConditions. Otherwise ("incubating" for v1.35's default
// gates) capacity requests are not looked at, a distinctAttribute constraint
// is an unknown one, and bindsToNode does not restrict the node selector.
inline bool ExperimentalVariant(const DraFeatures& f) {
  return f.consumable_capacity || f.device_binding_conditions;
}

// resourceapi.AllocationResultsMaxSize.
inline constexpr int kAllocationResultsMaxSize = 32;

// klog.KObj: "<namespace>/<name>", or "<name>" without a namespace.
std::string ClaimRef(const ResourceClaim& claim);

// One device of a gathered pool.
struct DeviceRef {
  const Device* device = nullptr;
  DeviceId id;
  const ResourceSlice* slice = nullptr;
  const Pool* pool = nullptr;
};

// requestData: a request without subrequests, or one subrequest.
struct RequestData {
  const ExactDeviceRequest* request = nullptr;  // never null once validated
  std::string name;                             // the request's, or the subrequest's
  std::string parent;                           // the request's name for a subrequest, else ""
  bool admin_access = false;                    // subrequests never have it
  const DeviceClass* device_class = nullptr;
  int num_devices = 0;
  int selected_subrequest = 0;  // on subrequest 0's entry: the one that was allocated
  std::vector<DeviceRef> all_devices;  // allocationMode All: the devices, decided up front

  bool has_parent = false;
  // "<request>" or "<request>/<subrequest>".
  std::string FullName() const { return has_parent ? parent + "/" + name : name; }
};

// internalDeviceResult.
struct DeviceResult {
  std::string request;  // request or subrequest name
  std::string parent;   // for a subrequest, its request's name
  bool has_parent = false;
  DeviceRef ref;
  std::string share_id;  // set for a device that allows multiple allocations
  bool has_share_id = false;
  ConsumedCapacity consumed_capacity;
  std::optional<bool> admin_access;

  std::string FullName() const { return has_parent ? parent + "/" + request : request; }
};

class AllocationSearch {
 public:
  AllocationSearch(const DraFeatures& features, const AllocatedState& allocated, cel::SelectorCache* cache,
                   const Node& node, const std::vector<const ResourceClaim*>& claims,
                   std::shared_ptr<const std::vector<Pool>> pools, AllocatorReuse* reuse = nullptr);

  // The checks and the per-request data before the search (the first part
  // of Allocate): an error aborts the allocation.
  Status Prepare(const DeviceClassLookup& classes);

  // Runs the search. true: every claim got its devices (Results()).
  Result<bool> Run();

  const std::vector<std::vector<DeviceResult>>& Results() const { return results_; }
  const RequestData& Request(int claim, int request, int subrequest) const {
    return request_data_.at({claim, request, subrequest});
  }
  const std::vector<Pool>& pools() const { return *pools_; }
  // Allocator::SetStepLimit (0: none).
  void set_step_limit(int64_t steps) { step_limit_ = steps; }
  // How many times AllocateOne (upstream's allocateOne) ran.
  int64_t allocate_one_calls() const { return allocate_one_calls_; }

 private:
  using RequestKey = std::tuple<int, int, int>;  // claim, request, subrequest
  struct Position {
    int claim = 0;
    int request = 0;
    int subrequest = 0;
    int device = 0;
  };
  enum class Outcome { kFound, kNotFound, kMaxSizeExceeded, kError };

  Result<RequestData> ValidateRequest(const DeviceClassLookup& classes, int claim_index,
                                      const ExactDeviceRequest& request, const std::string& name,
                                      const std::string* parent, bool admin_access, int request_index,
                                      int subrequest_index);
  Outcome AllocateOne(Position r, bool allocating_subrequest);
  Outcome AllocateFrom(const Position& r, bool allocating_subrequest, RequestData& data);
  // allocateDevice: true with `undo` set when the device was taken.
  Result<bool> AllocateDevice(const Position& r, const DeviceRef& device, bool must, std::function<void()>& undo);
  Result<bool> IsSelectable(const RequestKey& key, const RequestData& data, const DeviceRef& device);
  Result<bool> SelectorsMatch(int claim_index, const DeviceRef& device, const DeviceClass* device_class,
                              const std::vector<std::string>& selectors);
  Result<bool> CapacityAllows(const RequestData& data, const DeviceRef& device) const;
  bool CheckAvailableCounters(const DeviceRef& device);
  void DeallocateCounters(const DeviceRef& device);
  bool DeviceInUse(const DeviceId& id) const;
  bool AllocatingForClaim(const DeviceId& id, int claim) const;
  bool DeviceCapacityInUse(const DeviceId& id) const;
  std::string NewShareId(const DeviceId& id);

  DraFeatures features_;
  const AllocatedState& allocated_;
  cel::SelectorCache* cache_;
  const Node& node_;
  const std::vector<const ResourceClaim*>& claims_;
  std::shared_ptr<const std::vector<Pool>> pools_;
  AllocatorReuse* reuse_ = nullptr;

  std::map<RequestKey, RequestData> request_data_;
  std::vector<std::vector<AttributeConstraint>> constraints_;  // per claim
  std::map<std::pair<DeviceId, RequestKey>, bool> device_matches_request_;
  std::map<DeviceId, std::set<int>> allocating_devices_;  // device -> claims it is being allocated for
  std::map<DeviceId, ConsumedCapacity> allocating_capacity_;
  // Counters, keyed by *pool name* as upstream does (not by driver too).
  using CounterSets = std::map<std::string, std::map<std::string, Quantity, std::less<>>, std::less<>>;
  std::map<std::string, CounterSets, std::less<>> available_counters_;
  std::map<std::string, CounterSets, std::less<>> consumed_counters_;
  std::set<SharedDeviceId> new_shares_;
  std::vector<std::vector<DeviceResult>> results_;
  Status error_;
  int64_t allocate_one_calls_ = 0;
  int64_t step_limit_ = 0;
};

}  // namespace gpusched::dra

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_SEARCH_H_
