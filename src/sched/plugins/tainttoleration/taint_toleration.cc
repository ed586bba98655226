// TaintToleration's Filter: pkg/scheduler/framework/plugins/tainttoleration.
#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"

namespace gpusched {

bool TaintToleration::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  for (const Taint& t : node.taints) {
    // DoNotScheduleTaintsFilterFunc: only NoSchedule and NoExecute block.
    if (t.effect != kTaintEffectNoSchedule && t.effect != kTaintEffectNoExecute) continue;
    if (!TolerationsTolerateTaint(pod.pod->tolerations, t)) {
      // v1.35 wording (PR #134740); before it: "node(s) had untolerated taint {key: value}".
      if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonUntoleratedTaint);
      return false;
    }
  }
  return true;
}

}  // namespace gpusched
