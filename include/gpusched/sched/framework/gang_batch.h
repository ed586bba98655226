// Gangs in `gpusched schedule`: which scheduler enforces which gang, and the
// all-or-nothing placement of a gang whose scheduler enforces it.
//
// A gang is enforced only when the scheduler serving its pods does gangs, as
// in a real cluster:
// - a kube-scheduler profile with GangScheduling enabled (alpha in v1.35,
//   behind the GangScheduling feature gate) enforces the Workload API's gangs
//   (spec.workloadRef; spec.schedulingGroup of v1.36 read alike);
// - a profile with scheduler-plugins' Coscheduling (a scheduler-plugins
//   build) enforces its PodGroups (label scheduling.x-k8s.io/pod-group);
// - the pods of schedulerName "volcano" or "kai-scheduler" (served by an
//   extra profile, ExtraProfile in profile_factory.h) have their Volcano or KAI PodGroup
//   enforced: those schedulers always gang.
// Every other group (an operator's pods with no group object, a KAI group
// whose pods go to default-scheduler) is placed one pod at a time, as stock
// kube-scheduler does; the report then flags partially placed groups.
//
// ScheduleGang places an enforced gang's members one after the other in
// queue order; if fewer than minCount of them (with members already bound)
// fit, every member placed in the attempt is unbound again and all are
// pending. Upstream's plugins reach the same end state through Permit: the
// members that fit wait on their reserved node and are rejected when the
// gang times out (GangScheduling: 300 s; Coscheduling: scheduleTimeoutSeconds
// or permitWaitingTimeSeconds, 60 s) or, for Coscheduling, as soon as a
// sibling fails (PostFilter's "optimistic rejection"). `schedule` reports
// that end state; it does not model the wait.
#ifndef GPUSCHED_SCHED_GANG_BATCH_H_
#define GPUSCHED_SCHED_GANG_BATCH_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/gang_readiness.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

namespace gpusched {

// What one profile's scheduler does with gangs.
struct GangEnforcement {
  std::vector<GangApi> apis;  // the gang spellings it enforces, first match wins
  // "GangScheduling", "Coscheduling", "Volcano", "KAI": whose messages its
  // pods get.
  std::string enforcer;
  // Coscheduling's permitWaitingTimeSeconds (a PodGroup's
  // scheduleTimeoutSeconds wins); GangScheduling's is fixed at 300 s.
  double permit_timeout_seconds = 0;
  // Coscheduling's podGroupRejectPercentage / 100: PostFilter rejects the
  // group when more than this share of minMember is unassigned.
  double reject_threshold = 0.10;
};

// schedulerName -> what its profile enforces; absent: no gangs.
using GangServing = std::map<std::string, GangEnforcement, std::less<>>;

// The gang `pod` ("ns/name" key `pod_key`) belongs to that its scheduler
// enforces, or null.
const Gang* EnforcedGang(const Pod& pod, const std::string& pod_key, const GangSet& gangs,
                         const GangServing& serving);

// The gang reported for `pod`: the enforced one, else its first gang, else
// null.
const Gang* ReportedGang(const Pod& pod, const std::string& pod_key, const GangSet& gangs,
                         const GangServing& serving);

// The enforcement of the scheduler serving `pod`, or null.
const GangEnforcement* EnforcementFor(const Pod& pod, const GangServing& serving);

// One member's attempt, as ScheduleBatch makes it for any pod.
struct MemberAttempt {
  bool placed = false;
  size_t node = 0;
  std::vector<int32_t> gpus;
  std::string message;  // when not placed: the scheduler's text
  Diagnosis diagnosis;  // when not placed
  bool held_before_filters = false;  // never reached Filter (pre_enqueue.h)
  // Placed after evicting victims (batch_preemption.h), which recorded the
  // placement and the victims itself; never set for a gang member.
  bool placed_by_preemption = false;
  std::vector<ClaimDevices> claims;  // when placed: DynamicResources' Reserve
};
using AttemptFn = std::function<MemberAttempt(const PodInfo&, ClusterState&)>;

struct GangOutcome {
  bool placed = false;                  // minCount reached: the placed members stay bound
  std::vector<MemberAttempt> members;   // in the order given
};

// Places `members` (the gang's pods still to schedule, in queue order) on
// `cluster` with `attempt`, all or nothing; `already_bound` members of the
// gang already run (counted by subgroup). The gang is placed when the bound
// and the placed members together are ready (GangReady,
// model/gang_readiness.h: its minimum and the task / subgroup minimums its
// scheduler checks). On failure `cluster` is as before and every member is
// pending with its enforcer's message and gpusched's gang diagnosis.
// `ever_fits`, when given, says whether the gang fits the empty cluster.
GangOutcome ScheduleGang(const Gang& gang, const GangEnforcement& enforcement, const std::vector<PodInfo>& members,
                         const GangCount& already_bound, ClusterState& cluster, const AttemptFn& attempt,
                         const std::function<bool()>& ever_fits);

// Volcano's message for a job whose gang is not ready ("1/3 tasks in gang
// unschedulable: pod group is not ready, ..."): `fit` of its `pending` tasks
// fit, `running` run. KAI's words for a group of which `fit` members can be
// allocated out of `exist`. (Also used by sim/gang_permit.h.)
std::string VolcanoMessage(const Gang& g, int64_t fit, int64_t pending, int64_t running);
// KAI's, in gpusched's words: `placed` (counted by subgroup) of `exist`
// members; names the first subgroup short of its minMember, else the
// PodGroup's minMember.
std::string KaiMessage(const Gang& g, const GangCount& placed, int64_t exist);

// Go's time.Duration String for whole seconds: "10s", "1m0s", "5m0s".
std::string GoSeconds(double seconds);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_GANG_BATCH_H_
