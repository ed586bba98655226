// What kube-scheduler's DynamicResources plugin (Dynamic Resource
// Allocation, GA since v1.34; pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go) does with a pod that has
// spec.resourceClaims, given the resource.k8s.io objects of the input.
// gpusched does not allocate DRA devices yet, so such a pod is never placed
// (and never as if it needed no GPU); it gets the status kube-scheduler
// gives it:
//   - PreEnqueue: every claim must exist: a claim named directly that is
//     missing gives `could not find ResourceClaim "<ns>/<name>"` (the claim
//     assume cache's NotFoundError, pkg/scheduler/util/assumecache); a claim
//     from a template that the resourceclaim controller could not create
//     (template missing, no status.resourceClaimStatuses entry) gives
//     `pod "<ns>/<name>": ResourceClaim not created yet`
//     (k8s.io/dynamic-resource-allocation/resourceclaim). The pod is not
//     attempted.
//   - PreFilter: every device class a request names must exist: `request
//     <req>: device class <class> does not exist` (UnschedulableAndUnresolvable,
//     printed as the FitError's PreFilter message).
//   - Filter: on every node that passes the profile's other filters,
//     `cannot allocate all claims` (UnschedulableAndUnresolvable), what the
//     plugin reports when no ResourceSlice device satisfies the claims
//     (DynamicResources, sched/plugins/dynamicresources/dynamic_resources.h).
//     DefaultPreemption then runs as usual (and finds no node where evicting
//     helps, since the claims still cannot be allocated).
// It lives in framework because it runs a profile's whole filter chain
// (Scheduler) and builds gpusched's Diagnosis.
#ifndef GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_
#define GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_

#include <optional>
#include <string>

#include "gpusched/model/resource_claims.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/framework/scheduler.h"

namespace gpusched {

struct DraVerdict {
  std::string message;  // kube-scheduler's status text for the pod
  Diagnosis diagnosis;
};

// nullopt when the pod has no resource claims. `scheduler` is the profile
// serving the pod: its filters run before DynamicResources' and its
// preemption setting decides the "preemption: ..." suffix. `dra` may be null
// (no resource.k8s.io objects in the input).
std::optional<DraVerdict> EvaluateDynamicResources(const PodInfo& pod, const DraObjects* dra,
                                                   const ClusterState& cluster, const Scheduler& scheduler);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_
