// TaintToleration filter: pkg/scheduler/framework/plugins/tainttoleration.
#include "gpusched/sched/filters.h"

namespace gpusched {

SchedStatus TaintTolerationFilter::Filter(const PodInfo& pod, const Node& node, const NodeState&) const {
  for (const Taint& t : node.taints) {
    // DoNotScheduleTaintsFilterFunc: only NoSchedule and NoExecute block.
    if (t.effect != kTaintEffectNoSchedule && t.effect != kTaintEffectNoExecute) continue;
    if (!TolerationsTolerateTaint(pod.pod->tolerations, t)) {
      // v1.35 wording (PR #134740); before it: "node(s) had untolerated taint {key: value}".
      return SchedStatus::Unresolvable(kReasonUntoleratedTaint);
    }
  }
  return SchedStatus::Success();
}

}  // namespace gpusched
