// What ExpandWorkloads' first step (operator_expansion.cc) tells its last
// (operator_groups.cc) about each operator workload: the pods it owns
// directly and the Jobs / StatefulSets whose pods are its own. Private to
// src/controllers.
#ifndef GPUSCHED_CONTROLLERS_OPERATOR_PLAN_H_
#define GPUSCHED_CONTROLLERS_OPERATOR_PLAN_H_

#include <map>
#include <string>
#include <vector>

#include "gpusched/controllers/cluster_objects.h"

namespace gpusched {

struct OperatorPlan {
  const LoadedOperator* op = nullptr;
  // "ns/name" of the pods it owns directly (Kubeflow, Volcano Job): the ones
  // present (active) and the ones created.
  std::vector<std::string> pods;
  std::vector<std::string> created;  // those of `pods` gpusched created
  // JobSet: "Job/ns/name" -> replicated job (role) index; LeaderWorkerSet:
  // "StatefulSet/ns/name" -> group index (-1 for the leader StatefulSet).
  std::map<std::string, int> children;
  // The scheduler its pods name (the first role's template).
  std::string scheduler;
  // The group object's name its operator gives, by group (one entry, or one
  // per LeaderWorkerSet group); "" for kOperator groups.
  std::vector<std::string> group_names;
  GangApi api = GangApi::kOperator;
};

// Step 1: creates the pods of Kubeflow jobs and Volcano Jobs, and the Jobs
// and StatefulSets of JobSets and LeaderWorkerSets (appended to
// m.controllers), deciding each workload's group API and names.
std::vector<OperatorPlan> PlanOperators(ClusterObjects& m);

// Step 4: after ExpandControllers, stamps the leader pods gpusched created
// for LeaderWorkerSets (group index, group link) and declares each
// workload's groups in m.pod_groups; fills m.operator_pods' lists.
void DeclareOperatorGroups(ClusterObjects& m, const std::vector<OperatorPlan>& plans);

// The group API a workload's pods get from the scheduler they name, and the
// name of the group object its operator creates (group index -1 for a
// workload of one group).
GangApi GroupApiFor(const OperatorWorkload& w, const std::string& scheduler);
std::string GroupNameFor(const OperatorWorkload& w, GangApi api, int group);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_OPERATOR_PLAN_H_
