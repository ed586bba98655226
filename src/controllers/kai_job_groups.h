// KAI's pod-grouper and batch/v1 Jobs (kai-scheduler/KAI-Scheduler
// pkg/podgrouper/podgrouper/plugins/job/job_grouper.go at d5bc503a): a Job
// no other object owns, whose pods name kai-scheduler, gets one PodGroup,
// pg-<job>-<uid>, of minMember 1, or of the number its annotation
// kai.scheduler/batch-min-member gives. A group of 1 asks nothing; a larger
// one makes the Job's pods a KAI gang, declared here as the pod-grouper
// would create it: an implied PodGroupDecl, and the pod-group-name
// annotation on the Job's pods (unless the input already links them: a live
// dump's pods carry the annotation the real pod-grouper wrote).
//
// Two steps around ExpandControllers, which consumes the Jobs:
// PlanKaiJobGroups reads them (with a warning for an annotation KAI cannot
// parse: its pod-grouper then fails on the Job and KAI never schedules its
// pods), DeclareKaiJobGroups links their pods once they exist.
#ifndef GPUSCHED_CONTROLLERS_KAI_JOB_GROUPS_H_
#define GPUSCHED_CONTROLLERS_KAI_JOB_GROUPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/controllers/cluster_objects.h"

namespace gpusched {

struct KaiJobGroup {
  std::string ns;
  std::string job;
  std::string name;   // pg-<job>-<uid> (pg-<job> without a uid)
  std::string queue;  // CalcPodGroupQueue: the Job's kai.scheduler/queue label, else the pod's, else default-queue
  int32_t min_count = 1;
  std::string file;
  int line = 0;
};

std::vector<KaiJobGroup> PlanKaiJobGroups(ClusterObjects& m);
void DeclareKaiJobGroups(ClusterObjects& m, const std::vector<KaiJobGroup>& plans);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_KAI_JOB_GROUPS_H_
