// NodeName filter: pkg/scheduler/framework/plugins/nodename.
#include "gpusched/sched/plugins/nodename/node_name.h"

namespace gpusched {

bool NodeName::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  if (pod.pod->node_name.empty() || pod.pod->node_name == node.name()) return true;
  if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonNodeName);
  return false;
}

}  // namespace gpusched
