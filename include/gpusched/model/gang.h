// Gangs: groups of pods that are useless unless at least a minimum of them
// run at once, in one model whatever spelling the input used.
//
// Declared groups (PodGroupDecl) come from the objects users and operators
// create; a pod names its group with a link whose form depends on the API:
//
// | GangApi             | object (apiVersion)                                  | pod link                                   |
// |---------------------|------------------------------------------------------|--------------------------------------------|
// | kWorkloadV1alpha1   | Workload scheduling.k8s.io/v1alpha1 (v1.35),         | spec.workloadRef {name, podGroup,          |
// |                     |   spec.podGroups[].policy.gang.minCount              |   podGroupReplicaKey}                      |
// | kPodGroupV1alpha2   | PodGroup scheduling.k8s.io/v1alpha2 (v1.36),         | spec.schedulingGroup.podGroupName          |
// |                     |   spec.schedulingPolicy.gang.minCount                |                                            |
// | kCoscheduling       | PodGroup scheduling.x-k8s.io/v1alpha1 (minMember)    | label scheduling.x-k8s.io/pod-group        |
// | kVolcano            | PodGroup scheduling.volcano.sh/v1beta1 (minMember,   | annotation scheduling.k8s.io/group-name    |
// |                     |   minTaskMember)                                     |   (or scheduling.volcano.sh/group-name)    |
// | kKai                | PodGroup scheduling.run.ai/v2alpha2 (minMember,      | annotation pod-group-name (subgroup: label |
// |                     |   subGroups)                                         |   kai.scheduler/subgroup-name)             |
// | kOperator           | none: a workload whose pods only make sense together | its pods (by ownership)                    |
// |                     |   but whose operator creates no group object         |                                            |
//
// A pod may carry links of several APIs; which one matters depends on the
// scheduler that serves it (kube-scheduler with GangScheduling reads the
// Workload API, a scheduler-plugins build Coscheduling's label, Volcano and
// KAI their annotations). GroupIntoGangs therefore files a pod in one gang
// per API it links to, and the scheduling side picks the gang of the API its
// scheduler enforces (Gang::api). Groups whose policy is `basic` are not
// gangs.
//
// A link to a group that is not in the input is never dropped: it becomes a
// GangRefProblem with what that scheduler does with such a pod (read from
// upstream: GangScheduling's PreEnqueue, Coscheduling's Permit, Volcano's and
// KAI's caches).
#ifndef GPUSCHED_MODEL_GANG_H_
#define GPUSCHED_MODEL_GANG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/validation.h"

namespace gpusched {

enum class GangApi { kWorkloadV1alpha1, kPodGroupV1alpha2, kCoscheduling, kVolcano, kKai, kOperator };

// "Workload scheduling.k8s.io/v1alpha1", "PodGroup scheduling.x-k8s.io/v1alpha1", ...
std::string_view GangApiName(GangApi api);
// Who enforces the gang: "kube-scheduler GangScheduling", "scheduler-plugins
// Coscheduling", "Volcano", "KAI", or "" for kOperator (nobody: only the
// diagnosis flags a partially placed group).
std::string_view GangEnforcer(GangApi api);

// Pod links (labels and annotations).
inline constexpr const char* kCoschedulingPodGroupLabel = "scheduling.x-k8s.io/pod-group";
inline constexpr const char* kVolcanoGroupNameAnnotation = "scheduling.k8s.io/group-name";
inline constexpr const char* kVolcanoGroupNameAnnotationAlt = "scheduling.volcano.sh/group-name";
inline constexpr const char* kVolcanoTaskSpecAnnotation = "volcano.sh/task-spec";
inline constexpr const char* kKaiPodGroupAnnotation = "pod-group-name";
inline constexpr const char* kKaiSubGroupLabel = "kai.scheduler/subgroup-name";

// Permit timeouts: upstream's workloadmanager defaultSchedulingTimeoutSeconds
// (300 s, v1.35; permitTimeoutDuration 5 min in v1.36) and scheduler-plugins'
// permitWaitingTimeSeconds default (apis/config/v1/defaults.go: 60 s).
inline constexpr double kWorkloadGangTimeoutSeconds = 300;
inline constexpr double kCoschedulingDefaultTimeoutSeconds = 60;

struct GangSubgroup {
  std::string name;
  int32_t min_count = 0;
  std::string parent;  // "" for a top-level subgroup
};

// A group object as read (or as its operator would create it).
struct PodGroupDecl {
  GangApi api = GangApi::kOperator;
  std::string ns;
  std::string name;  // the object's name (the Workload's for kWorkloadV1alpha1)
  // kWorkloadV1alpha1: spec.podGroups, each gang (with its minCount) or basic.
  struct WorkloadGroup {
    std::string name;
    bool gang = false;
    int32_t min_count = 0;
  };
  std::vector<WorkloadGroup> workload_groups;
  // Every other API: the group's policy.
  bool gang = true;
  int32_t min_count = 1;
  std::vector<GangSubgroup> subgroups;  // KAI subGroups; Volcano minTaskMember (one per task)
  ResourceList min_resources;           // minResources, where the spelling has it
  // Permit timeout the group sets (Coscheduling's scheduleTimeoutSeconds,
  // the Workload API's fixed 300 s); nullopt: the scheduler's own
  // (Coscheduling's permitWaitingTimeSeconds) or no Permit wait (Volcano, KAI).
  std::optional<double> timeout_seconds;
  std::string queue;                      // Volcano, KAI
  std::string priority_class_name;        // Volcano, KAI, v1alpha2
  // The workload that created (or would create) it: "PyTorchJob/ns/name".
  std::string owner;
  // True when the input does not hold the object and gpusched stands in for
  // the operator that would create it (the operator's PodGroup, or a
  // kOperator group).
  bool implied = false;
  // A LeaderWorkerSet with RecreateGroupOnPodRestart, a Volcano Job whose
  // policies restart it on PodEvicted: losing one member restarts them all.
  bool restarts_whole_group = false;
  // kOperator: the member pods ("ns/name"), decided by ownership.
  std::vector<std::string> members;
  std::string file;
  int line = 0;
};

struct GangMember {
  std::string pod;       // "ns/name"
  std::string subgroup;  // the subgroup it counts for ("" for none)
};

struct Gang {
  std::string key;  // "ns/name"; Workload API v1.35: "ns/workload/podGroup" plus "/replicaKey" when set
  GangApi api = GangApi::kOperator;
  std::string ns;
  std::string name;  // the group object's name (the Workload's for kWorkloadV1alpha1)
  std::string pod_group;          // kWorkloadV1alpha1: the pod group in the Workload
  std::string replica_key;        // kWorkloadV1alpha1: podGroupReplicaKey
  int32_t min_count = 1;
  std::vector<GangMember> members;  // in pod order
  std::vector<GangSubgroup> subgroups;
  ResourceList min_resources;
  std::optional<double> timeout_seconds;
  std::string queue;
  std::string priority_class_name;
  std::string owner;
  bool implied = false;
  bool restarts_whole_group = false;
  std::string file;
  int line = 0;

  // Enough members exist to meet its minimums at all (else the scheduler
  // keeps them out: GangScheduling's PreEnqueue "waiting for minCount pods
  // from a gang to appear in scheduling queue", Coscheduling's PreFilter
  // "cannot find enough sibling pods", Volcano's JobValidFn, KAI's
  // IsReadyForScheduling). Judged by GangReady (model/gang_readiness.h)
  // over every member.
  bool HasQuorum() const;
};

// What a pod says about its groups.
struct GangLink {
  GangApi api = GangApi::kOperator;
  std::string name;       // the group (the Workload for kWorkloadV1alpha1)
  std::string pod_group;  // kWorkloadV1alpha1
  std::string replica_key;
  std::string subgroup;   // KAI subgroup label, Volcano task name
};
// Every link of `pod`, in GangApi order (kOperator is never a link).
std::vector<GangLink> GangLinksOf(const Pod& pod);

// The API server's checks of spec.workloadRef (name a DNS subdomain,
// podGroup and podGroupReplicaKey DNS labels, name and podGroup required)
// and spec.schedulingGroup.podGroupName (a DNS subdomain), at `spec_path`;
// appended to `errs` (ValidatePod calls it).
void ValidateGangPodFields(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs);

// A pod naming a group the input does not hold.
struct GangRefProblem {
  std::string pod;  // "ns/name"
  GangApi api = GangApi::kOperator;
  std::string group;  // as the pod names it
  // How the scheduler of that API treats the pod:
  enum class Effect {
    // Never enters the scheduling queue (a PreEnqueue
    // UnschedulableAndUnresolvable status): GangScheduling.
    kPreEnqueueRejected,
    // Rejected at Permit after Filter found a node (Unschedulable):
    // Coscheduling.
    kPermitRejected,
    // The scheduler skips it without an event: Volcano and KAI schedule
    // PodGroups, and a pod whose PodGroup does not exist is in none.
    kIgnored,
  };
  Effect effect = Effect::kIgnored;
  // The scheduler's message (kPreEnqueueRejected, kPermitRejected) or
  // gpusched's words for what happens (kIgnored).
  std::string message;
};

struct GangSet {
  std::vector<Gang> gangs;  // declared ones in declaration order, then Workload replicas by key
  std::vector<GangRefProblem> problems;  // in pod order

  // The gangs a pod ("ns/name") belongs to, one per API at most.
  std::vector<const Gang*> GangsOf(std::string_view pod) const;
  // The gang of `api` a pod belongs to, if any.
  const Gang* GangOf(std::string_view pod, GangApi api) const;
  // Rebuilds the pod index (after gangs are added or changed).
  void Index();

 private:
  std::map<std::string, std::vector<size_t>, std::less<>> by_pod_;
};

// Files `pods` into the gangs of `decls`. A declaration whose api, namespace
// and name repeat an earlier one is skipped (the loader refuses duplicates
// before this). `pods` are the pods that take part in scheduling (not the
// terminated ones), in input order.
GangSet GroupIntoGangs(const std::vector<PodGroupDecl>& decls, const std::vector<const Pod*>& pods);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_GANG_H_
