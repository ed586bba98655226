// Pod scheduling readiness (spec.schedulingGates, KEP-3521, GA since v1.30):
// a pod with gates is not attempted by kube-scheduler until they are removed.
// The API server's validation and the statuses upstream gives such a pod:
//   - pkg/apis/core/validation/validation.go validateSchedulingGates (each
//     name a qualified name, no duplicates) and ValidatePodCreate
//     (spec.nodeName forbidden while gates remain);
//   - pkg/registry/core/pod/strategy.go applySchedulingGatedCondition: the
//     condition PodScheduled=False, reason SchedulingGated, set on create;
//   - pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go
//     PreEnqueue: UnschedulableAndUnresolvable "waiting for scheduling gates:
//     [a b]" (Go's %v of the names).
#ifndef GPUSCHED_MODEL_SCHEDULING_GATES_H_
#define GPUSCHED_MODEL_SCHEDULING_GATES_H_

#include <string>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

inline constexpr const char* kReasonSchedulingGated = "SchedulingGated";
inline constexpr const char* kSchedulingGatedMessage = "Scheduling is blocked due to non-empty scheduling gates";

// validateSchedulingGates at `path` ("spec.schedulingGates"), appending.
void ValidateSchedulingGates(const std::vector<std::string>& gates, const std::string& path,
                             std::vector<FieldError>& errs);

// ValidatePodCreate's rule: a pod cannot name a node while gates remain.
// Only for Pods (not templates); `spec_path` is "spec".
void ValidateGatedNodeName(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs);

// The SchedulingGates plugin's PreEnqueue status message for `gates`.
std::string SchedulingGatesStatusMessage(const std::vector<std::string>& gates);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_SCHEDULING_GATES_H_
