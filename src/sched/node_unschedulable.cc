// NodeUnschedulable filter: pkg/scheduler/framework/plugins/nodeunschedulable.
#include "gpusched/sched/filters.h"

namespace gpusched {

SchedStatus NodeUnschedulableFilter::Filter(const PodInfo& pod, const Node& node, const NodeState&) const {
  if (!node.unschedulable) return SchedStatus::Success();
  // A pod that tolerates the unschedulable taint also tolerates spec.unschedulable.
  const Taint unschedulable{kTaintNodeUnschedulable, "", kTaintEffectNoSchedule};
  if (TolerationsTolerateTaint(pod.pod->tolerations, unschedulable)) return SchedStatus::Success();
  return SchedStatus::Unresolvable(kReasonNodeUnschedulable);
}

}  // namespace gpusched
