// What the noderesources score plugins share (pkg/scheduler/framework/
// plugins/noderesources/resource_allocation.go, resourceAllocationScorer):
// a pod's request for a resource and a node's allocatable and requested
// amounts of it, as NodeResourcesFit's scoring strategies
// (fit.h) and NodeResourcesBalancedAllocation
// (balanced_allocation.h) read them.
#ifndef GPUSCHED_SCHED_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
#define GPUSCHED_SCHED_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <string_view>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/resources.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// The request of `pod` for `resource` as resourceAllocationScorer.
// calculatePodResourceRequest sees it: with `use_requested` (BalancedAllocation)
// the plain requests, otherwise the requests with the 100m / 200Mi defaults
// for containers that have no cpu / memory key (Least/Most/RTC).
int64_t PodResourceRequest(const PodInfo& pod, std::string_view resource, bool use_requested);

struct AllocatableRequest {
  int64_t allocatable = 0;
  int64_t requested = 0;  // what the node has in use plus the pod's request
};

// resourceAllocationScorer.calculateResourceAllocatableRequest:
//  - a scalar resource (extended, hugepages, ...) the pod does not request: {0, 0};
//  - cpu / memory: node allocatable, and NonZeroRequested (or Requested when
//    `use_requested`) + pod_request;
//  - ephemeral-storage: allocatable, Requested + pod_request;
//  - a scalar the node advertises: allocatable, Requested + pod_request;
//  - anything else (not advertised, or not a scalar such as "pods"): {0, 0}.
// Callers skip entries whose allocatable is 0 (they get no score and no weight).
AllocatableRequest CalculateResourceAllocatableRequest(const NodeState& node, std::string_view resource,
                                                       int64_t pod_request, bool use_requested);

// One configured resource of a scorer, resolved for one pod: which branch of
// CalculateResourceAllocatableRequest applies, found once per pod instead of
// by name on every node.
struct ResolvedResource {
  enum Kind : uint8_t { kNone, kCpu, kMemory, kEphemeral, kScalar };
  Kind kind = kNone;
  int64_t pod_request = 0;
  int64_t weight = 0;
  std::string_view name;  // for kScalar
};
// The resolution, with `scalar_name` = IsScalarResourceName(name) (it never
// changes, so scorers compute it once).
ResolvedResource ResolveResource(std::string_view name, bool scalar_name, int64_t pod_request, int64_t weight);
// CalculateResourceAllocatableRequest for a resolved resource (inline: it
// runs per scored node and resource).
// Asks the memory system for what AllocatableRequestOf reads of `node`
// (allocatable and the requests): score loops call it a few nodes ahead,
// since the nodes a pod under spread or anti-affinity constraints finds
// feasible lie scattered over the node array and each costs cache misses.
inline void PrefetchAllocatableRequest(const NodeState& node) {
  __builtin_prefetch(&node.allocatable.milli_cpu);
  __builtin_prefetch(&node.allocatable.memory);
  __builtin_prefetch(&node.non_zero_requested.milli_cpu);
  __builtin_prefetch(&node.requested.milli_cpu);
}

inline AllocatableRequest AllocatableRequestOf(const ResolvedResource& r, const NodeState& node, bool use_requested) {
  const Resources& requested = use_requested ? node.requested : node.non_zero_requested;
  switch (r.kind) {
    case ResolvedResource::kNone:
      return {};
    case ResolvedResource::kCpu:
      return {node.allocatable.milli_cpu, SatAdd(requested.milli_cpu, r.pod_request)};
    case ResolvedResource::kMemory:
      return {node.allocatable.memory, SatAdd(requested.memory, r.pod_request)};
    case ResolvedResource::kEphemeral:
      return {node.allocatable.ephemeral_storage, SatAdd(node.requested.ephemeral_storage, r.pod_request)};
    case ResolvedResource::kScalar:
      // Default branch: only resources in the node's ScalarResources map
      // count ("pods" and unknown names are not in it). The DRA-backed
      // extended resource path (DRAExtendedResource) is not modelled.
      if (node.allocatable.HasScalar(r.name))
        return {node.allocatable.Scalar(r.name), SatAdd(node.requested.Scalar(r.name), r.pod_request)};
      return {};
  }
  return {};
}

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
