// resourceAllocationScorer's per-resource reads (pkg/scheduler/framework/
// plugins/noderesources/resource_allocation.go), shared by NodeResourcesFit's
// scoring strategies and NodeResourcesBalancedAllocation.
#include "gpusched/sched/plugins/noderesources/resource_allocation.h"

namespace gpusched {

int64_t PodResourceRequest(const PodInfo& pod, std::string_view resource, bool use_requested) {
  const Resources& r = use_requested ? pod.requests : pod.non_zero_requests;
  // "pods" is not a container resource: PodRequests never reports it.
  if (resource == kResourcePods) return 0;
  return r.Get(resource);
}

ResolvedResource ResolveResource(std::string_view name, bool scalar_name, int64_t pod_request, int64_t weight) {
  ResolvedResource r;
  r.pod_request = pod_request;
  r.weight = weight;
  // "If it's an extended resource, and the pod doesn't request it. We return
  // (0, 0) as an implication to bypass scoring on this resource."
  if (pod_request == 0 && scalar_name) return r;
  if (name == kResourceCPU) {
    r.kind = ResolvedResource::kCpu;
  } else if (name == kResourceMemory) {
    r.kind = ResolvedResource::kMemory;
  } else if (name == kResourceEphemeralStorage) {
    r.kind = ResolvedResource::kEphemeral;
  } else {
    r.kind = ResolvedResource::kScalar;
    r.name = name;
  }
  return r;
}

AllocatableRequest CalculateResourceAllocatableRequest(const NodeState& node, std::string_view resource,
                                                       int64_t pod_request, bool use_requested) {
  return AllocatableRequestOf(ResolveResource(resource, IsScalarResourceName(resource), pod_request, 1), node,
                              use_requested);
}

}  // namespace gpusched
