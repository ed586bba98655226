#include "gpusched/model/eviction.h"

#include <algorithm>
#include <cmath>

#include "gpusched/model/duration.h"

namespace gpusched {
namespace {

struct KindRequeue {
  const char* kind;
  EvictionRequeue::Kind requeue;
};
// Controllers that recreate a deleted pod, and under which name: the
// StatefulSet controller recreates the missing ordinal; Kubeflow's
// ReconcilePods (training-operator pkg/controller.v1/common/pod.go) and
// Volcano's job controller (syncJob) create each missing index again as
// <job>-<role>-<index> / <job>-<task>-<index>; the others create a pod with
// a generated name.
constexpr KindRequeue kRequeue[] = {
    {"ReplicaSet", EvictionRequeue::Kind::kReplacedNewName},
    {"Deployment", EvictionRequeue::Kind::kReplacedNewName},
    {"Job", EvictionRequeue::Kind::kReplacedNewName},
    {"DaemonSet", EvictionRequeue::Kind::kReplacedNewName},
    {"ReplicationController", EvictionRequeue::Kind::kReplacedNewName},
    {"StatefulSet", EvictionRequeue::Kind::kReplacedSameName},
    {"LeaderWorkerSet", EvictionRequeue::Kind::kReplacedSameName},
    {"PyTorchJob", EvictionRequeue::Kind::kReplacedSameName},
    {"TFJob", EvictionRequeue::Kind::kReplacedSameName},
    {"MPIJob", EvictionRequeue::Kind::kReplacedSameName},
    {"XGBoostJob", EvictionRequeue::Kind::kReplacedSameName},
    {"PaddleJob", EvictionRequeue::Kind::kReplacedSameName},
    {"JAXJob", EvictionRequeue::Kind::kReplacedSameName},
    {"Job.batch.volcano.sh", EvictionRequeue::Kind::kReplacedSameName},
};

}  // namespace

int64_t TerminationGracePeriodSeconds(const Pod& pod) {
  const auto& v = pod.Extras().termination_grace_period_seconds;
  return v ? *v : kDefaultTerminationGracePeriodSeconds;
}

std::optional<double> CheckpointIntervalSeconds(const Pod& pod) {
  auto it = pod.meta.annotations.find(kAnnotationCheckpointInterval);
  if (it == pod.meta.annotations.end()) return std::nullopt;
  std::optional<double> s = ParseDurationSeconds(it->second);
  if (!s || *s <= 0) return std::nullopt;
  return s;
}

std::optional<FieldError> CheckpointIntervalError(const Pod& pod) {
  auto it = pod.meta.annotations.find(kAnnotationCheckpointInterval);
  if (it == pod.meta.annotations.end() || CheckpointIntervalSeconds(pod)) return std::nullopt;
  return FieldError::Invalid("metadata.annotations[" + std::string(kAnnotationCheckpointInterval) + "]", it->second,
                             "must be a duration greater than 0 such as 600, 10m or 1h");
}

double LostWorkSeconds(const Pod& pod, double ran_seconds) {
  if (ran_seconds <= 0) return 0;
  std::optional<double> every = CheckpointIntervalSeconds(pod);
  if (!every) return ran_seconds;
  return ran_seconds - std::floor(ran_seconds / *every) * *every;
}

EvictionRequeue RequeueOnEviction(const Pod& pod) {
  // The direct controller decides (a JobSet's pod comes back through its
  // Job); Volcano's Job is a "Job" of batch.volcano.sh.
  std::string kind, name;
  if (pod.controller_ref) {
    kind = pod.controller_ref->kind;
    name = pod.controller_ref->name;
    if (ApiGroup(pod.controller_ref->api_version) == "batch.volcano.sh") kind += ".batch.volcano.sh";
  } else if (!pod.owner.empty()) {
    const size_t slash = pod.owner.find('/');
    kind = pod.owner.substr(0, slash);
    name = slash == std::string::npos ? "" : pod.owner.substr(slash + 1);
  }
  for (const KindRequeue& k : kRequeue)
    if (kind == k.kind) return EvictionRequeue{k.requeue, kind + "/" + name};
  return EvictionRequeue{};
}

}  // namespace gpusched
