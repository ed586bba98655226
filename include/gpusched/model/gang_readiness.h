// Gang readiness: whether the members of a gang that count (placed, or in
// existence for the quorum test) meet every minimum its scheduler checks,
// and which minimums they miss. The one place that decides it.
//
// The minimums, as the schedulers check them:
//
// - Volcano (volcano-sh/volcano pkg/scheduler/plugins/gang/gang.go, the
//   JobReadyFn: CheckTaskReady && IsReady; pkg/scheduler/api/job_info.go):
//   the whole gang's minMember (IsReady: ReadyTaskNum >= MinAvailable), and
//   each task's minTaskMember (CheckTaskReady: the members of that task,
//   counted by their volcano.sh/task-spec annotation), unless minMember is
//   below the sum of the task minimums, in which case CheckTaskReady checks
//   no task at all. A task minimum of 0 asks nothing. The quorum test is the
//   JobValidFn (CheckTaskValid, ValidTaskNum >= MinAvailable), the same
//   rule over the members that exist.
// - KAI (NVIDIA/KAI-Scheduler pkg/scheduler/api/podgroup_info/job_info.go
//   IsGangSatisfied / IsReadyForScheduling, subgroup_info/podset.go,
//   subgroup_info/factory.go): with no subGroups, the PodGroup's minMember.
//   With subGroups, each leaf subgroup (one that is no other's parent: a
//   PodSet) needs max(minMember, 1) of its own members (label
//   kai.scheduler/subgroup-name); a subgroup with children (a SubGroupSet)
//   has no minimum of its own, and the PodGroup's minMember is not checked
//   (setSubGroups only gives it to the "default" PodSet, which a PodGroup
//   with subGroups does not have). Parents match names lower-cased, as
//   factory.go's formatParentName does.
// - Every other API: the gang's min_count.
#ifndef GPUSCHED_MODEL_GANG_READINESS_H_
#define GPUSCHED_MODEL_GANG_READINESS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/gang.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// Members that count, in all and by their subgroup label ("" for none).
struct GangCount {
  int64_t total = 0;
  std::map<std::string, int64_t, std::less<>> by_subgroup;

  void Add(std::string_view subgroup, int64_t n = 1);
  void Add(const GangCount& other);
  int64_t In(std::string_view subgroup) const;
};

// One minimum the gang's scheduler checks: the whole gang's (subgroup "")
// or one subgroup's.
struct GangMinimum {
  std::string subgroup;  // "" for the whole gang
  int64_t min = 0;
};

// The minimums of `g` its scheduler checks: the whole gang's first (when
// checked), then the subgroups' in declaration order.
std::vector<GangMinimum> EnforcedMinimums(const Gang& g);

// A minimum `count` does not meet.
struct GangShortfall {
  std::string subgroup;  // "" for the whole gang
  int64_t min = 0;
  int64_t have = 0;
};

// The minimums of `g` that `count` misses, in EnforcedMinimums order; empty
// when the gang is ready.
std::vector<GangShortfall> GangShortfalls(const Gang& g, const GangCount& count);
bool GangReady(const Gang& g, const GangCount& count);

// The fewest members that can make `g` ready: the largest of its whole-gang
// minimum and the sum of its subgroup minimums (a member counts for one
// subgroup only).
int64_t SmallestReadyCount(const Gang& g);

// Every member of `g`, counted by its subgroup.
GangCount CountMembers(const Gang& g);

// The subgroup label `pod` carries for `api` (Volcano's task-spec
// annotation, KAI's subgroup label; "" for the other APIs), as GangLinksOf
// reads it.
std::string_view SubgroupLabel(const Pod& pod, GangApi api);

// "task" for Volcano, "subgroup" otherwise: the word the scheduler uses.
std::string_view SubgroupWord(GangApi api);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_GANG_READINESS_H_
