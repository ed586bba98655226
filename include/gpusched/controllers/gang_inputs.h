// GroupGangs: once the pods are final (controllers and operators expanded,
// priorities resolved), files them into gangs (model/gang.h's
// GroupIntoGangs) from the group objects read and the groups operators
// would create (controllers/operator_expansion.h), into ClusterObjects::gangs.
//
// - A group object the input holds replaces the one gpusched would stand in
//   for (same API, namespace and name): a live dump's PodGroup is the group.
// - A kOperator group keeps only members that are still pods (one refused
//   by the Priority admission step is not).
// - A pod naming a group the input does not hold is never dropped: it stays
//   a pod, its link is a GangRefProblem (what that scheduler does with it),
//   and a warning names it: "Pod/ml/w-0: names PodGroup
//   scheduling.volcano.sh/v1beta1 \"pg\", which is not in the input: Volcano
//   ignores a job whose PodGroup \"pg\" does not exist: ...".
// - A KAI PodGroup with subGroups: a member in no subgroup without children
//   (KAI drops it from the job and never schedules it; gpusched places it
//   with its gang) and a PodGroup or parent-subgroup minMember KAI does not
//   check (it asks more than the leaf subgroups) each get a warning.
#ifndef GPUSCHED_CONTROLLERS_GANG_INPUTS_H_
#define GPUSCHED_CONTROLLERS_GANG_INPUTS_H_

#include "gpusched/controllers/cluster_objects.h"

namespace gpusched {

void GroupGangs(ClusterObjects& m);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_GANG_INPUTS_H_
