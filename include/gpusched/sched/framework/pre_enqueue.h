// The checks a pod meets before any filter runs, in kube-scheduler's order:
//   1. spec.schedulerName must name a profile (kube-scheduler ignores pods of
//      other schedulers: they stay pending with no event of its own);
//   2. PreEnqueue, SchedulingGates first: a gated pod is not attempted; the
//      API server gave it PodScheduled=False, reason SchedulingGated
//      (model/scheduling_gates.h);
//   3. gpusched's refusal of HAMi's vGPU resources (model/hami.h), which it
//      does not model and must not schedule as whole GPUs;
//   4. DynamicResources' PreEnqueue, PreFilter and Filter for pods with
//      resource claims (sched/plugins/dynamicresources/dynamic_resources.h).
// A pod that any of them holds is pending with kube-scheduler's status (or
// none) and a diagnosis of its own kind; the others go to their scheduler.
// Kept apart from Diagnose: these verdicts do not depend on what is running.
#ifndef GPUSCHED_SCHED_FRAMEWORK_PRE_ENQUEUE_H_
#define GPUSCHED_SCHED_FRAMEWORK_PRE_ENQUEUE_H_

#include <optional>
#include <string>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

struct HeldPod {
  std::string message;  // kube-scheduler's status text, "" when it has none
  Diagnosis diagnosis;
};

// The profile serving `pod` (by spec.schedulerName), or nullptr.
Scheduler* ProfileFor(const PodInfo& pod, const ProfileSchedulers& profiles);

// nullopt: `pod` goes to its profile's scheduler. `dra` may be null.
std::optional<HeldPod> CheckBeforeScheduling(const PodInfo& pod, const ProfileSchedulers& profiles,
                                             const DraObjects* dra, const ClusterState& cluster);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_PRE_ENQUEUE_H_
