// The extender's preempt verb. kube-scheduler's DefaultPreemption finds
// candidate nodes and victims with its own view, which does not see GPU
// devices or shares (alibabacloud.com/gpu-milli is ignoredByScheduler), then
// asks the extender (pkg/scheduler/extender.go ProcessPreemption) which of
// those candidates it accepts and with which victims: the extender may drop
// a node or name other victims, as long as they run on that node (upstream
// refuses a UID it cannot find there).
//
// gpusched answers each candidate with DefaultPreemption's own victim
// selection (SelectVictimsOnNode, sched/plugins/defaultpreemption/default_preemption.h) run
// on its view with the profile's filters, devices and shares included:
//  - the node is kept, with gpusched's minimal victims, when the preemptor
//    fits there once they are gone;
//  - the node is dropped when the preemptor does not fit even with every
//    lower-priority pod gone, when gpusched does not know the node, or when a
//    victim has no UID to name it by.
// `serve` does not watch PodDisruptionBudgets, so NumPDBViolations is
// kube-scheduler's count for the node (it does watch them). gpusched's
// victims are minimal under its own filters; they can differ from
// kube-scheduler's when devices or shares decide what fits.
#ifndef GPUSCHED_SERVER_PREEMPT_VERB_H_
#define GPUSCHED_SERVER_PREEMPT_VERB_H_

#include <cstdint>
#include <functional>
#include <string>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/server/wire.h"

namespace gpusched {

// `uid_of`: the UID of the pod counted as BoundPod::id ("" when unknown).
NodeToMetaVictims ExtenderPreemptVictims(const PodInfo& pod, const ClusterState& cluster, const Scheduler& scheduler,
                                         const NodeToMetaVictims& proposed,
                                         const std::function<std::string(uint64_t)>& uid_of);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_PREEMPT_VERB_H_
