// NodeName filter: pkg/scheduler/framework/plugins/nodename.
#include "gpusched/sched/filters.h"

namespace gpusched {

SchedStatus NodeNameFilter::Filter(const PodInfo& pod, const Node& node, const NodeState&) const {
  if (pod.pod->node_name.empty() || pod.pod->node_name == node.name()) return SchedStatus::Success();
  return SchedStatus::Unresolvable(kReasonNodeName);
}

}  // namespace gpusched
