// PodDisruptionBudget (policy/v1): how many of the pods it selects may be
// disrupted, validated as the API server does
// (pkg/apis/policy/validation.ValidatePodDisruptionBudgetSpec) and counted
// as the disruption controller does (pkg/controller/disruption/disruption.go,
// trySync):
//  - the pods: those of the PDB's namespace its selector matches (a missing
//    selector matches none, an empty one every pod: policy/v1);
//  - expectedPods: with an integer minAvailable, the number of those pods;
//    otherwise the sum of the scales of their controllers, each counted once
//    (getExpectedScale: a ReplicationController, a Deployment through its
//    ReplicaSet, a ReplicaSet, a StatefulSet, or any controller with a scale
//    subresource); a pod without a controller is "unmanaged" (not counted);
//    a controller that has no scale subresource (a Job) or cannot be found is
//    an error, and then the controller's failSafe allows no disruption;
//  - desiredHealthy: minAvailable (a percentage of expectedPods, rounded up),
//    or expectedPods minus maxUnavailable (a percentage rounded up), at least 0;
//  - currentHealthy: the selected pods that are Ready (for gpusched: running);
//  - disruptionsAllowed = currentHealthy - desiredHealthy, or 0 when that is
//    negative or expectedPods is 0.
#ifndef GPUSCHED_MODEL_PDB_H_
#define GPUSCHED_MODEL_PDB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/model/controller.h"
#include "gpusched/model/label_selector.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/owner_reference.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

struct PodDisruptionBudget {
  ObjectMeta meta;
  std::optional<IntOrPercent> min_available;
  std::optional<IntOrPercent> max_unavailable;
  std::optional<LabelSelector> selector;       // nullopt: selects no pod
  std::string unhealthy_pod_eviction_policy;   // "" (IfHealthyBudget), IfHealthyBudget, AlwaysAllow
  // status.disruptionsAllowed as the cluster reported it, when the input
  // came from one (the scheduler's preemption reads the object's status).
  std::optional<int32_t> status_disruptions_allowed;
};

// ValidatePodDisruptionBudget (spec only) plus the object's name, with
// upstream's messages; `decoded` holds what decoding found (a percentage
// string that is not one), inserted where upstream reports it.
std::vector<FieldError> ValidatePdb(const PodDisruptionBudget& pdb, std::vector<FieldError> decoded = {});

// The PDB selects `pod` (same namespace, selector matches its labels).
bool PdbSelects(const PodDisruptionBudget& pdb, const Pod& pod);

// A workload controller as the disruption controller's finders see it.
struct ScaleTarget {
  std::string api_version;  // "apps/v1"
  std::string kind;         // "ReplicaSet"
  std::string ns;
  std::string name;
  std::string uid;
  // spec.replicas, or nullopt when the kind has no scale subresource (a
  // Job, a DaemonSet, a CronJob).
  std::optional<int32_t> scale;
  std::optional<OwnerReference> controller_ref;  // a ReplicaSet's Deployment
};

// Every controller the input holds, found by uid or by kind, API group,
// namespace and name (an input without uids).
class ControllerScales {
 public:
  void Add(ScaleTarget t);
  const ScaleTarget* Find(const OwnerReference& ref, const std::string& ns) const;
  size_t size() const { return targets_.size(); }

 private:
  std::vector<ScaleTarget> targets_;
  std::unordered_map<std::string, size_t> by_uid_;
  std::unordered_map<std::string, size_t> by_name_;
};

// The resource a kind's scale subresource is asked under, as the finder's
// error names it ("jobs.batch", "pytorchjobs.kubeflow.org").
std::string ScaleResourceName(const std::string& kind, const std::string& api_version);

struct PdbPod {
  const Pod* pod = nullptr;
  bool healthy = false;  // Ready: running, not being deleted
};

struct PdbStatus {
  int32_t disruptions_allowed = 0;
  int32_t current_healthy = 0;
  int32_t desired_healthy = 0;
  int32_t expected_pods = 0;
  std::vector<std::string> unmanaged_pods;  // names, in the order given
  // The sync error ("found no controllers for pod \"x\"", "jobs.batch does
  // not implement the scale subresource"), "" when none: the controller then
  // sets disruptionsAllowed to 0 (failSafe) and leaves the rest unchanged.
  std::string error;
};

// `pods`: the pods PdbSelects (the caller decides which are healthy).
PdbStatus ComputePdbStatus(const PodDisruptionBudget& pdb, const std::vector<PdbPod>& pods,
                           const ControllerScales& scales);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_PDB_H_
