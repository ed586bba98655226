// The structured allocator of k8s.io/dynamic-resource-allocation/structured
// (allocator.go: NewAllocator, Allocator.Allocate; internal/stable,
// internal/incubating, internal/experimental: the variant the enabled
// features pick), as kube-scheduler's DynamicResources plugin runs it for
// one node: for each claim, for each request (exact, or the first
// firstAvailable subrequest that works), pick devices of the node's pools in
// upstream's order that the class's and the request's CEL selectors admit,
// that no other claim holds, that satisfy the claim's constraints
// (matchAttribute, distinctAttribute) and, with the gates on, whose counters
// (DRAPartitionableDevices), taints (DRADeviceTaints) and capacity
// (DRAConsumableCapacity) allow it; backtracking as upstream does.
//
// THIS HEADER IS THE CONTRACT between the allocator
// (sched/plugins/dynamicresources/allocator*.cc) and the plugin.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_H_

#include <atomic>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/config/dra_features.h"
#include "gpusched/model/cel/device_selector.h"
#include "gpusched/model/dra/allocated_devices.h"
#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/node.h"
#include "gpusched/util/status.h"

namespace gpusched {

// structured.Features is config/dra_features.h's DraFeatures.

// DeviceId, SharedDeviceId and AllocatedState (structured's) are
// model/dra/allocated_devices.h's: the cluster keeps them
// (ClaimAllocations, which adds each allocation as allocateddevices.go
// does: a device allocated with admin access holds nothing; a result with
// a share id is a share whose consumed capacity adds up).

// DeviceClassLister: the class a request names, or nullptr when it does not exist.
using DeviceClassLookup = std::function<const DeviceClass*(const std::string& name)>;

// structured.ErrFailedAllocationOnNode: an error of Allocate that concerns
// this node only (v1.35: "invalid resource pools were encountered", when
// no allocation was found and some pool the node reaches is invalid; and
// here the step limit, Allocator::SetStepLimit). The
// plugin reports it as the node's unschedulable reason instead of aborting
// the scheduling attempt. Such errors carry Status::Code::kNotFound; every
// other error of Allocate is kInvalidArgument.
inline bool IsFailedAllocationOnNode(const Status& s) { return s.code() == Status::Code::kNotFound; }

namespace dra {
struct Pool;
}  // namespace dra

// What Allocate may keep across calls while the slices and classes stay
// unchanged (DynamicResources keeps one per objects generation): the
// results of CEL selectors per device, as a selector reads only the device
// and its driver, so its answer holds for every claim, node and pod. Raw
// Matches results, before the allocator words them. Thread-safe.
class AllocatorReuse {
 public:
  // The result kept for `expression` on `device`, or nullptr.
  const Result<bool>* FindMatch(const Device* device, const std::string& expression) const;
  void KeepMatch(const Device* device, const std::string& expression, const Result<bool>& result);

 private:
  mutable std::mutex mu_;
  // By device, then expression (a handful per device).
  std::map<const Device*, std::vector<std::pair<std::string, std::unique_ptr<Result<bool>>>>> matches_;
};

class Allocator {
 public:
  // `slices` may hold slices of other nodes: Allocate gathers the pools
  // whose slices the node can reach (structured.GatherPools), as upstream.
  // `cache` outlives the allocator; it may be shared across allocators (its
  // compile options must say DRAConsumableCapacity as `features` do).
  // `allocated` (nullptr: nothing allocated), the classes and the slices
  // must outlive the allocator and stay unchanged while it is used.
  // Allocate is const in effect: several threads may call it at once.
  Allocator(DraFeatures features, const AllocatedState* allocated, DeviceClassLookup classes,
            std::vector<const ResourceSlice*> slices, cel::SelectorCache* cache);

  // Allocator.Allocate: one AllocationResult per claim (in `claims`' order,
  // with the node selector upstream sets) when every claim can be
  // allocated on `node`; nullopt when they cannot (the plugin's "cannot
  // allocate all claims"); an error (upstream's exact text, e.g. "claim
  // ns/c, request r: ...", "class X: selector #0: CEL runtime error: no
  // such key: type") when the allocation must abort, or one that concerns
  // this node only (IsFailedAllocationOnNode).
  //
  // Deterministic where upstream is not: pools are tried sorted by driver
  // and pool name (v1.35 ranges over a Go map), and share ids (consumable
  // capacity) are the first of a fixed UUID-shaped sequence that no
  // allocated share of the device uses (upstream draws random UUIDs).
  Result<std::optional<std::vector<AllocationResult>>> Allocate(const Node& node,
                                                                const std::vector<const ResourceClaim*>& claims);

  // Stats.NumAllocateOneInvocations (AllocatorExtended.GetStats): how many
  // steps of the search all Allocate calls so far took, counted as upstream
  // counts its allocateOne calls.
  int64_t NumAllocateOneInvocations() const { return allocate_one_calls_->load(); }

  // A deterministic stand-in for the deadline kube-scheduler gives the
  // search (DRASchedulerFilterTimeout, 10 s): an Allocate call that takes
  // more than `steps` steps (as NumAllocateOneInvocations counts them)
  // stops with the node-only error (IsFailedAllocationOnNode) "filter
  // operation aborted: more than <steps> allocation steps", as upstream
  // stops with "filter operation aborted: context deadline exceeded". 0 (the
  // default): no limit, the search runs to its end as upstream's without a
  // deadline.
  void SetStepLimit(int64_t steps) { step_limit_ = steps; }
  // Selector results kept across calls (nullptr: none); it must outlive the
  // allocator and belong to these slices.
  void SetReuse(AllocatorReuse* reuse) { reuse_ = reuse; }
  // The pools GatherPools gives for the node of the next Allocate calls
  // (null: gathered by each call): a caller that asks often about one node
  // gathers them once.
  void SetPools(std::shared_ptr<const std::vector<dra::Pool>> pools) { pools_ = std::move(pools); }

 private:
  DraFeatures features_;
  const AllocatedState* allocated_;
  DeviceClassLookup classes_;
  std::vector<const ResourceSlice*> slices_;
  cel::SelectorCache* cache_;
  int64_t step_limit_ = 0;
  AllocatorReuse* reuse_ = nullptr;
  std::shared_ptr<const std::vector<dra::Pool>> pools_;
  // Shared so that the allocator stays copyable; Allocate adds to it.
  std::shared_ptr<std::atomic<int64_t>> allocate_one_calls_ = std::make_shared<std::atomic<int64_t>>(0);
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_H_
