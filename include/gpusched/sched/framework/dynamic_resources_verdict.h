// DynamicResources' PreEnqueue (pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go, v1.35): a pod whose claims cannot
// be resolved (sched/plugins/dynamicresources/pod_claims.h: a claim named
// directly that is missing, `could not find ResourceClaim "<ns>/<name>"`;
// a template's claim the controller cannot make, `pod "<ns>/<name>":
// ResourceClaim not created yet`; a claim being deleted or owned by another
// pod) is kept out of the queue with that status and never attempted. The
// rest (PreFilter, Filter, Reserve) is the plugin's, in the profile's chain.
// It lives in framework because it builds gpusched's Diagnosis.
#ifndef GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_
#define GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_

#include <optional>
#include <string>

#include "gpusched/model/resource_claims.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/diagnosis/diagnosis.h"

namespace gpusched {

struct DraVerdict {
  std::string message;  // kube-scheduler's status text for the pod
  Diagnosis diagnosis;
};

// nullopt when the pod has no resource claims or they all resolve. `dra`
// may be null (no resource.k8s.io objects in the input).
std::optional<DraVerdict> EvaluateDynamicResources(const PodInfo& pod, const DraObjects* dra);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_DYNAMIC_RESOURCES_VERDICT_H_
