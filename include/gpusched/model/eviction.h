// What happens to a pod when it is evicted (preempted, or its node taken
// away), as the simulator needs to know it:
//  - its grace period: spec.terminationGracePeriodSeconds, defaulted to 30 by
//    the API server (pkg/apis/core/v1/defaults.go, SetDefaults_PodSpec); the
//    pod keeps its resources that long before they free;
//  - how much work it loses: everything since it started, or since its last
//    checkpoint when it declares the gpusched.io/checkpoint-interval
//    annotation (seconds or a Go duration, model/duration.h; > 0);
//  - whether, and how, its controller brings it back (RequeueOnEviction):
//    a bare pod is gone; a ReplicaSet's, Deployment's, Job's or DaemonSet's
//    pod is replaced by a new pod under a new name; a StatefulSet's, a
//    LeaderWorkerSet's, a Kubeflow training job's (PyTorchJob, TFJob,
//    MPIJob...) and a Volcano Job's pod comes back under the same name
//    (those controllers create each missing index again). A replacement
//    starts from scratch unless the pod checkpoints. Whether a whole group
//    restarts with it (a LeaderWorkerSet's RecreateGroupOnPodRestart, a
//    Volcano Job policy PodEvicted: RestartJob) is a property of the group:
//    Gang::restarts_whole_group (model/gang.h).
#ifndef GPUSCHED_MODEL_EVICTION_H_
#define GPUSCHED_MODEL_EVICTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

inline constexpr int64_t kDefaultTerminationGracePeriodSeconds = 30;
inline constexpr const char* kAnnotationCheckpointInterval = "gpusched.io/checkpoint-interval";

// spec.terminationGracePeriodSeconds as the API server defaults it.
int64_t TerminationGracePeriodSeconds(const Pod& pod);

// The checkpoint interval in seconds; nullopt when the pod has no (valid)
// annotation. CheckpointIntervalError says why a value is refused.
std::optional<double> CheckpointIntervalSeconds(const Pod& pod);
// The field error for an invalid gpusched.io/checkpoint-interval
// ("metadata.annotations[gpusched.io/checkpoint-interval]: Invalid value:
// \"x\": must be a duration greater than 0 such as 600, 10m or 1h"), or
// nullopt when the pod has none or a valid one.
std::optional<FieldError> CheckpointIntervalError(const Pod& pod);

// Work a pod evicted `ran_seconds` after it started loses: all of it, or
// what ran since its last checkpoint.
double LostWorkSeconds(const Pod& pod, double ran_seconds);

struct EvictionRequeue {
  enum class Kind {
    kGone,             // a bare pod (or one whose controller is not in the input)
    kReplacedNewName,  // ReplicaSet, Deployment, Job, DaemonSet, JobSet (through its Job)
    kReplacedSameName  // StatefulSet, LeaderWorkerSet, Kubeflow jobs, Volcano Job
  };
  Kind kind = Kind::kGone;
  // "Kind/name" of the controller that brings it back; "" for kGone.
  std::string controller;
};

// From the pod's controller: the owner gpusched expanded it from
// (Pod::owner) or its controller reference (a pod of a live dump).
EvictionRequeue RequeueOnEviction(const Pod& pod);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_EVICTION_H_
