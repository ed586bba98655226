// NodeUnschedulable filter: pkg/scheduler/framework/plugins/nodeunschedulable.
#include "gpusched/sched/plugins/nodeunschedulable/node_unschedulable.h"

namespace gpusched {

bool NodeUnschedulable::Check(const PodInfo& pod, const Node& node, const NodeState&,
                              FilterVerdict* why) const {
  if (!node.unschedulable) return true;
  // A pod that tolerates the unschedulable taint also tolerates spec.unschedulable.
  if (!pod.pod->tolerations.empty()) {
    const Taint unschedulable{kTaintNodeUnschedulable, "", kTaintEffectNoSchedule};
    if (TolerationsTolerateTaint(pod.pod->tolerations, unschedulable)) return true;
  }
  if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonNodeUnschedulable);
  return false;
}

}  // namespace gpusched
