// DynamicResources' Filter (see dynamic_resources.h).
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

namespace gpusched {

bool DynamicResources::Check(const PodInfo& pod, const Node&, const NodeState&, FilterVerdict* why) const {
  if (!pod.pod->HasResourceClaims()) return true;
  if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonCannotAllocateAllClaims);
  return false;
}

}  // namespace gpusched
