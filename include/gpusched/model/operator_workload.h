// Operator workloads: the custom resources whose operators create groups of
// pods that only make sense together — Kubeflow's training jobs
// (kubeflow.org/v1 PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob),
// Volcano's Job (batch.volcano.sh/v1alpha1), JobSet (jobset.x-k8s.io/v1alpha2)
// and LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) — reduced to what
// expanding them into pods and gangs needs (controllers/operator_expansion.h).
//
// OperatorPods is what expansion did with one of them, for reports.
#ifndef GPUSCHED_MODEL_OPERATOR_WORKLOAD_H_
#define GPUSCHED_MODEL_OPERATOR_WORKLOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/controller.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/owner_reference.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"

namespace gpusched {

enum class OperatorKind {
  kPyTorchJob,
  kTFJob,
  kMPIJob,
  kXGBoostJob,
  kPaddleJob,
  kJAXJob,
  kVolcanoJob,
  kJobSet,
  kLeaderWorkerSet,
};

// The kind as its API names it ("PyTorchJob"; Volcano's is "Job").
std::string_view OperatorKindName(OperatorKind kind);
// "kubeflow.org/v1", "batch.volcano.sh/v1alpha1", ...
std::string_view OperatorApiVersion(OperatorKind kind);
// "PyTorchJob/ns/name", "Job.batch.volcano.sh/ns/name": how reports name it.
std::string OperatorId(OperatorKind kind, std::string_view ns, std::string_view name);
// The kind read under `api_version`, or nullopt.
std::optional<OperatorKind> ParseOperatorKind(std::string_view api_version, std::string_view kind);
bool IsKubeflowKind(OperatorKind kind);

// Kubeflow's labels on the pods it creates (training-operator
// pkg/apis/kubeflow.org/v1/common_types.go).
inline constexpr const char* kKubeflowJobNameLabel = "training.kubeflow.org/job-name";
inline constexpr const char* kKubeflowOperatorNameLabel = "training.kubeflow.org/operator-name";
inline constexpr const char* kKubeflowReplicaTypeLabel = "training.kubeflow.org/replica-type";
inline constexpr const char* kKubeflowReplicaIndexLabel = "training.kubeflow.org/replica-index";
inline constexpr const char* kKubeflowJobRoleLabel = "training.kubeflow.org/job-role";
// Volcano's pod annotations (batch/v1alpha1/labels.go).
inline constexpr const char* kVolcanoJobNameAnnotation = "volcano.sh/job-name";
inline constexpr const char* kVolcanoTaskIndexAnnotation = "volcano.sh/task-index";
// LeaderWorkerSet's labels and annotations (leaderworkerset_types.go).
inline constexpr const char* kLwsNameLabel = "leaderworkerset.sigs.k8s.io/name";
inline constexpr const char* kLwsGroupIndexLabel = "leaderworkerset.sigs.k8s.io/group-index";
inline constexpr const char* kLwsWorkerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index";
inline constexpr const char* kLwsSizeAnnotation = "leaderworkerset.sigs.k8s.io/size";
// JobSet's labels on its Jobs and their pods (jobset_types.go).
inline constexpr const char* kJobSetNameLabel = "jobset.sigs.k8s.io/jobset-name";
inline constexpr const char* kJobSetReplicatedJobLabel = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr const char* kJobSetJobIndexLabel = "jobset.sigs.k8s.io/job-index";
inline constexpr const char* kJobSetReplicatedJobReplicasLabel = "jobset.sigs.k8s.io/replicatedjob-replicas";

// One role of a workload: a Kubeflow replica type, a Volcano task, a JobSet
// replicated job, a LeaderWorkerSet's leader or workers.
struct OperatorRole {
  std::string name;       // "Master", "worker", "trainer", "leader"
  int64_t replicas = 1;   // pods (Kubeflow, Volcano); Jobs (JobSet); groups (LWS)
  Pod tmpl;               // the pod template
  std::string restart_policy;             // Kubeflow replica restartPolicy
  std::optional<int32_t> min_available;   // Volcano task minAvailable
  std::vector<std::pair<std::string, std::string>> policies;  // Volcano task policies: (event, action)
  Controller job;  // JobSet: the replicated Job's template (kind Job, its pod template in job.tmpl)
};

struct OperatorWorkload {
  OperatorKind kind = OperatorKind::kPyTorchJob;
  std::string api_version;
  ObjectMeta meta;
  std::optional<OwnerReference> controller_ref;
  std::vector<OperatorRole> roles;  // in a fixed order per kind, then by name

  // The group it asks for: Kubeflow runPolicy.schedulingPolicy, Volcano spec.
  std::optional<int32_t> min_available;
  std::string queue;
  std::string priority_class;  // Kubeflow schedulingPolicy.priorityClass, Volcano spec.priorityClassName
  std::optional<int32_t> schedule_timeout_seconds;
  // PyTorchJob spec.elasticPolicy.minReplicas as training-operator's
  // defaulting leaves it (setElasticPolicy: minReplicas, else maxReplicas,
  // else the Worker replicas); unset without an elasticPolicy. KAI's
  // pod-grouper takes it as the gang's minimum; training-operator's own
  // PodGroups do not (they use min_available or every replica).
  std::optional<int32_t> elastic_min_replicas;
  ResourceList min_resources;
  std::string scheduler_name;  // Volcano spec.schedulerName (defaulted to "volcano")
  std::vector<std::pair<std::string, std::string>> policies;  // Volcano job policies: (event, action)
  bool suspend = false;   // Kubeflow runPolicy.suspend, JobSet spec.suspend
  bool finished = false;  // a Succeeded/Failed/Completed condition or state

  // LeaderWorkerSet.
  int32_t group_size = 1;                               // leaderWorkerTemplate.size
  std::string startup_policy = "LeaderCreated";          // spec.startupPolicy
  std::string restart_policy = "RecreateGroupOnPodRestart";  // leaderWorkerTemplate.restartPolicy
  // JobSet: spec.startupPolicy.startupPolicyOrder ("AnyOrder" or "InOrder").
  std::string startup_policy_order = "AnyOrder";

  const std::string& name() const { return meta.name; }
  const std::string& ns() const { return meta.namespace_; }
  // The pods it wants in all: Kubeflow and Volcano the sum of their roles'
  // replicas; JobSet the sum of replicas x parallelism; LWS replicas x size.
  int64_t TotalPods() const;
};

// What expanding one workload gave.
struct OperatorPods {
  OperatorKind kind = OperatorKind::kPyTorchJob;
  std::string ns;
  std::string name;
  std::string file;
  int line = 0;
  std::string summary;  // "2 roles, 3 pods wanted, 0 present: creates 3; group of 3 (Volcano PodGroup mnist)"
  std::vector<std::string> had;      // "ns/name" of its pods already in the input (active)
  std::vector<std::string> created;  // pods gpusched created (JobSet, LWS: through their Jobs/StatefulSets)
  std::vector<std::string> children;  // "Job/ns/name", "StatefulSet/ns/name" it created (JobSet, LWS)
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_OPERATOR_WORKLOAD_H_
