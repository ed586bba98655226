// Controller: a workload controller object (Deployment, ReplicaSet,
// StatefulSet, Job, DaemonSet, CronJob) reduced to what deciding its pods
// needs: identity and owner, selector, pod template, the replica counts of its
// spec, the Deployment strategy, and the status counts its controller reads.
// Fields apply to the kinds their comment names; the others ignore them.
//
// ControllerPods is what controllers/controller_expansion did with one
// controller: the pods it already had and the ones gpusched created for it,
// for `gpusched explain CONTROLLER`.
#ifndef GPUSCHED_MODEL_CONTROLLER_H_
#define GPUSCHED_MODEL_CONTROLLER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/label_selector.h"
#include "gpusched/model/object_meta.h"
#include "gpusched/model/owner_reference.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/volume_objects.h"

namespace gpusched {

enum class ControllerKind { kDeployment, kReplicaSet, kStatefulSet, kJob, kDaemonSet, kCronJob };

// "Deployment"
std::string_view KindName(ControllerKind kind);
// The resource as the API server names it in messages: "deployments.apps".
std::string_view ResourceName(ControllerKind kind);
// "apps" or "batch".
std::string_view KindGroup(ControllerKind kind);
// From a kind name ("Deployment"); nullopt for other kinds.
std::optional<ControllerKind> ParseControllerKind(std::string_view kind);

// An intstr.IntOrString that holds either a count or a percentage
// (maxSurge, maxUnavailable).
struct IntOrPercent {
  int64_t value = 0;
  bool percent = false;
};

// intstr.GetScaledValueFromIntOrPercent: a percentage of `total`, rounded up
// or down.
int64_t ScaledValue(const IntOrPercent& v, int64_t total, bool round_up);

// Deployment annotations the Deployment controller writes and reads
// (pkg/controller/deployment/util/deployment_util.go).
inline constexpr const char* kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr const char* kDesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
inline constexpr const char* kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
// The label the Deployment controller adds to its ReplicaSets and their pods.
inline constexpr const char* kPodTemplateHashLabel = "pod-template-hash";
// The label the Job controller's generated selector matches (batch/v1).
inline constexpr const char* kJobControllerUidLabel = "batch.kubernetes.io/controller-uid";
// The annotation that holds an Indexed Job pod's completion index.
inline constexpr const char* kJobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index";

struct Controller {
  ControllerKind kind = ControllerKind::kDeployment;
  std::string api_version;
  ObjectMeta meta;
  std::optional<OwnerReference> controller_ref;  // ReplicaSet -> Deployment, Job -> CronJob
  std::string creation_timestamp;                // RFC 3339; orders ReplicaSets as upstream does
  int64_t generation = 0;                        // metadata.generation

  // spec.selector; absent for a Job whose selector the API server generates.
  std::optional<LabelSelector> selector;
  Pod tmpl;  // spec.template (spec.jobTemplate.spec.template for a CronJob)

  // Deployment, ReplicaSet, StatefulSet: spec.replicas (defaulted to 1).
  int64_t replicas = 1;

  // Deployment: spec.strategy and spec.paused (apps/v1 defaults).
  bool recreate = false;
  IntOrPercent max_surge{25, true};
  IntOrPercent max_unavailable{25, true};
  bool paused = false;

  // Deployment and ReplicaSet status.
  int64_t status_replicas = 0;
  int64_t status_available_replicas = 0;
  int64_t observed_generation = 0;

  // StatefulSet: spec.ordinals.start.
  int64_t ordinals_start = 0;
  // StatefulSet: spec.volumeClaimTemplates. The controller gives each pod
  // the claim "<template>-<set>-<ordinal>" (creating it with the set's
  // selector labels when it does not exist), mounted as volume <template>
  // (pkg/controller/statefulset/stateful_set_utils.go updateStorage).
  std::vector<PersistentVolumeClaim> volume_claim_templates;

  // Job: spec.parallelism/completions as defaulted by SetDefaults_Job,
  // completionMode, suspend; status.succeeded, status.completedIndexes and
  // whether a Complete or Failed condition is True.
  int64_t parallelism = 1;
  std::optional<int64_t> completions;
  bool indexed = false;
  bool suspend = false;  // also CronJob spec.suspend
  int64_t status_succeeded = 0;
  std::string completed_indexes;  // "1,3-5"
  bool finished = false;

  // DaemonSet: spec.template.spec.hostNetwork (it adds a toleration).
  bool host_network = false;

  // CronJob: spec.schedule.
  std::string schedule;

  const std::string& name() const { return meta.name; }
  const std::string& ns() const { return meta.namespace_; }
};

// What expanding one controller gave.
struct ControllerPods {
  ControllerKind kind = ControllerKind::kDeployment;
  std::string ns;
  std::string name;
  std::string file;
  int line = 0;
  // One line on what the controller wants and has, e.g. "2 replicas; ReplicaSet web-6d4cf56db6 (current, 2
  // replicas)".
  std::string summary;
  // "namespace/name" of the pods already in the input that belong to it:
  // active ones (scheduled with the rest) and terminated ones (phase
  // Succeeded/Failed: they hold nothing), then the pods gpusched created.
  std::vector<std::string> had;
  std::vector<std::pair<std::string, std::string>> had_terminated;  // (pod, phase)
  std::vector<std::string> created;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_CONTROLLER_H_
